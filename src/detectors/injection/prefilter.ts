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
  /** True when the text must take the full path (spelled-out letters, overlong words). */
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
/** State -> 1 when some key ends there. */
const HAS_OUTPUT = Uint8Array.from({ length: AUTOMATON.outStart.length - 1 }, (_, state) =>
  (AUTOMATON.outStart[state + 1] ?? 0) > (AUTOMATON.outStart[state] ?? 0) ? 1 : 0,
);
const FOLD_CACHE = new Map<number, number[]>();

/** Gap before a word, for spelled-out letters: what normalise.ts would turn it into. */
const GAP_NONE = 0;
const GAP_SPACE = 1;
const GAP_SEPARATOR = 2;
const GAP_BROKEN = 3;

/** `.`, `-`, `_` and `*` join spelled-out letters when they stand alone between them. */
function isLetterSeparator(u: number): boolean {
  return u === 0x2e || u === 0x2d || u === 0x5f || u === 0x2a;
}

/** State of one scan; a class so that the hot loop touches fields, not closure slots. */
class Scan {
  readonly clauseStamp = new Int32Array(AUTOMATON.clausePattern.length);
  readonly touched: number[] = [];
  readonly windows: { start: number; end: number; mask: number }[] = [];
  stamp = 1;
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
  runLength = 0;
  binaryLength = 0;
  // Leetspeak digits read as letters only in words with a letter, as normalise.ts reads them.
  readonly pending: number[] = [];
  pendingLength = 0;
  wordHasLetter = false;

  mark(clauses: readonly number[]): void {
    for (const c of clauses) {
      if (this.clauseStamp[c] !== this.stamp) {
        this.clauseStamp[c] = this.stamp;
        this.touched.push(c);
      }
    }
  }

  collect(): void {
    const a = AUTOMATON;
    const end = a.outStart[this.state + 1] ?? 0;
    for (let k = a.outStart[this.state] ?? 0; k < end; k++) {
      const c = a.outClauses[k] ?? 0;
      if (this.clauseStamp[c] !== this.stamp) {
        this.clauseStamp[c] = this.stamp;
        this.touched.push(c);
      }
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
    if (u < 0x80 && FLAGGED[u] === 1) this.mark(AUTOMATON.flagClauses[u] ?? []);
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
    if (FLAGGED[u] === 1) this.mark(AUTOMATON.flagClauses[u] ?? []);
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
    const a = AUTOMATON;
    this.boundary();
    let mask = 0;
    for (const c of this.touched) {
      const pattern = a.clausePattern[c] ?? 0;
      const bit = a.patternBit[pattern] ?? 0;
      if ((mask & bit) !== 0) continue;
      let all = true;
      for (const other of a.patternClauses[pattern] ?? [])
        if (this.clauseStamp[other] !== this.stamp) all = false;
      if (all) mask |= bit;
    }
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
    this.stamp++;
    this.touched.length = 0;
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
        const symbol = folded < 0x80 ? (ASCII_SYMBOL[folded] ?? BOUNDARY) : BOUNDARY;
        if (symbol !== BOUNDARY) this.letter(folded, symbol);
        else this.nonLetter(folded < 0x80 ? folded : 0x7f);
      }
    }
    return width;
  }

  run(text: string): Prefilter {
    const goto = AUTOMATON.goto;
    this.boundary();
    let i = 0;
    while (i < text.length && !this.full) {
      const u = text.charCodeAt(i);
      if (u >= 0x80) {
        this.runLength = 0;
        this.binaryLength = 0;
        i += this.wide(text, i);
        continue;
      }
      const run = ASCII_RUN[u] ?? 0;
      if (run === 0) {
        this.runLength = 0;
        this.binaryLength = 0;
      } else {
        if (++this.runLength >= MIN_BASE64_RUN) this.encoded = true;
        this.binaryLength = run === 2 ? this.binaryLength + 1 : 0;
        if (this.binaryLength >= MIN_BINARY_RUN) this.encoded = true;
      }
      const symbol = ASCII_SYMBOL[u] ?? BOUNDARY;
      if (symbol !== BOUNDARY && this.wordHasLetter && ASCII_LETTER[u] === 1 && FLAGGED[u] === 0) {
        // The common case, inlined: another letter of a word that already has one.
        this.wordLength++;
        if (++this.sinceSpace >= LONG_RUN) this.full = true;
        const next = goto[this.state * SYMBOLS + symbol] ?? 0;
        this.state = next;
        this.lastSymbol = symbol;
        if (HAS_OUTPUT[next] === 1) this.collect();
      } else if (symbol !== BOUNDARY) {
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
    if (this.inWord) this.endWord();
    this.endLine(text.length);
    const { full, windows, question, tags, controls, encoded } = this;
    return { full, windows, question, tags, controls, encoded };
  }
}

/** Scans `text` once; linear in its length, constant work per character. */
export function prefilter(text: string): Prefilter {
  return new Scan().run(text);
}
