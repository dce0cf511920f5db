/**
 * Latin look-alikes from other scripts, folded to the lower-case Latin letter they imitate.
 * NFKC/NFKD do not touch these (Cyrillic `о` is a letter in its own right), so without this
 * table `іgnоrе` (Cyrillic і, о, е) slips past every English phrase. The list is the subset of
 * Unicode's confusables that renders identically in common fonts; folding a whole Russian or
 * Greek sentence produces gibberish Latin, which is harmless because it matches no phrase.
 */
const PAIRS: readonly (readonly [string, string])[] = [
  // Cyrillic lower case.
  ["а", "a"],
  ["в", "b"],
  ["е", "e"],
  ["ё", "e"],
  ["з", "3"],
  ["і", "i"],
  ["ї", "i"],
  ["ј", "j"],
  ["к", "k"],
  ["м", "m"],
  ["н", "h"],
  ["о", "o"],
  ["р", "p"],
  ["с", "c"],
  ["т", "t"],
  ["у", "y"],
  ["х", "x"],
  ["ѕ", "s"],
  ["ԁ", "d"],
  ["ԛ", "q"],
  ["ԝ", "w"],
  ["һ", "h"],
  ["ӏ", "l"],
  // Cyrillic upper case.
  ["А", "a"],
  ["В", "b"],
  ["Е", "e"],
  ["Ё", "e"],
  ["І", "i"],
  ["Ї", "i"],
  ["Ј", "j"],
  ["К", "k"],
  ["М", "m"],
  ["Н", "h"],
  ["О", "o"],
  ["Р", "p"],
  ["С", "c"],
  ["Т", "t"],
  ["У", "y"],
  ["Х", "x"],
  ["Ѕ", "s"],
  ["Ԁ", "d"],
  ["Ԛ", "q"],
  ["Ԝ", "w"],
  ["Һ", "h"],
  ["Ӏ", "l"],
  // Greek.
  ["α", "a"],
  ["ε", "e"],
  ["ι", "i"],
  ["κ", "k"],
  ["ν", "v"],
  ["ο", "o"],
  ["ρ", "p"],
  ["τ", "t"],
  ["υ", "u"],
  ["χ", "x"],
  ["Α", "a"],
  ["Β", "b"],
  ["Ε", "e"],
  ["Ζ", "z"],
  ["Η", "h"],
  ["Ι", "i"],
  ["Κ", "k"],
  ["Μ", "m"],
  ["Ν", "n"],
  ["Ο", "o"],
  ["Ρ", "p"],
  ["Τ", "t"],
  ["Υ", "y"],
  ["Χ", "x"],
  // Latin extensions and letter-like symbols that NFKD leaves alone.
  ["ı", "i"],
  ["ȷ", "j"],
  ["ɑ", "a"],
  ["ɡ", "g"],
  ["ǀ", "l"],
  ["ʟ", "l"],
  ["ɪ", "i"],
  ["ɴ", "n"],
  ["ʀ", "r"],
  ["ꜱ", "s"],
  ["ᴀ", "a"],
  ["ᴄ", "c"],
  ["ᴅ", "d"],
  ["ᴇ", "e"],
  ["ᴏ", "o"],
  ["ᴘ", "p"],
  ["ᴛ", "t"],
  ["ᴜ", "u"],
  // Typographic quotes, so that phrases with apostrophes match either form.
  ["‘", "'"],
  ["’", "'"],
  ["“", '"'],
  ["”", '"'],
];

const TABLE: ReadonlyMap<number, number> = new Map(
  PAIRS.map(([from, to]) => [from.codePointAt(0) ?? 0, to.charCodeAt(0)]),
);

/** The Latin letter (as a UTF-16 unit) a code point imitates, or -1. */
export function foldConfusable(codePoint: number): number {
  return TABLE.get(codePoint) ?? -1;
}
