/**
 * Characters a word holds, recorded as bits while the parser reads the word. Rules ask them
 * before anything costlier (a word without a slash names no path, one without a colon or a dot
 * no host), and text read as shell has about one word per ten bytes, so testing a bit instead
 * of scanning the word again for each question is much of what those rules cost. Bits stay
 * below 0x80, which the parser's table keeps for itself (ENDS_RUN in parser.ts).
 */
export const WordFact = {
  slash: 1,
  underscore: 2,
  colon: 4,
  dot: 8,
  /**
   * A `(` or a backtick. A command substitution (`$(...)`, `<(...)`, backticks) stays in its
   * word's text and holds one, so a command whose words have neither has no substitution.
   */
  substitutionMark: 16,
  /** A decimal digit: an IPv4 address has four, most words with a dot (prose, file names) none. */
  digit: 32,
  /**
   * An `l` or a `k`, small or capital: every credential-dumping verb the rules look for in any
   * command's arguments (`lsass`, `sekurlsa`, `hklm\sam`, `dump-keychain`) has one, and two words
   * in three have neither. The rules check their verbs against this when loaded.
   */
  dumpVerbLetter: 64,
} as const;

const CHARACTERS: readonly (readonly [string, number])[] = [
  ["/", WordFact.slash],
  ["_", WordFact.underscore],
  [":", WordFact.colon],
  [".", WordFact.dot],
  ["(", WordFact.substitutionMark],
  ["`", WordFact.substitutionMark],
  ...[..."0123456789"].map((d) => [d, WordFact.digit] as const),
  ...[..."lLkK"].map((c) => [c, WordFact.dumpVerbLetter] as const),
];

/** The facts of `extra` characters and of the characters above: a lookup table over ASCII. */
export function factTable(extra: readonly (readonly [number, number])[] = []): Uint8Array {
  const table = new Uint8Array(128);
  for (const [c, fact] of CHARACTERS) table[c.charCodeAt(0)] = fact;
  for (const [c, bits] of extra) table[c] = (table[c] ?? 0) | bits;
  return table;
}

const FACTS = factTable();

/** The `WordFact` bits of `text`. */
export function factsOf(text: string): number {
  let facts = 0;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c < 128) facts |= FACTS[c]!;
  }
  return facts;
}
