import { categoryMatches } from "./policy.js";

/** Spec 4.1: a map of category or `prefix.*` to open/closed, plus `default` (open unless set). */
export type FailMode = "open" | "closed";
export type FailModes = Readonly<Record<string, FailMode>>;

export const DEFAULT_FAIL_MODES: FailModes = { default: "open" };

/** How specific a fail-mode key is: an exact id beats any prefix, a longer prefix a shorter one. */
function specificity(key: string): number {
  return key.endsWith(".*") ? key.length - 2 : key.length + 1000;
}

const base = (pattern: string) => (pattern.endsWith(".*") ? pattern.slice(0, -2) : pattern);

/** The mode for everything one detector category may report. */
function modeForCategory(modes: FailModes, category: string): FailMode {
  let governing: string | undefined;
  let subtreeClosed = false;
  for (const [key, mode] of Object.entries(modes)) {
    if (key === "default") continue;
    if (categoryMatches(key, base(category))) {
      // The category lies under this entry: the most specific such entry governs it.
      if (!governing || specificity(key) > specificity(governing)) governing = key;
    } else if (category.endsWith(".*") && categoryMatches(category, base(key)) && mode === "closed") {
      // A fail-closed part of the subtree the detector covers.
      subtreeClosed = true;
    }
  }
  const governed = governing ? modes[governing] : modes["default"];
  return subtreeClosed || governed === "closed" ? "closed" : "open";
}

/**
 * The fail mode for what a silent detector covers (spec 4.1): closed when any category it
 * may report is fail-closed, where the most specific matching entry governs a category and
 * `default` (open unless set) what no entry names. A silent detector covering a fail-closed
 * category makes the verdict a block.
 */
export function failModeFor(modes: FailModes, categories: readonly string[]): FailMode {
  return categories.some((c) => modeForCategory(modes, c) === "closed") ? "closed" : "open";
}
