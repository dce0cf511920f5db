import type { SecretRule } from "./rule.js";

/**
 * Keyword prefiltering without a regular expression. Each keyword is filed under the pair
 * of adjacent characters it holds that ordinary text uses least (`q~` for `q~`, `pw` for
 * `pwd`, `_v` for `_v1_`); one pass over the lower-cased text looks every adjacent pair up
 * in a 64 KB table and, on the rare hit, compares the keywords filed there. Text without any
 * keyword costs that single pass; only the rules whose keywords occur then run their own
 * patterns. One-character keywords, if any, are found with `includes`.
 */
export interface Prefilter {
  /** The rules worth running on `text` (whose lower-cased form is `lower`), in declaration order. */
  select(text: string, lower: string): SecretRule[];
}

/** Table index of the pair (a, b); both folded to their low byte, so non-ASCII may collide (harmlessly). */
function pairIndex(a: number, b: number): number {
  return ((a & 0xff) << 8) | (b & 0xff);
}

/** Rough share (%) of each lower-case letter in English prose and code identifiers. */
const LETTER_SHARE =
  "8.2 1.5 2.8 4.3 12.7 2.2 2.0 6.1 7.0 0.2 0.8 4.0 2.4 6.7 7.5 1.9 0.1 6.0 6.3 9.1 2.8 1.0 2.4 0.2 2.0 0.1"
    .split(" ")
    .map(Number);

/** How common a character is in ordinary text, for choosing a keyword's rarest pair. */
function share(c: number): number {
  if (c >= 0x61 && c <= 0x7a) return LETTER_SHARE[c - 0x61] ?? 1;
  if (c === 0x20) return 15;
  if (c >= 0x30 && c <= 0x39) return 0.8;
  // Punctuation frequent in code and logs.
  if (c === 0x2e || c === 0x2c || c === 0x5f || c === 0x2d || c === 0x3a || c === 0x2f || c === 0x3d)
    return 1.5;
  return 0.3;
}

/** Offset of the pair of `keyword` least likely to occur in ordinary text. */
function rarestPair(keyword: string): number {
  let best = 0;
  let bestScore = Number.POSITIVE_INFINITY;
  for (let j = 0; j + 1 < keyword.length; j++) {
    const score = share(keyword.charCodeAt(j)) * share(keyword.charCodeAt(j + 1));
    if (score < bestScore) {
      bestScore = score;
      best = j;
    }
  }
  return best;
}

/** The keywords filed under each pair, and where in the keyword the pair sits. */
interface Tables {
  /** 1 where some keyword is filed under the pair. */
  readonly marked: Uint8Array;
  readonly keywords: readonly (readonly number[])[];
  readonly offsets: readonly (readonly number[])[];
}

/**
 * Marks in `seen` every keyword (by index into `words`) that occurs in `lower`; returns how
 * many. A plain top-level loop: the JIT keeps it tight (a table read per character).
 */
function scan(lower: string, words: readonly string[], tables: Tables, seen: Uint8Array): number {
  const { marked, keywords, offsets } = tables;
  let found = 0;
  let prev = lower.charCodeAt(0);
  for (let at = 1; at < lower.length; at++) {
    const c = lower.charCodeAt(at);
    const slot = ((prev & 0xff) << 8) | (c & 0xff);
    prev = c;
    if (marked[slot] === 0) continue;
    const ids = keywords[slot] ?? [];
    const offs = offsets[slot] ?? [];
    for (let j = 0; j < ids.length; j++) {
      const id = ids[j] ?? 0;
      if (seen[id] === 0 && lower.startsWith(words[id] ?? "", at - 1 - (offs[j] ?? 0))) {
        seen[id] = 1;
        found++;
      }
    }
  }
  return found;
}

export function buildPrefilter(rules: readonly SecretRule[]): Prefilter {
  const words = [...new Set(rules.flatMap((r) => r.keywords.map((k) => k.toLowerCase())))];
  /** For each keyword, the indexes of the rules it triggers. */
  const triggers = words.map((w) =>
    rules.flatMap((r, i) => (r.keywords.some((k) => k.toLowerCase() === w) ? [i] : [])),
  );
  const single: number[] = [];
  // A byte per pair keeps the hot loop's table in fast cache; the keywords filed under a
  // marked pair are read only on a hit (dense arrays: no dictionary-mode lookups).
  const marked = new Uint8Array(65536);
  const keywords: number[][] = Array.from({ length: 65536 }, () => []);
  const offsets: number[][] = Array.from({ length: 65536 }, () => []);
  for (const [id, word] of words.entries()) {
    if (word.length === 1) {
      single.push(id);
      continue;
    }
    const offset = rarestPair(word);
    const slot = pairIndex(word.charCodeAt(offset), word.charCodeAt(offset + 1));
    marked[slot] = 1;
    keywords[slot]?.push(id);
    offsets[slot]?.push(offset);
  }
  const tables: Tables = { marked, keywords, offsets };

  return {
    select(_text, lower) {
      const seen = new Uint8Array(words.length);
      let found = scan(lower, words, tables, seen);
      for (const id of single) {
        if (lower.includes(words[id] ?? "")) {
          seen[id] = 1;
          found++;
        }
      }
      if (found === 0) return [];
      const chosen = new Uint8Array(rules.length);
      for (let id = 0; id < words.length; id++)
        if (seen[id] === 1) for (const r of triggers[id] ?? []) chosen[r] = 1;
      return rules.filter((_, r) => chosen[r] === 1);
    },
  };
}
