import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { boundSubject, type Detection } from "../detector.js";
import { type Candidates, findCandidates } from "./candidates.js";
import { codeAt, isWordChar } from "./chars.js";
import { endsWithIdLabel, textBefore } from "./labels.js";
import { forEachDigitWindow } from "./digit-run.js";

/**
 * US Social Security numbers: nine digits as AAA-GG-SSSS (dashes, spaces or dots, one kind
 * per number) or unseparated. Never-issued values are rejected: area 000, 666 or 9xx,
 * group 00, serial 0000, and numbers published as examples (078-05-1120 from the
 * Woolworth wallet insert, 219-09-9999 from an SSA advertisement, 123-45-6789), as are
 * placeholder-looking values and numbers that are part of a longer token. An unseparated
 * nine-digit number may be any id, so it scores lower, and is not reported where a label
 * names it another identifier (`Reference ID 454777298`, `trace=532812345`).
 */

const PUBLISHED_EXAMPLES = new Set(["078051120", "219099999", "123456789"]);

export function validSsn(digits: string): boolean {
  if (digits.length !== 9 || PUBLISHED_EXAMPLES.has(digits)) return false;
  const area = digits.slice(0, 3);
  if (area === "000" || area === "666" || area.startsWith("9")) return false;
  return digits.slice(3, 5) !== "00" && digits.slice(5) !== "0000";
}

/** The first group: the area (3), area and group (5), or the whole number (9). */
function opensSsn(length: number): boolean {
  return length === 3 || length === 5 || length === 9;
}

/** Separators may only fall after the area (3) and the group (5). */
function validGrouping(groups: readonly number[]): boolean {
  let position = 0;
  for (let k = 0; k < groups.length - 1; k++) {
    position += groups[k] ?? 0;
    if (position !== 3 && position !== 5) return false;
  }
  return true;
}

/**
 * Made-up values: one repeated digit, only zeros and ones (binary strings), or six
 * consecutive ascending or descending digits (`532-12-3456`), the marks of a sample number.
 */
function isPlaceholder(digits: string): boolean {
  let binary = true;
  let same = true;
  let up = 1;
  let down = 1;
  for (let i = 0; i < digits.length; i++) {
    const c = digits.charCodeAt(i);
    if (c !== 0x30 && c !== 0x31) binary = false;
    if (i === 0) continue;
    const step = c - digits.charCodeAt(i - 1);
    if (step !== 0) same = false;
    up = step === 1 ? up + 1 : 1;
    down = step === -1 ? down + 1 : 1;
    if (up >= 6 || down >= 6) return true;
  }
  return binary || same;
}

function isJoiner(c: number): boolean {
  return c === 0x2e || c === 0x2d || c === 0x2f; // . - /
}

/**
 * True when the window is one part of a longer token: joined by `.`, `-` or `/` to a
 * letter, digit or underscore (`+33.170377661`, `build-532812345`, `/users/532812345`,
 * `532812345.json`). A dash or dot that ends a sentence is followed by no word character.
 */
function insideLongerToken(text: string, start: number, end: number): boolean {
  return (
    (isJoiner(codeAt(text, start - 1)) && isWordChar(codeAt(text, start - 2))) ||
    (isJoiner(codeAt(text, end)) && isWordChar(codeAt(text, end + 1)))
  );
}

const SSN_CONTEXT = /ssn|social/i;

/** The regular expressions of this scanner, for the regex safety test. */
export const ssnPatterns: readonly RegExp[] = [SSN_CONTEXT];

/** True when an unseparated number is labelled as some other identifier (`Reference ID 454777298`). */
function labelledAsId(text: string, start: number): boolean {
  const before = textBefore(text, start);
  return endsWithIdLabel(before) && !SSN_CONTEXT.test(before);
}

export function findSsns(text: string, candidates: Candidates = findCandidates(text)): Detection[] {
  const found: Detection[] = [];
  forEachDigitWindow(text, candidates.runs, "- .", 9, 9, isWordChar, opensSsn, validGrouping, (w) => {
    if (w.separators.length > 1 || !validSsn(w.digits)) return false;
    if (isPlaceholder(w.digits) || insideLongerToken(text, w.start, w.end)) return false;
    const separated = w.groupLengths.length > 1;
    if (!separated && labelledAsId(text, w.start)) return false;
    found.push({
      category: "privacy.pii.us_ssn",
      severity: separated ? Severity.HIGH : Severity.MEDIUM,
      start: w.start,
      end: w.end,
      score: separated ? 0.85 : 0.5,
      subject: boundSubject(text.slice(w.start, w.end)),
      placeholderKind: "US_SSN",
      reason: "US social security number",
    });
    return true;
  });
  return found;
}
