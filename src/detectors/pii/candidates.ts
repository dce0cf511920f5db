/**
 * Where numeric PII can sit, found once per text for all scanners. Cards, SSNs, phones and
 * IPv4 addresses are written with digits and a few punctuation characters only, so each
 * lies inside a maximal run of such characters; ordinary text (prose, code, logs, JSON) has
 * few runs with many digits, and the kind-specific scanners read only the runs that hold
 * enough digits for their kind instead of each scanning the whole text.
 */

/** A maximal run of digits and number punctuation (space `-` `.` `(` `)` `+`). */
export interface NumberRun {
  readonly start: number;
  readonly end: number;
  /** How many digits the run holds: a kind needing more cannot be inside it. */
  readonly digits: number;
  readonly dots: number;
}

export interface Candidates {
  /** In text order, non-overlapping; only runs of at least four digits. */
  readonly runs: readonly NumberRun[];
  /** Offsets of `CCdd` (two capitals, two digits) at a word start: where an IBAN may begin. */
  readonly ibanStarts: readonly number[];
}

/**
 * The start of a run with at least four digits (the fewest of any numeric kind: an IPv4
 * address, `1.1.1.1`), and of an IBAN: two capitals and two digits at a word start. Finding
 * them with the regex engine skips the text between them far faster than a loop over char
 * codes; each match is then read by hand.
 */
const FOUR_DIGITS = /[0-9](?:[ ().+-]*[0-9]){3}/g;
const IBAN_START = /\b[A-Z]{2}[0-9]{2}/g;

/** The regular expressions of this module, for the regex safety test. */
export const candidatePatterns: readonly RegExp[] = [FOUR_DIGITS, IBAN_START];

/** Characters a number is written with, besides digits. */
function isNumberPunctuation(c: number): boolean {
  return c === 0x20 || c === 0x2d || c === 0x2e || c === 0x28 || c === 0x29 || c === 0x2b;
}

export function findCandidates(text: string): Candidates {
  const runs: NumberRun[] = [];
  const ibanStarts: number[] = [];
  const n = text.length;
  let previousEnd = 0;
  FOUR_DIGITS.lastIndex = 0;
  for (let m = FOUR_DIGITS.exec(text); m !== null; m = FOUR_DIGITS.exec(text)) {
    let start = m.index;
    while (start > previousEnd && isNumberPunctuation(text.charCodeAt(start - 1))) start--;
    let digits = 0;
    let dots = 0;
    let end = m.index;
    for (; end < n; end++) {
      const d = text.charCodeAt(end);
      if (d >= 0x30 && d <= 0x39) digits++;
      else if (d === 0x2e) dots++;
      else if (!isNumberPunctuation(d)) break;
    }
    runs.push({ start, end, digits, dots });
    previousEnd = end;
    FOUR_DIGITS.lastIndex = end;
  }
  IBAN_START.lastIndex = 0;
  for (let m = IBAN_START.exec(text); m !== null; m = IBAN_START.exec(text)) ibanStarts.push(m.index);
  return { runs, ibanStarts };
}
