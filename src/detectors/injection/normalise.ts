import { foldConfusable } from "./confusables.js";

/**
 * Canonical form of a text for phrase matching, with a map back to the source.
 *
 * Attackers defeat naive matching by writing `ＩＧＮＯＲＥ`, `іgnоrе` (Cyrillic), `ig\u200Bnore`,
 * `1gn0r3` or `i g n o r e`. Every such variant must reach the lexicon as `ignore`, and every
 * matched range must still point at the characters the producer sent, so each output unit
 * records the UTF-16 range of the source code point it came from.
 *
 * Steps, all in one linear pass plus two linear clean-ups:
 * - invisible characters (zero-width, bidi controls, tag block, variation selectors) vanish;
 * - compatibility decomposition (NFKD, the decomposing half of NFKC) folds full-width, styled
 *   and ligature forms, and combining marks are dropped so `ïgnöre` reads `ignore`;
 * - Latin look-alikes from Cyrillic and Greek fold to Latin; everything is lower-cased;
 * - whitespace runs collapse to one space, or one `\n` when the run holds a line break;
 * - leetspeak digits inside letter-bearing words (`1gn0r3`) become letters, but the `@` of an
 *   e-mail address (`audit@example.org`) stays, for the lexicon's exfiltration branch to see;
 * - runs of four or more single letters split by one separator (`i g n o r e`) are joined.
 */
export interface NormalisedText {
  /** Lower-case canonical text. */
  readonly text: string;
  /** For each unit of `text`, the UTF-16 index in the source where its code point starts. */
  readonly from: Uint32Array;
  /** For each unit of `text`, the UTF-16 index in the source just past its code point. */
  readonly to: Uint32Array;
}

/** Characters with no visible glyph that change nothing a reader sees. */
export function isInvisible(cp: number): boolean {
  return (
    cp === 0x00ad || // soft hyphen
    cp === 0x034f || // combining grapheme joiner
    cp === 0x061c || // Arabic letter mark
    cp === 0x115f ||
    cp === 0x1160 ||
    cp === 0x3164 ||
    cp === 0xffa0 || // Hangul fillers
    cp === 0x17b4 ||
    cp === 0x17b5 ||
    (cp >= 0x180b && cp <= 0x180f) ||
    (cp >= 0x200b && cp <= 0x200f) || // zero-width space, joiners, LRM, RLM
    (cp >= 0x202a && cp <= 0x202e) || // bidi embeddings and overrides
    (cp >= 0x2060 && cp <= 0x206f) || // word joiner, invisible operators, isolates
    (cp >= 0xfe00 && cp <= 0xfe0f) || // variation selectors
    cp === 0xfeff || // byte-order mark
    (cp >= 0xe0000 && cp <= 0xe007f) || // tag block
    (cp >= 0xe0100 && cp <= 0xe01ef) // variation selectors supplement
  );
}

export function isLineBreak(cp: number): boolean {
  return (
    cp === 0x0a || cp === 0x0d || cp === 0x0b || cp === 0x0c || cp === 0x85 || cp === 0x2028 || cp === 0x2029
  );
}

export function isSpace(cp: number): boolean {
  return (
    cp === 0x20 ||
    cp === 0x09 ||
    cp === 0xa0 ||
    cp === 0x1680 ||
    (cp >= 0x2000 && cp <= 0x200a) ||
    cp === 0x202f ||
    cp === 0x205f ||
    cp === 0x3000
  );
}

function isCombiningMark(unit: number): boolean {
  return (
    (unit >= 0x0300 && unit <= 0x036f) ||
    (unit >= 0x1ab0 && unit <= 0x1aff) ||
    (unit >= 0x1dc0 && unit <= 0x1dff) ||
    (unit >= 0x20d0 && unit <= 0x20ff) ||
    (unit >= 0xfe20 && unit <= 0xfe2f)
  );
}

const SPACE = 0x20;
const NEWLINE = 0x0a;
const AT = 0x40;
const DOT = 0x2e;
const HYPHEN = 0x2d;

/** Growable parallel arrays: output units and their source ranges. */
class Builder {
  units: Uint16Array;
  from: Uint32Array;
  to: Uint32Array;
  length = 0;

  constructor(capacity: number) {
    const size = Math.max(16, capacity);
    this.units = new Uint16Array(size);
    this.from = new Uint32Array(size);
    this.to = new Uint32Array(size);
  }

  push(unit: number, from: number, to: number): void {
    if (this.length === this.units.length) this.grow();
    this.units[this.length] = unit;
    this.from[this.length] = from;
    this.to[this.length] = to;
    this.length++;
  }

  private grow(): void {
    const size = this.units.length * 2;
    const units = new Uint16Array(size);
    const from = new Uint32Array(size);
    const to = new Uint32Array(size);
    units.set(this.units);
    from.set(this.from);
    to.set(this.to);
    this.units = units;
    this.from = from;
    this.to = to;
  }

  last(): number {
    return this.length === 0 ? -1 : (this.units[this.length - 1] ?? -1);
  }

  toText(): string {
    const units = this.units.subarray(0, this.length);
    if (this.length > SHORT_TEXT) return UTF16.decode(units);
    // Short text: one call instead of a decoder round trip, where both give the same string
    // (the decoder turns a lone surrogate into U+FFFD).
    for (let i = 0; i < units.length; i++)
      if (((units[i] ?? 0) & 0xf800) === 0xd800) return UTF16.decode(units);
    return String.fromCharCode.apply(null, units as unknown as number[]);
  }
}

const UTF16 = new TextDecoder("utf-16le");
/** Longest text `toText` builds with String.fromCharCode. */
const SHORT_TEXT = 2048;

/**
 * Lower-case, confusable-folded, mark-free UTF-16 units for one non-ASCII code point; `cache`
 * memoises results (at most 4096 entries). Shared with the prefilter so both read the same letters.
 */
export function foldCodePoint(cp: number, cache: Map<number, number[]>): number[] {
  const cached = cache.get(cp);
  if (cached) return cached;
  const units: number[] = [];
  const direct = foldConfusable(cp);
  if (direct >= 0) {
    units.push(direct);
  } else {
    const decomposed = String.fromCodePoint(cp).normalize("NFKD");
    for (let i = 0; i < decomposed.length; i++) {
      const unit = decomposed.charCodeAt(i);
      if (isCombiningMark(unit)) continue;
      const folded = foldConfusable(unit);
      if (folded >= 0) {
        units.push(folded);
        continue;
      }
      const lower = String.fromCharCode(unit).toLowerCase();
      for (let k = 0; k < lower.length; k++) {
        const l = lower.charCodeAt(k);
        if (!isCombiningMark(l)) units.push(l);
      }
    }
  }
  if (cache.size < 4096) cache.set(cp, units);
  return units;
}

/** Folds of the non-ASCII code points met so far, shared by every call (foldCodePoint is pure). */
const FOLD_CACHE = new Map<number, number[]>();

function pushWhitespace(out: Builder, lineBreak: boolean, from: number, to: number): void {
  const last = out.last();
  if (last === NEWLINE) return;
  if (last === SPACE) {
    if (lineBreak) out.units[out.length - 1] = NEWLINE;
    out.to[out.length - 1] = to;
    return;
  }
  if (out.length === 0) return;
  out.push(lineBreak ? NEWLINE : SPACE, from, to);
}

/** First pass: invisibles, compatibility forms, marks, confusables, case and whitespace. */
function fold(source: string): Builder {
  const out = new Builder(source.length);
  const cache = FOLD_CACHE;
  let i = 0;
  while (i < source.length) {
    const unit = source.charCodeAt(i);
    if (unit < 0x80) {
      if (unit >= 0x41 && unit <= 0x5a) out.push(unit + 0x20, i, i + 1);
      else if (isLineBreak(unit)) pushWhitespace(out, true, i, i + 1);
      else if (isSpace(unit)) pushWhitespace(out, false, i, i + 1);
      else if (unit >= 0x20) out.push(unit, i, i + 1);
      i++;
      continue;
    }
    const cp = source.codePointAt(i) ?? unit;
    const width = cp > 0xffff ? 2 : 1;
    if (isInvisible(cp)) {
      // Nothing to emit; the source range still belongs to whatever surrounds it.
    } else if (isLineBreak(cp)) {
      pushWhitespace(out, true, i, i + width);
    } else if (isSpace(cp)) {
      pushWhitespace(out, false, i, i + width);
    } else {
      for (const u of foldCodePoint(cp, cache)) {
        if (u === SPACE) pushWhitespace(out, false, i, i + width);
        else out.push(u, i, i + width);
      }
    }
    i += width;
  }
  return out;
}

function isLetter(u: number): boolean {
  return u >= 0x61 && u <= 0x7a;
}

/** Digits and symbols read as letters in leetspeak. */
function leetLetter(u: number): number {
  switch (u) {
    case 0x30:
      return 0x6f; // 0 -> o
    case 0x31:
      return 0x69; // 1 -> i
    case 0x33:
      return 0x65; // 3 -> e
    case 0x34:
      return 0x61; // 4 -> a
    case 0x35:
      return 0x73; // 5 -> s
    case 0x37:
      return 0x74; // 7 -> t
    case 0x40:
      return 0x61; // @ -> a
    case 0x24:
      return 0x73; // $ -> s
    default:
      return -1;
  }
}

function isWordUnit(u: number): boolean {
  return isLetter(u) || (u >= 0x30 && u <= 0x39) || u === 0x40 || u === 0x24;
}

/**
 * Second pass, in place: within a word of letters, digits, `@` and `$` that holds at least two
 * letters, leet digits become letters. Pure numbers (`2024`, `$100`) are left alone. When
 * `keepAddresses` is set, the `@` of an e-mail address (see `opensAddress`) is no leet letter
 * but ends the word: `audit@external.example` keeps its `@`, and its local part and domain fold
 * as words of their own, so that an address cannot shelter leetspeak from the lexicon.
 */
function deLeet(out: Builder, keepAddresses: boolean): void {
  const units = out.units;
  let i = 0;
  while (i < out.length) {
    if (!isWordUnit(units[i] ?? 0)) {
      i++;
      continue;
    }
    let j = i;
    let letters = 0;
    let leet = 0;
    let address = false;
    while (j < out.length && isWordUnit(units[j] ?? 0)) {
      const u = units[j] ?? 0;
      if (isLetter(u)) letters++;
      else if (u === AT && keepAddresses && j > 0 && isWordUnit(units[j - 1] ?? 0) && opensAddress(out, j)) {
        address = true;
        break;
      } else if (leetLetter(u) >= 0) leet++;
      j++;
    }
    if (letters >= 2 && leet > 0) {
      for (let k = i; k < j; k++) {
        const mapped = leetLetter(units[k] ?? 0);
        if (mapped >= 0) units[k] = mapped;
      }
    }
    // Past the word, and past the `@` of an address that ended it.
    i = address ? j + 1 : j;
  }
}

function isDigit(u: number): boolean {
  return u >= 0x30 && u <= 0x39;
}

/**
 * Whether the `@` at `at`, which follows a letter, digit, `@` or `$`, opens the domain of an
 * e-mail address: letters, digits, hyphens and dots up to the first unit that cannot be in one,
 * holding a dot followed by two letters (`@corp.example`, `@mail.co.uk`). `p@ssword`, `p@ss.`
 * and `h@x0r` have no such dot and still fold. The scan stops at the next `@` (not a domain
 * unit), so every unit is scanned for at most one `@`: linear overall. The prefilter decides
 * the same on raw text (prefilter.ts, `rawAddress`).
 */
function opensAddress(out: Builder, at: number): boolean {
  const units = out.units;
  const end = out.length;
  const first = at + 1 < end ? (units[at + 1] ?? 0) : 0;
  if (!(isLetter(first) || isDigit(first))) return false;
  for (let k = at + 1; k < end; k++) {
    const u = units[k] ?? 0;
    if (u === DOT) {
      const next = k + 1 < end ? (units[k + 1] ?? 0) : 0;
      if (isLetter(next) && k + 2 < end && isLetter(units[k + 2] ?? 0)) return true;
      if (!(isLetter(next) || isDigit(next))) return false;
    } else if (!(isLetter(u) || isDigit(u) || u === HYPHEN)) {
      return false;
    }
  }
  return false;
}

function isSeparator(u: number): boolean {
  return u === SPACE || u === 0x2e || u === 0x2d || u === 0x5f || u === 0x2a;
}

/** A lone letter at `i`: a letter with no word unit on either side. */
function isLoneLetter(out: Builder, i: number): boolean {
  const u = out.units;
  if (i >= out.length || !isLetter(u[i] ?? 0)) return false;
  if (i > 0 && isWordUnit(u[i - 1] ?? 0)) return false;
  return !(i + 1 < out.length && isWordUnit(u[i + 1] ?? 0));
}

/** Third pass, in place: joins `i g n o r e` and `i.g.n.o.r.e` into `ignore`. */
function joinSpacedLetters(buf: Builder): void {
  let write = 0;
  let i = 0;
  const copy = (from: number): void => {
    if (write !== from) {
      buf.units[write] = buf.units[from] ?? 0;
      buf.from[write] = buf.from[from] ?? 0;
      buf.to[write] = buf.to[from] ?? 0;
    }
    write++;
  };
  while (i < buf.length) {
    if (isLoneLetter(buf, i)) {
      let j = i;
      let count = 1;
      while (j + 2 < buf.length && isSeparator(buf.units[j + 1] ?? 0) && isLoneLetter(buf, j + 2)) {
        j += 2;
        count++;
      }
      if (count >= 4) {
        for (let k = i; k <= j; k += 2) copy(k);
        i = j + 1;
        continue;
      }
      // Too short to be spelled out: copy the letters and separators as they are.
      for (let k = i; k <= j; k++) copy(k);
      i = j + 1;
      continue;
    }
    copy(i);
    i++;
  }
  buf.length = write;
}

/**
 * Normalises `source` for matching; linear in its length. `keepAddresses` (the default) keeps the
 * `@` of e-mail addresses; the trained classifier's features read the text without it
 * (`normaliseForFeatures`), as the committed models were trained.
 */
export function normalise(source: string, keepAddresses = true): NormalisedText {
  const folded = fold(source);
  deLeet(folded, keepAddresses);
  joinSpacedLetters(folded);
  return {
    text: folded.toText(),
    from: folded.from.subarray(0, folded.length),
    to: folded.to.subarray(0, folded.length),
  };
}

/**
 * The normalised text the classifier's features read (features.ts): as `normalise`, but every `@`
 * inside a letter-bearing word folds to `a`, e-mail addresses included. The committed models were
 * trained on this form, so the trainer and the detector both call this, and keeping e-mail
 * addresses for the lexicon (detector version 8) left the models' input unchanged.
 */
export function normaliseForFeatures(source: string): string {
  return normalise(source, false).text;
}
