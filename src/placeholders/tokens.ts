/** Placeholder tokens `${X_<KIND>_<n>}` (DESIGN.md decision 3). */

export const PLACEHOLDER_PATTERN = /\$\{X_([A-Z0-9_]{1,64})_(\d{1,9})\}/g;
const WHOLE = /^\$\{X_([A-Z0-9_]{1,64})_(\d{1,9})\}$/;

export function placeholderToken(kind: string, ordinal: number): string {
  return `\${X_${kind}_${ordinal}}`;
}

/** Kinds are upper-case letters, digits and underscores; anything else is folded to `_`. */
export function normaliseKind(kind: string): string {
  const folded = kind.toUpperCase().replace(/[^A-Z0-9_]/g, "_").slice(0, 64);
  return folded || "VALUE";
}

export function parsePlaceholder(token: string): { kind: string; ordinal: number } | undefined {
  const match = WHOLE.exec(token);
  return match?.[1] && match[2] ? { kind: match[1], ordinal: Number(match[2]) } : undefined;
}

/** Every distinct placeholder token in a body's string leaves. */
export function tokensIn(payload: unknown): Set<string> {
  const found = new Set<string>();
  const walk = (value: unknown, depth: number): void => {
    if (typeof value === "string") {
      if (value.includes("${X_")) for (const match of value.matchAll(PLACEHOLDER_PATTERN)) found.add(match[0]);
      return;
    }
    if (depth > 256 || typeof value !== "object" || value === null) return;
    for (const item of Array.isArray(value) ? value : Object.values(value)) walk(item, depth + 1);
  };
  walk(payload, 0);
  return found;
}
