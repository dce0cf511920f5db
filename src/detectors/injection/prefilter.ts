import { FAMILIES } from "./lexicon.js";
import { foldCodePoint, isInvisible, isLineBreak, isSpace } from "./normalise.js";
import { MAX_UNIT_CHARS } from "./sentences.js";
import { FAMILY_TRIGGERS, SCRIPT_FLAG, STRAY_TRIGGER, type Trigger } from "./triggers.js";

/**
 * The one cheap pass every text pays for. It walks the raw text once and answers: which lines
 * could a lexicon family match (trigger keys of triggers.ts, found by an Aho-Corasick automaton
 * over a letter stream), could a tool result hold an off-topic question, and is there anything
 * the hidden-text finder must look at (tag characters, invisible controls, base64/hex/binary
 * runs). Text that answers "no" to all of them (most prose, tables and code) is done after this
 * pass: no normalisation, no regular expression.
 *
 * The letter stream reads the text the way normalise.ts will, only more loosely, so that every
 * phrase the normaliser could produce is seen: letters are lower-cased and confusables and
 * compatibility forms folded by the same fold function, leetspeak digits read as letters in any
 * word that holds a letter (the normaliser asks for two; numbers stay numbers in both),
 * invisible characters vanish, and every other run of characters becomes one boundary. Keys are
 * matched per raw line: a sentence unit never spans a line break, so a pattern can only match
 * inside a line where all its clauses have keys.
 *
 * Two shapes defeat a per-line letter stream, and send the text to the full scorer instead:
 * spelled-out letters (`i g n o r e`, which the normaliser joins) and runs long enough for the
 * sentence splitter to cut a unit inside a word.
 */

/** Raw line range [start, end) whose normalised units may match the families in `mask`. */
export interface Window {
  readonly start: number;
  readonly end: number;
  /** Bit i set: FAMILIES[i] may match in this range. */
  readonly mask: number;
}

export interface Prefilter {
  /**
   * True when the text must take the full path (spelled-out letters, overlong words); the other
   * fields are then empty, as nothing else reads them.
   */
  readonly full: boolean;
  /** Merged line ranges, in order, where some family may match. */
  readonly windows: readonly Window[];
  /** Some line holds a `?` and a question word. */
  readonly question: boolean;
  /** Tag-block characters occur. */
  readonly tags: boolean;
  /** Invisible or bidi control characters occur. */
  readonly controls: boolean;
  /** A base64/hex-shaped run of 24+ characters or a run of 8+ binary digits occurs. */
  readonly encoded: boolean;
}

const BOUNDARY = 26;
const SYMBOLS = 27;
const QUESTION_BIT = 1 << 30;
/** A raw run this long without a space may make the splitter cut inside a word (margin kept). */
const LONG_RUN = MAX_UNIT_CHARS - 100;
const MIN_BASE64_RUN = 24;
const MIN_BINARY_RUN = 8;
const SPELLED_OUT = 4;

const FLAG_CHARS: Readonly<Record<string, number>> = {
  "%<": 0x3c,
  "%|": 0x7c,
  "%[": 0x5b,
  "%#": 0x23,
  "%:": 0x3a,
  "%?": 0x3f,
  "%@": 0x40,
};
const LOCK_FLAG = "%lock";

/** Letters of the scripts whose override phrases multilingual.ts knows (SCRIPT_FLAG). */
function isOtherScriptLetter(cp: number): boolean {
  return (
    (cp >= 0x0370 && cp <= 0x052f) || // Greek, Cyrillic
    (cp >= 0x0590 && cp <= 0x08ff) || // Hebrew, Arabic
    (cp >= 0x0900 && cp <= 0x0dff) || // Indic scripts
    (cp >= 0x0e00 && cp <= 0x0e7f) || // Thai
    (cp >= 0x1100 && cp <= 0x11ff) || // Hangul jamo
    (cp >= 0x3040 && cp <= 0x30ff) || // kana
    (cp >= 0x3130 && cp <= 0x318f) || // Hangul compatibility jamo
    (cp >= 0x3400 && cp <= 0x9fff) || // CJK ideographs
    (cp >= 0xac00 && cp <= 0xd7af) || // Hangul syllables
    (cp >= 0xf900 && cp <= 0xfaff) || // CJK compatibility ideographs
    (cp >= 0xfe70 && cp <= 0xfeff) || // Arabic presentation forms
    (cp >= 0xff66 && cp <= 0xff9f) // half-width katakana
  );
}

/** Leetspeak reading of ASCII digits and symbols, as in normalise.ts. */
const LEET: Readonly<Record<string, string>> = {
  "0": "o",
  "1": "i",
  "3": "e",
  "4": "a",
  "5": "s",
  "7": "t",
  "@": "a",
  $: "s",
};

/** ASCII unit -> stream symbol (0..25 letters, 26 boundary). */
const ASCII_SYMBOL = new Uint8Array(128).fill(BOUNDARY);
/** ASCII unit -> 1 for letters (not leetspeak). */
const ASCII_LETTER = new Uint8Array(128);
/** ASCII unit -> 1 for characters of base64/hex runs, 2 for binary digits (also base64). */
const ASCII_RUN = new Uint8Array(128);
for (let u = 0; u < 128; u++) {
  const c = String.fromCharCode(u);
  if (/[a-z]/i.test(c)) {
    ASCII_SYMBOL[u] = c.toLowerCase().charCodeAt(0) - 0x61;
    ASCII_LETTER[u] = 1;
  }
  const leet = LEET[c];
  if (leet) ASCII_SYMBOL[u] = leet.charCodeAt(0) - 0x61;
  if (/[A-Za-z0-9+/_-]/.test(c)) ASCII_RUN[u] = c === "0" || c === "1" ? 2 : 1;
}

interface Automaton {
  readonly goto: Int32Array;
  readonly outStart: Int32Array;
  readonly outClauses: Int32Array;
  /** ASCII unit -> clause ids of its flag key. */
  readonly flagClauses: readonly (readonly number[])[];
  readonly lockClauses: readonly number[];
  readonly scriptClauses: readonly number[];
  readonly clausePattern: readonly number[];
  readonly patternClauses: readonly (readonly number[])[];
  readonly patternBit: readonly number[];
}

function keySymbols(key: string): number[] {
  const out: number[] = [];
  for (const c of key) {
    const sym = c === " " ? BOUNDARY : c.charCodeAt(0) - 0x61;
    if (sym < 0 || sym > BOUNDARY) throw new Error(`trigger key ${JSON.stringify(key)} has ${c}`);
    if (sym === BOUNDARY && out[out.length - 1] === BOUNDARY) continue;
    out.push(sym);
  }
  return out;
}

function compile(): Automaton {
  const children: number[][] = [new Array<number>(SYMBOLS).fill(-1)];
  const outputs: number[][] = [[]];
  const flagClauses: number[][] = Array.from({ length: 128 }, () => []);
  const lockClauses: number[] = [];
  const scriptClauses: number[] = [];
  const clausePattern: number[] = [];
  const patternClauses: number[][] = [];
  const patternBit: number[] = [];
  const addTrigger = (trigger: Trigger, bit: number): void => {
    const pattern = patternClauses.length;
    patternClauses.push([]);
    patternBit.push(bit);
    for (const clause of trigger) {
      const id = clausePattern.length;
      clausePattern.push(pattern);
      patternClauses[pattern]?.push(id);
      for (const key of clause) {
        if (key === LOCK_FLAG) {
          lockClauses.push(id);
          continue;
        }
        if (key === SCRIPT_FLAG) {
          scriptClauses.push(id);
          continue;
        }
        const flag = FLAG_CHARS[key];
        if (flag !== undefined) {
          flagClauses[flag]?.push(id);
          continue;
        }
        let state = 0;
        for (const sym of keySymbols(key)) {
          const row = children[state] as number[];
          let next = row[sym] ?? -1;
          if (next < 0) {
            next = children.length;
            children.push(new Array<number>(SYMBOLS).fill(-1));
            outputs.push([]);
            row[sym] = next;
          }
          state = next;
        }
        outputs[state]?.push(id);
      }
    }
  };
  FAMILIES.forEach((family, index) => {
    const triggers = FAMILY_TRIGGERS[family.id];
    if (!triggers) throw new Error(`lexicon family ${family.id} has no trigger keys`);
    for (const trigger of triggers) addTrigger(trigger, 1 << index);
  });
  addTrigger(STRAY_TRIGGER, QUESTION_BIT);

  // Aho-Corasick: breadth-first failure links, folded into a complete transition table.
  const goto = new Int32Array(children.length * SYMBOLS);
  const fail = new Int32Array(children.length);
  const queue: number[] = [];
  for (let s = 0; s < SYMBOLS; s++) {
    const next = children[0]?.[s] ?? -1;
    goto[s] = Math.max(next, 0);
    if (next > 0) queue.push(next);
  }
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head] ?? 0;
    const merged = outputs[state] as number[];
    for (const id of outputs[fail[state] ?? 0] ?? []) if (!merged.includes(id)) merged.push(id);
    for (let s = 0; s < SYMBOLS; s++) {
      const next = children[state]?.[s] ?? -1;
      const viaFail = goto[(fail[state] ?? 0) * SYMBOLS + s] ?? 0;
      if (next < 0) {
        goto[state * SYMBOLS + s] = viaFail;
      } else {
        goto[state * SYMBOLS + s] = next;
        fail[next] = viaFail;
        queue.push(next);
      }
    }
  }
  const outStart = new Int32Array(children.length + 1);
  const flat: number[] = [];
  outputs.forEach((ids, state) => {
    outStart[state] = flat.length;
    flat.push(...ids);
  });
  outStart[children.length] = flat.length;
  return {
    goto,
    outStart,
    outClauses: Int32Array.from(flat),
    flagClauses,
    lockClauses,
    scriptClauses,
    clausePattern,
    patternClauses,
    patternBit,
  };
}

const AUTOMATON = compile();
/** ASCII unit -> 1 when it carries a flag key. */
const FLAGGED = Uint8Array.from(AUTOMATON.flagClauses, (clauses) => (clauses.length > 0 ? 1 : 0));
/** ASCII unit -> its own bit when it carries a flag key. */
const FLAG_BIT = new Uint8Array(128);
Object.values(FLAG_CHARS).forEach((u, k) => {
  FLAG_BIT[u] = 1 << k;
});
/** State -> 1 when some key ends there. */
const HAS_OUTPUT = Uint8Array.from({ length: AUTOMATON.outStart.length - 1 }, (_, state) =>
  (AUTOMATON.outStart[state + 1] ?? 0) > (AUTOMATON.outStart[state] ?? 0) ? 1 : 0,
);
const FOLD_CACHE = new Map<number, number[]>();
const NOT_PLAIN = 0xff;
/** ASCII unit -> stream symbol of a letter that carries no flag key, NOT_PLAIN otherwise. */
const PLAIN_LETTER = Uint8Array.from(ASCII_SYMBOL, (symbol, u) =>
  ASCII_LETTER[u] === 1 && FLAGGED[u] === 0 ? symbol : NOT_PLAIN,
);
/** What `betweenWords` does with an ASCII unit; KIND_OTHER leaves it to the general path. */
const KIND_OTHER = 0;
const KIND_LETTER = 1;
const KIND_SPACE = 2;
const KIND_NEWLINE = 3;
const KIND_LINE_BREAK = 4;
const KIND_SEPARATOR = 5;
const KIND_PUNCTUATION = 6;
const KIND_DIGIT = 7;
const ASCII_KIND = Uint8Array.from(PLAIN_LETTER, (letter, u) => {
  if (letter !== NOT_PLAIN) return KIND_LETTER;
  if (u >= 0x30 && u <= 0x39) return KIND_DIGIT;
  if (ASCII_SYMBOL[u] !== BOUNDARY) return KIND_OTHER; // leetspeak
  if (u === 0x20 || u === 0x09) return KIND_SPACE;
  if (u === 0x0a) return KIND_NEWLINE;
  if (u >= 0x0b && u <= 0x0d) return KIND_LINE_BREAK;
  return isLetterSeparator(u) ? KIND_SEPARATOR : KIND_PUNCTUATION;
});
/** The answer for text that takes the full path: nothing else is read. */
const FULL: Prefilter = {
  full: true,
  windows: Object.freeze([]),
  question: false,
  tags: false,
  controls: false,
  encoded: false,
};

/** Gap before a word, for spelled-out letters: what normalise.ts would turn it into. */
const GAP_NONE = 0;
const GAP_SPACE = 1;
const GAP_SEPARATOR = 2;
const GAP_BROKEN = 3;

/** `.`, `-`, `_` and `*` join spelled-out letters when they stand alone between them. */
function isLetterSeparator(u: number): boolean {
  return u === 0x2e || u === 0x2d || u === 0x5f || u === 0x2a;
}

/**
 * Per line, shared by all scans (one runs at a time): which clauses have a key (stamped with the
 * line's stamp), and for each pattern how many of its clauses do.
 */
const CLAUSE_STAMP = new Int32Array(AUTOMATON.clausePattern.length);
const CLAUSE_PATTERN = Int32Array.from(AUTOMATON.clausePattern);
const PATTERN_STAMP = new Int32Array(AUTOMATON.patternClauses.length);
const PATTERN_HELD = new Int32Array(AUTOMATON.patternClauses.length);
const PATTERN_SIZE = Int32Array.from(AUTOMATON.patternClauses, (clauses) => clauses.length);
const PATTERN_BIT = Int32Array.from(AUTOMATON.patternBit);
let lastStamp = 0;

/** A stamp no clause holds yet: every line of every scan gets its own. */
function freshStamp(): number {
  if (lastStamp === 0x7fffffff) {
    CLAUSE_STAMP.fill(0);
    PATTERN_STAMP.fill(0);
    lastStamp = 0;
  }
  return ++lastStamp;
}

/**
 * State of one scan; a class so that the hot loop touches fields, not closure slots. Most
 * characters take one of two tight loops (`run`: more letters of a word; `betweenWords`: spaces,
 * punctuation, line ends, numbers and the first letter of a word), which keep their counters in
 * locals and leave the rest (leetspeak, flag letters, non-ASCII) to `letter`, `nonLetter` and
 * `wide`, which read one character at a time with every counter up to date.
 */
class Scan {
  /** Bits of the patterns all of whose clauses hold in this line. */
  mask = 0;
  readonly windows: { start: number; end: number; mask: number }[] = [];
  stamp = freshStamp();
  /** Bits (FLAG_BIT) of the flag characters already marked in this line. */
  flagsSeen = 0;
  state = 0;
  lastSymbol = -1;
  question = false;
  tags = false;
  controls = false;
  encoded = false;
  lineStart = 0;
  // Spelled-out letters: the current word, the gap before it, the run of one-letter words.
  inWord = false;
  wordLength = 0;
  wordReal = true;
  gap = GAP_BROKEN;
  gapBefore = GAP_BROKEN;
  previousLone = false;
  loneRun = 0;
  full = false;
  // Overlong runs without a space that hold letters, where a unit could be cut inside a word.
  sinceSpace = 0;
  runHasLetters = false;
  /** Start of the current base64/hex-shaped run; length of the current binary run. */
  runStart = 0;
  binaryLength = 0;
  // Leetspeak digits read as letters only in words with a letter, as normalise.ts reads them.
  readonly pending: number[] = [];
  pendingLength = 0;
  wordHasLetter = false;

  /** Clause `c` has a key in this line. */
  hold(c: number): void {
    const stamp = this.stamp;
    if (CLAUSE_STAMP[c] === stamp) return;
    CLAUSE_STAMP[c] = stamp;
    const pattern = CLAUSE_PATTERN[c] ?? 0;
    if (PATTERN_STAMP[pattern] !== stamp) {
      PATTERN_STAMP[pattern] = stamp;
      PATTERN_HELD[pattern] = 0;
    }
    const held = (PATTERN_HELD[pattern] ?? 0) + 1;
    PATTERN_HELD[pattern] = held;
    if (held === PATTERN_SIZE[pattern]) this.mask |= PATTERN_BIT[pattern] ?? 0;
  }

  mark(clauses: readonly number[]): void {
    for (const c of clauses) this.hold(c);
  }

  /** A flag key's character: its clauses are marked once per line. */
  flag(u: number): void {
    const bit = FLAG_BIT[u] ?? 0;
    if ((this.flagsSeen & bit) !== 0) return;
    this.flagsSeen |= bit;
    this.mark(AUTOMATON.flagClauses[u] ?? []);
  }

  collect(): void {
    const a = AUTOMATON;
    const end = a.outStart[this.state + 1] ?? 0;
    for (let k = a.outStart[this.state] ?? 0; k < end; k++) {
      this.hold(a.outClauses[k] ?? 0);
    }
  }

  boundary(): void {
    if (this.lastSymbol === BOUNDARY) return;
    this.lastSymbol = BOUNDARY;
    this.state = AUTOMATON.goto[this.state * SYMBOLS + BOUNDARY] ?? 0;
    if (HAS_OUTPUT[this.state] === 1) this.collect();
  }

  endWord(): void {
    const lone = this.wordLength === 1 && this.wordReal;
    const joined = this.previousLone && (this.gapBefore === GAP_SPACE || this.gapBefore === GAP_SEPARATOR);
    this.loneRun = lone ? (joined ? this.loneRun + 1 : 1) : 0;
    if (this.loneRun >= SPELLED_OUT) this.full = true;
    this.previousLone = lone;
    this.inWord = false;
    this.gap = GAP_NONE;
  }

  /** A character that is not a letter: updates the gap, the space run and the stream. */
  nonLetter(u: number): void {
    if (this.inWord) this.endWord();
    this.pendingLength = 0;
    this.wordHasLetter = false;
    if (u === 0x20 || u === 0x09) {
      if (this.gap === GAP_NONE) this.gap = GAP_SPACE;
      else if (this.gap === GAP_SEPARATOR) this.gap = GAP_BROKEN;
      this.sinceSpace = 0;
      this.runHasLetters = false;
    } else if (u >= 0x0a && u <= 0x0d) {
      this.gap = GAP_BROKEN;
      this.sinceSpace = 0;
      this.runHasLetters = false;
    } else {
      this.gap = this.gap === GAP_NONE && isLetterSeparator(u) ? GAP_SEPARATOR : GAP_BROKEN;
      if (++this.sinceSpace >= LONG_RUN && this.runHasLetters) this.full = true;
    }
    if (u < 0x80 && FLAGGED[u] === 1) this.flag(u);
    this.boundary();
  }

  /** A letter, or a leetspeak digit read as one. */
  letter(u: number, symbol: number): void {
    if (!this.inWord) {
      this.inWord = true;
      this.wordLength = 0;
      this.wordReal = true;
      this.gapBefore = this.gap;
    }
    this.wordLength++;
    if (ASCII_LETTER[u] !== 1) this.wordReal = false;
    if (++this.sinceSpace >= LONG_RUN && this.runHasLetters) this.full = true;
    this.runHasLetters = true;
    if (FLAGGED[u] === 1) this.flag(u);
    if (ASCII_LETTER[u] === 1) {
      for (let k = 0; k < this.pendingLength; k++) this.step(this.pending[k] ?? BOUNDARY);
      this.pendingLength = 0;
      this.wordHasLetter = true;
      this.step(symbol);
    } else if (this.wordHasLetter) {
      this.step(symbol);
    } else {
      // A leetspeak digit before any letter of its word: a number unless a letter follows.
      if (this.pendingLength === this.pending.length) this.pending.push(symbol);
      else this.pending[this.pendingLength] = symbol;
      this.pendingLength++;
    }
  }

  step(symbol: number): void {
    this.lastSymbol = symbol;
    this.state = AUTOMATON.goto[this.state * SYMBOLS + symbol] ?? 0;
    if (HAS_OUTPUT[this.state] === 1) this.collect();
  }

  endLine(end: number): void {
    this.boundary();
    const mask = this.mask;
    if ((mask & QUESTION_BIT) !== 0) this.question = true;
    const families = mask & ~QUESTION_BIT;
    if (families !== 0) {
      const last = this.windows[this.windows.length - 1];
      if (last && last.end + 1 === this.lineStart) {
        last.end = end;
        last.mask |= families;
      } else {
        this.windows.push({ start: this.lineStart, end, mask: families });
      }
    }
    this.stamp = freshStamp();
    this.flagsSeen = 0;
    this.mask = 0;
    this.state = 0;
    this.lastSymbol = -1;
    this.boundary();
  }

  /** One non-ASCII code point at `i`; returns its width in UTF-16 units. */
  wide(text: string, i: number): number {
    const cp = text.codePointAt(i) ?? 0;
    const width = cp > 0xffff ? 2 : 1;
    if (isInvisible(cp)) {
      if (cp >= 0xe0000 && cp <= 0xe007f) this.tags = true;
      else this.controls = true;
    } else if (isSpace(cp)) {
      this.nonLetter(0x20);
    } else if (isLineBreak(cp)) {
      this.nonLetter(0x0a);
    } else {
      if (cp === 0x1f512 || cp === 0x1f513) this.mark(AUTOMATON.lockClauses);
      else if (isOtherScriptLetter(cp)) this.mark(AUTOMATON.scriptClauses);
      for (const folded of foldCodePoint(cp, FOLD_CACHE)) {
        // A full-width or small `@` may be an address's, which `opensAddress` reads on ASCII only.
        if (folded === AT) this.full = true;
        const symbol = folded < 0x80 ? (ASCII_SYMBOL[folded] ?? BOUNDARY) : BOUNDARY;
        if (symbol !== BOUNDARY) this.letter(folded, symbol);
        else this.nonLetter(folded < 0x80 ? folded : 0x7f);
      }
    }
    return width;
  }

  /**
   * Base64/hex and binary runs, checked where a run can end: every character of a run that is
   * not a plain letter passes here, and a run of plain letters ends at one that does (or at the
   * end of the text, see `run`).
   */
  runs(text: string, i: number, u: number): void {
    const run = u < 0x80 ? (ASCII_RUN[u] ?? 0) : 0;
    if (run === 0) {
      if (i - this.runStart >= MIN_BASE64_RUN) this.encoded = true;
      this.runStart = i + 1;
      return;
    }
    if (run === 2) {
      const previous = i > 0 ? text.charCodeAt(i - 1) : 0;
      this.binaryLength = previous === 0x30 || previous === 0x31 ? this.binaryLength + 1 : 1;
      if (this.binaryLength >= MIN_BINARY_RUN) this.encoded = true;
    }
  }

  /**
   * Outside a word (the stream at a boundary, nothing pending): plain ASCII non-letters, whose
   * only effects are the gap, the space run, flag keys and line ends, and the first plain letter
   * of the next word. Returns where it stopped: past that letter, or at a character for `run`.
   */
  betweenWords(text: string, from: number): number {
    const length = text.length;
    let gap = this.gap;
    let sinceSpace = this.sinceSpace;
    let runHasLetters = this.runHasLetters;
    let i = from;
    while (i < length) {
      const u = text.charCodeAt(i);
      const kind = u < 0x80 ? (ASCII_KIND[u] ?? KIND_OTHER) : KIND_OTHER;
      if (kind === KIND_LETTER) {
        // letter(), for the first letter of a word with nothing pending.
        this.inWord = true;
        this.wordLength = 1;
        this.wordReal = true;
        this.gapBefore = gap;
        if (++sinceSpace >= LONG_RUN && runHasLetters) this.full = true;
        runHasLetters = true;
        this.wordHasLetter = true;
        this.step(PLAIN_LETTER[u] ?? 0);
        i++;
        break;
      }
      if (kind === KIND_DIGIT) {
        const end = this.number(text, i, gap, sinceSpace, runHasLetters);
        if (end === i) break;
        gap = this.gap;
        sinceSpace = this.sinceSpace;
        runHasLetters = this.runHasLetters;
        i = end;
        if (this.inWord) break; // the word of digits ends at the next character, in `run`
        continue;
      }
      if (kind === KIND_OTHER) break;
      if (kind === KIND_SPACE) {
        if (gap === GAP_NONE) gap = GAP_SPACE;
        else if (gap === GAP_SEPARATOR) gap = GAP_BROKEN;
        sinceSpace = 0;
        runHasLetters = false;
      } else if (kind === KIND_LINE_BREAK || kind === KIND_NEWLINE) {
        gap = GAP_BROKEN;
        sinceSpace = 0;
        runHasLetters = false;
      } else {
        gap = gap === GAP_NONE && kind === KIND_SEPARATOR ? GAP_SEPARATOR : GAP_BROKEN;
        if (++sinceSpace >= LONG_RUN && runHasLetters) this.full = true;
      }
      if (ASCII_RUN[u] === 0) {
        if (i - this.runStart >= MIN_BASE64_RUN) this.encoded = true;
        this.runStart = i + 1;
      }
      if (FLAGGED[u] === 1) this.flag(u);
      if (kind === KIND_NEWLINE) {
        this.endLine(i);
        this.lineStart = i + 1;
      }
      i++;
    }
    this.gap = gap;
    this.sinceSpace = sinceSpace;
    this.runHasLetters = runHasLetters;
    return i;
  }

  /**
   * A run of ASCII digits at `from`, outside a word, that a space or punctuation follows: leetspeak
   * digits there never reach the stream (no letter joins them), so the run only moves the
   * counters. Sets them as letter() and nonLetter() would, digit by digit, and returns the end
   * of the run; returns `from` (nothing done) when a letter, `$`, `@` or a non-ASCII character
   * follows, for `run` to read digit by digit.
   */
  number(text: string, from: number, gap: number, sinceSpace: number, runHasLetters: boolean): number {
    let end = from;
    while (end < text.length && (ASCII_KIND[text.charCodeAt(end)] ?? KIND_OTHER) === KIND_DIGIT) end++;
    if (end >= text.length) return from;
    const next = text.charCodeAt(end);
    if (next >= 0x80 || ASCII_SYMBOL[next] !== BOUNDARY) return from;
    let firstLeet = -1;
    /** Last non-leetspeak digit; `from - 1` while there is none. */
    let lastPlain = from - 1;
    let binary = this.binaryLength;
    for (let k = from; k < end; k++) {
      const u = text.charCodeAt(k);
      if (ASCII_SYMBOL[u] !== BOUNDARY) {
        if (firstLeet < 0) firstLeet = k;
      } else {
        lastPlain = k;
      }
      if (u === 0x30 || u === 0x31) {
        const previous = k > 0 ? text.charCodeAt(k - 1) : 0;
        binary = previous === 0x30 || previous === 0x31 ? binary + 1 : 1;
        if (binary >= MIN_BINARY_RUN) this.encoded = true;
      }
    }
    this.binaryLength = binary;
    const length = end - from;
    // The space run: checked at the last digit, the one that counts most.
    if (sinceSpace + length >= LONG_RUN && (runHasLetters || (firstLeet >= 0 && firstLeet < end - 1)))
      this.full = true;
    this.sinceSpace = sinceSpace + length;
    this.runHasLetters = runHasLetters || firstLeet >= 0;
    // A word of leetspeak digits ended before the last non-leet digit: not a lone letter.
    if (firstLeet >= 0 && firstLeet < lastPlain) {
      this.loneRun = 0;
      this.previousLone = false;
    }
    if (lastPlain >= from) gap = GAP_BROKEN;
    this.gap = gap;
    if (lastPlain < end - 1) {
      // Ends inside a word of leetspeak digits, pending until the next character ends it.
      this.inWord = true;
      this.wordLength = end - 1 - lastPlain;
      this.wordReal = false;
      this.gapBefore = gap;
      // Its digits would be pending; the character after the run drops them, so none are kept.
      this.pendingLength = 0;
    }
    return end;
  }

  /**
   * Whether the `@` at `at` is an e-mail address's, which normalise.ts keeps as a word end
   * rather than read as `a`; where raw text cannot tell (see `rawAddress`), the text takes the
   * full path.
   */
  opensAddress(text: string, at: number): boolean {
    const answer = rawAddress(text, at);
    if (answer === UNSURE) this.full = true;
    return answer === ADDRESS;
  }

  run(text: string): Prefilter {
    const goto = AUTOMATON.goto;
    const length = text.length;
    this.boundary();
    let i = 0;
    while (i < length && !this.full) {
      if (this.wordHasLetter) {
        // The common case: more plain letters of a word that already has one. Only the
        // automaton runs per letter; the counters they would bump are caught up after.
        let state = this.state;
        const from = i;
        while (i < length) {
          const u = text.charCodeAt(i);
          const symbol = u < 0x80 ? (PLAIN_LETTER[u] ?? NOT_PLAIN) : NOT_PLAIN;
          if (symbol === NOT_PLAIN) break;
          state = goto[state * SYMBOLS + symbol] ?? 0;
          if (HAS_OUTPUT[state] === 1) {
            this.state = state;
            this.collect();
          }
          i++;
        }
        this.state = state;
        if (i > from) {
          this.wordLength += i - from;
          this.sinceSpace += i - from;
          if (this.sinceSpace >= LONG_RUN) this.full = true;
        }
        if (i >= length) break;
      } else if (!this.inWord) {
        i = this.betweenWords(text, i);
        if (i >= length || this.full) break;
        if (this.wordHasLetter) continue;
      }
      const u = text.charCodeAt(i);
      if (u >= 0x80) {
        this.runs(text, i, u);
        const width = this.wide(text, i);
        this.runStart = i + width;
        i += width;
        continue;
      }
      this.runs(text, i, u);
      const symbol = ASCII_SYMBOL[u] ?? BOUNDARY;
      if (symbol !== BOUNDARY && !(u === AT && this.opensAddress(text, i))) {
        this.letter(u, symbol);
      } else {
        this.nonLetter(u);
        if (u === 0x0a) {
          this.endLine(i);
          this.lineStart = i + 1;
        }
      }
      i++;
    }
    return this.finish(length);
  }

  /** Closes the last run, word and line; kept out of `run` so that its hot loops stay lean. */
  finish(length: number): Prefilter {
    if (this.inWord) this.endWord();
    if (this.full) return FULL;
    if (length - this.runStart >= MIN_BASE64_RUN) this.encoded = true;
    this.endLine(length);
    const { windows, question, tags, controls, encoded } = this;
    return { full: false, windows, question, tags, controls, encoded };
  }
}

const AT = 0x40;
const ADDRESS = 1;
const NOT_ADDRESS = 0;
const UNSURE = -1;

/** Whether normalise.ts reads raw unit `u` as itself, case aside (ASCII, not a dropped control character). */
function asciiKept(u: number): boolean {
  return u < 0x80 && (u >= 0x20 || (u >= 0x09 && u <= 0x0d));
}

function isAsciiAlpha(u: number): boolean {
  return (u >= 0x61 && u <= 0x7a) || (u >= 0x41 && u <= 0x5a);
}

function isAsciiAlnum(u: number): boolean {
  return isAsciiAlpha(u) || (u >= 0x30 && u <= 0x39);
}

/**
 * normalise.ts's `opensAddress` on raw text: whether the `@` at `at` follows a letter, digit,
 * `@` or `$` and a domain follows it (letters, digits, hyphens and dots holding a dot and two
 * letters). ASCII reads as the normaliser reads it (case aside); a character it would fold or
 * drop (non-ASCII, control characters) before the answer is known makes the answer UNSURE.
 * Stops at the next `@` or non-domain character: every character is read for at most one `@`.
 */
function rawAddress(text: string, at: number): number {
  const end = text.length;
  const first = at + 1 < end ? text.charCodeAt(at + 1) : 0x20;
  if (!asciiKept(first)) return UNSURE;
  if (!isAsciiAlnum(first)) return NOT_ADDRESS;
  let domain = NOT_ADDRESS;
  for (let k = at + 1; k < end; k++) {
    const u = text.charCodeAt(k);
    if (!asciiKept(u)) return UNSURE;
    if (u === 0x2e) {
      const next = k + 1 < end ? text.charCodeAt(k + 1) : 0x20;
      const after = k + 2 < end ? text.charCodeAt(k + 2) : 0x20;
      if (!asciiKept(next)) return UNSURE;
      if (isAsciiAlpha(next)) {
        if (!asciiKept(after)) return UNSURE;
        if (isAsciiAlpha(after)) {
          domain = ADDRESS;
          break;
        }
      }
      if (!isAsciiAlnum(next)) break;
    } else if (!(isAsciiAlnum(u) || u === 0x2d)) {
      break;
    }
  }
  if (domain === NOT_ADDRESS) return NOT_ADDRESS;
  if (at === 0) return NOT_ADDRESS;
  const previous = text.charCodeAt(at - 1);
  if (!asciiKept(previous)) return UNSURE;
  return isAsciiAlnum(previous) || previous === AT || previous === 0x24 ? ADDRESS : NOT_ADDRESS;
}

/** Scans `text` once; linear in its length, constant work per character. */
export function prefilter(text: string): Prefilter {
  return new Scan().run(text);
}
