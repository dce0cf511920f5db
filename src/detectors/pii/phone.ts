import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { boundSubject, type Detection } from "../detector.js";
import { type Candidates, findCandidates, type NumberRun } from "./candidates.js";
import { codeAt, isAsciiLetter, isDigit } from "./chars.js";
import { endsWithIdLabel, textBefore } from "./labels.js";

/**
 * Telephone numbers in international and national formats: E.164 (`+14155550132`),
 * international with grouping (`+44 (20) 7123 4567`, `+33 1 42 68 53 00`), North American
 * (`(415) 555-0132`, `415.555.0132`), trunk-prefixed national (`090-1234-5678`,
 * `0 532 123 45 67`). The scan reads runs of digits, spaces, dashes, dots and parentheses
 * by hand (no backtracking) and then judges the shape:
 * - 8 to 15 digits after `+`; 9 to 15 digits for formatted numbers without it;
 * - a bare digit string only with a trunk prefix (0 + 10 digits) or as a Chinese mobile
 *   number (1[3-9] + 9 digits), unless labelled as another identifier (`trace=`, `order`),
 *   or right after a word such as "phone" or "tel" (within 24 characters);
 * - not a date (2024-01-15, 15.01.2024), not a decimal or version (a single dot, dotted
 *   quads), not an amount grouped by dots (164.689.383), not an SSN shape (3-2-4), not longer than 15 digits (ids, card numbers), not
 *   a time (`10:30` follows), and for the North American 3-3-4 shape a valid exchange.
 */

const MIN_DIGITS_INTERNATIONAL = 8;
const MIN_DIGITS_NATIONAL = 9;
const MAX_DIGITS = 15;
const CONTEXT_WORDS =
  /(?:phone|tel|mobile|cell|fax|call|whatsapp|sms|contact|telefon|teléfono|telepono|numara|номер)/i;

interface Candidate {
  start: number;
  end: number;
  digits: string;
  groups: number[];
  separators: string;
  plus: boolean;
  parens: boolean;
}

const MIXED_DIGIT = /\d/;
const MIXED_LETTER = /[A-Za-z]/;
const BANK_CODE = /^[A-Z]{4}$/;
const IBAN_HEAD = /[A-Z]{2}\d{2}/;
const NANP = /^[2-9]\d\d[2-9]\d{6}$/;
const NANP_N11 = /^[2-9]11/;
const CHINA_MOBILE = /^1[3-9]/;

/** The regular expressions of this scanner, for the regex safety test. */
export const phonePatterns: readonly RegExp[] = [
  CONTEXT_WORDS,
  MIXED_DIGIT,
  MIXED_LETTER,
  BANK_CODE,
  IBAN_HEAD,
  NANP,
  NANP_N11,
  CHINA_MOBILE,
];

function isSeparator(c: number): boolean {
  return c === 0x20 || c === 0x2d || c === 0x2e;
}

/** Reads a phone-shaped run starting at `start` ('+', '(' or a digit). */
function readCandidate(text: string, start: number): Candidate {
  let i = start;
  const plus = text.charCodeAt(i) === 0x2b;
  if (plus) i++;
  let digits = "";
  const groups: number[] = [];
  let group = 0;
  let separators = "";
  let parens = false;
  let lastDigitEnd = i;
  while (i < text.length && digits.length <= MAX_DIGITS + 1) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) {
      digits += text.charAt(i);
      group++;
      i++;
      lastDigitEnd = i;
      continue;
    }
    if (c === 0x28 && group === 0) {
      // "(415)": an area code; at most one pair.
      // Look for the ')' within a few characters only: an unbounded indexOf per '(' is quadratic.
      const close = text.slice(i, i + 7).indexOf(")");
      if (parens || close === -1) break;
      parens = true;
      i++;
      continue;
    }
    if (c === 0x29 && parens && group > 0) {
      groups.push(group);
      group = 0;
      i++;
      if (codeAt(text, i) === 0x20 || codeAt(text, i) === 0x2d) i++;
      continue;
    }
    if (isSeparator(c) && group > 0 && (isDigit(codeAt(text, i + 1)) || codeAt(text, i + 1) === 0x28)) {
      groups.push(group);
      group = 0;
      const ch = text.charAt(i);
      if (!separators.includes(ch)) separators += ch;
      i++;
      continue;
    }
    break;
  }
  if (group > 0) groups.push(group);
  return { start, end: lastDigitEnd, digits, groups, separators, plus, parens };
}

/** Dotted quads and OIDs (`192.168.1.1.1`, `1.3.6.1.4`): small groups, one of a single digit or all octets. */
function isDottedNumber(c: Candidate): boolean {
  if (!c.groups.every((g) => g <= 3)) return false;
  if (c.groups.some((g) => g === 1)) return true;
  // nnn.nnn.nnn.nnn is an address shape even when out of range (`256.256.256.256`).
  if (c.groups.length === 4 && c.groups.every((g) => g === 3)) return true;
  let offset = 0;
  for (const g of c.groups) {
    if (Number(c.digits.slice(offset, offset + g)) > 255) return false;
    offset += g;
  }
  return c.groups.length === 4;
}

/**
 * True when the number continues a code: the word before it (one space away) mixes letters
 * and digits or is an upper-case block, as in `NL91 1BNA 0417 1643 00` or `GB29 NWBK 6016`.
 */
function continuesCode(text: string, start: number): boolean {
  if (codeAt(text, start - 1) !== 0x20) return false;
  let i = start - 1;
  while (i > 0 && start - i <= 8 && isAsciiLetter(codeAt(text, i - 1))) i--;
  while (i > 0 && start - i <= 8 && (isAsciiLetter(codeAt(text, i - 1)) || isDigit(codeAt(text, i - 1)))) i--;
  const word = text.slice(i, start - 1);
  if (word.length < 2) return false;
  return (
    (MIXED_DIGIT.test(word) && MIXED_LETTER.test(word)) ||
    (BANK_CODE.test(word) && IBAN_HEAD.test(text.slice(Math.max(0, i - 5), i)))
  );
}

/** 1 to 3 digits, then groups of exactly three: how amounts and counts are grouped. */
function isThousandsGrouping(groups: readonly number[]): boolean {
  if (groups.length < 3 || (groups[0] ?? 0) > 3) return false;
  for (let k = 1; k < groups.length; k++) if (groups[k] !== 3) return false;
  return true;
}

function isDateShape(c: Candidate): boolean {
  const g = c.groups;
  if (g.length < 3 || c.plus || c.parens) return false;
  const parts: number[] = [];
  let offset = 0;
  for (const len of g.slice(0, 3)) {
    parts.push(Number(c.digits.slice(offset, offset + len)));
    offset += len;
  }
  const [a = 0, b = 0, d = 0] = parts;
  if (g[0] === 4 && g[1] === 2 && g[2] === 2) return b >= 1 && b <= 12 && d >= 1 && d <= 31;
  if (g[0] === 2 && g[1] === 2 && g[2] === 4) return a >= 1 && a <= 31 && b >= 1 && b <= 31;
  return false;
}

/** NANP: area and exchange codes start with 2-9 and the area code is not N11. */
function validNanp(ten: string): boolean {
  return NANP.test(ten) && !NANP_N11.test(ten);
}

function judge(text: string, c: Candidate): number {
  const n = c.digits.length;
  if (n > MAX_DIGITS) return 0;
  if (c.separators.includes(".") && isDottedNumber(c)) return 0;
  // A one-digit group between dots marks a version or build number (`10.0.19041.1`).
  if (c.separators.includes(".") && c.groups.some((g) => g === 1)) return 0;
  if (c.separators === "." && c.groups.length === 2) return 0;
  // 164.689.383: thousands grouped by dots, an amount or a count.
  if (c.separators === "." && !c.plus && !c.parens && isThousandsGrouping(c.groups)) return 0;
  // 4-4-4...: the grouping of card and account numbers, not of any numbering plan.
  if (c.groups.length >= 3 && c.groups.slice(0, 3).every((g) => g === 4)) return 0;
  if (continuesCode(text, c.start)) return 0;
  if (isDateShape(c)) return 0;
  const g = c.groups;
  if (!c.plus && g.length === 3 && g[0] === 3 && g[1] === 2 && g[2] === 4) return 0;
  if (c.plus) return n >= MIN_DIGITS_INTERNATIONAL && c.digits.charAt(0) !== "0" ? 0.85 : 0;
  const nanpShape = g.length === 3 && g[0] === 3 && g[1] === 3 && g[2] === 4;
  if (nanpShape && !validNanp(c.digits)) return 0;
  if (g.length > 1 || c.parens) return n >= MIN_DIGITS_NATIONAL ? 0.75 : 0;
  // A bare digit string, unless a label names it another identifier (`trace=13466223403`).
  if (n !== 10 && n !== 11) return 0;
  const before = textBefore(text, c.start);
  if (CONTEXT_WORDS.test(before)) return 0.6;
  if (n === 10 || endsWithIdLabel(before)) return 0;
  if (c.digits.charAt(0) === "0" && c.digits.charAt(1) !== "0") return 0.6;
  return CHINA_MOBILE.test(c.digits) ? 0.6 : 0;
}

export function findPhones(text: string, candidates: Candidates = findCandidates(text)): Detection[] {
  const found: Detection[] = [];
  for (const run of candidates.runs) {
    if (run.digits < MIN_DIGITS_INTERNATIONAL) continue;
    scanRun(text, run, found);
  }
  return found;
}

/** Reads the phone candidates of one number run. */
function scanRun(text: string, run: NumberRun, found: Detection[]): void {
  let i = run.start;
  while (i < run.end) {
    const c = text.charCodeAt(i);
    const startsNumber =
      isDigit(c) ||
      ((c === 0x2b || c === 0x28) && isDigit(codeAt(text, i + 1))) ||
      (c === 0x2b && codeAt(text, i + 1) === 0x28);
    if (!startsNumber) {
      i++;
      continue;
    }
    const before = codeAt(text, i - 1);
    if (isAsciiLetter(before) || isDigit(before)) {
      // Glued to a word: skip its digits without reading a candidate.
      const from = i;
      while (i < text.length && isDigit(text.charCodeAt(i))) i++;
      if (i === from) i++;
      continue;
    }
    const candidate = readCandidate(text, i);
    const after = codeAt(text, candidate.end);
    // Glued into a word, path, file name, URL or time: `id-34521098-720`, `x.jpg`, `10:30`.
    const next = codeAt(text, candidate.end + 1);
    const glued =
      isAsciiLetter(before) ||
      isDigit(before) ||
      before === 0x2e ||
      before === 0x2f ||
      before === 0x2d ||
      before === 0x5f ||
      isAsciiLetter(after) ||
      after === 0x3a ||
      after === 0x2f ||
      after === 0x5f ||
      (after === 0x2e && (isDigit(next) || isAsciiLetter(next)));
    const score = glued ? 0 : judge(text, candidate);
    if (score > 0) {
      found.push({
        category: "privacy.pii.phone",
        severity: Severity.MEDIUM,
        start: candidate.start,
        end: candidate.end,
        score,
        subject: boundSubject(text.slice(candidate.start, candidate.end)),
        placeholderKind: "PHONE",
        reason: "telephone number",
      });
    }
    i = Math.max(candidate.end, i + 1);
  }
}
