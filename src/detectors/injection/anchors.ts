import type { Family } from "./lexicon.js";

/**
 * The prefilter: one expression made of every family's anchors, run once over the whole
 * normalised text. A sentence unit runs a family's patterns only when one of that family's
 * anchors occurred in it, so text with no trigger word pays for a single scan.
 */
export interface AnchorIndex {
  readonly pattern: RegExp;
  /** Anchor text as matched -> bit set of family indexes. */
  readonly masks: ReadonlyMap<string, number>;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Builds the prefilter for up to 31 families. */
export function buildAnchorIndex(families: readonly Family[]): AnchorIndex {
  if (families.length > 31) throw new Error("anchor index holds at most 31 families");
  const masks = new Map<string, number>();
  const words = new Set<string>();
  const prefixes = new Set<string>();
  const symbols = new Set<string>();
  families.forEach((family, index) => {
    for (const anchor of family.anchors) {
      const prefix = anchor.endsWith("*");
      const key = prefix ? anchor.slice(0, -1) : anchor;
      masks.set(key, (masks.get(key) ?? 0) | (1 << index));
      if (prefix) prefixes.add(key);
      else if (/^[a-z0-9]/.test(key)) words.add(key);
      else symbols.add(key);
    }
  });
  // The alternation reports one anchor per position: a word anchor that a prefix anchor also
  // covers (`ignore` and `ignor*`) must carry both families.
  for (const word of words) {
    for (const prefix of prefixes) {
      if (word.startsWith(prefix)) masks.set(word, (masks.get(word) ?? 0) | (masks.get(prefix) ?? 0));
    }
  }
  // Likewise a prefix anchor that a shorter one covers (`ignor*` and `igno*`).
  for (const longer of prefixes) {
    for (const prefix of prefixes) {
      if (longer !== prefix && longer.startsWith(prefix))
        masks.set(longer, (masks.get(longer) ?? 0) | (masks.get(prefix) ?? 0));
    }
  }
  // Longest first, so that an alternation reports the most specific anchor.
  const sorted = (set: Set<string>): string =>
    [...set]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join("|");
  const parts: string[] = [];
  if (words.size > 0) parts.push(`\\b(?:${sorted(words)})(?![a-z0-9'])`);
  if (prefixes.size > 0) parts.push(`\\b(?:${sorted(prefixes)})`);
  if (symbols.size > 0) parts.push(`(?:${sorted(symbols)})`);
  return { pattern: new RegExp(parts.join("|"), "g"), masks };
}
