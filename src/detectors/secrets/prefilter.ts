import type { SecretRule } from "./rule.js";

/**
 * Keyword prefiltering: one case-insensitive alternation over every rule's trigger
 * keywords, run once per segment. A segment without any keyword costs that single pass;
 * otherwise only the rules whose keywords occur run their own patterns.
 */
export interface Prefilter {
  /** The combined keyword pattern (exported for the regex safety test). */
  readonly pattern: RegExp;
  /** The rules worth running on `text`, in declaration order. */
  select(text: string): SecretRule[];
}

function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

export function buildPrefilter(rules: readonly SecretRule[]): Prefilter {
  const keywords = [...new Set(rules.flatMap((r) => r.keywords.map((k) => k.toLowerCase())))];
  // Longest first, so that a keyword that extends another is reported whole; a match also
  // counts for every keyword it contains (`sk-ant-` also triggers `sk-`).
  keywords.sort((a, b) => b.length - a.length);
  const contained = new Map<string, string[]>();
  for (const k of keywords)
    contained.set(
      k,
      keywords.filter((other) => k.includes(other)),
    );
  const pattern = new RegExp(keywords.map(escapeRegExp).join("|"), "gi");
  return {
    pattern,
    select(text) {
      const seen = new Set<string>();
      pattern.lastIndex = 0;
      for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
        for (const k of contained.get(m[0].toLowerCase()) ?? []) seen.add(k);
        // Restart one character on so overlapping keywords are not hidden by this match.
        pattern.lastIndex = m.index + 1;
        if (seen.size === keywords.length) break;
      }
      if (seen.size === 0) return [];
      return rules.filter((r) => r.keywords.some((k) => seen.has(k.toLowerCase())));
    },
  };
}
