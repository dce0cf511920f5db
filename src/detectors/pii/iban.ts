import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { boundSubject, type Detection } from "../detector.js";
import { type Candidates, findCandidates } from "./candidates.js";
import { codeAt, isAsciiLetter, isDigit, isUpper } from "./chars.js";

/**
 * International bank account numbers, compact (`DE89370400440532013000`) or in groups of
 * four separated by spaces (`DE89 3704 0044 0532 0130 00`) or dashes. Validated by the length the
 * country's registry entry fixes and by the ISO 7064 mod-97 check digits.
 */

/** IBAN length per country, from the SWIFT IBAN registry. */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BI: 27,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DJ: 27,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FK: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HN: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  LY: 25,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MN: 20,
  MR: 27,
  MT: 31,
  MU: 30,
  NI: 28,
  NL: 18,
  NO: 15,
  OM: 23,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  RU: 33,
  SA: 24,
  SC: 31,
  SD: 18,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  SO: 23,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
  YE: 30,
};

/** ISO 7064 mod 97-10 over the rearranged IBAN, computed piecewise to stay in range. */
export function ibanChecksumValid(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (let i = 0; i < rearranged.length; i++) {
    const c = rearranged.charCodeAt(i);
    const value = isDigit(c) ? c - 0x30 : c - 0x41 + 10;
    remainder = value < 10 ? (remainder * 10 + value) % 97 : (remainder * 100 + value) % 97;
  }
  return remainder === 1;
}

function isIbanChar(c: number): boolean {
  return isDigit(c) || isUpper(c);
}

/**
 * Reads `length` IBAN characters from `start`, compact or in groups of four separated by
 * single spaces. Returns the end offset, or -1 when the text does not hold such an IBAN.
 */
function readIban(text: string, start: number, length: number): { end: number; value: string } | null {
  let value = "";
  let i = start;
  let separator = -1;
  while (value.length < length && i < text.length) {
    const c = text.charCodeAt(i);
    if (isIbanChar(c)) {
      value += text.charAt(i);
      i++;
      continue;
    }
    // A separator (space, or dash, one kind throughout) may only follow a group of four.
    if ((c === 0x20 || c === 0x2d) && value.length % 4 === 0 && isIbanChar(codeAt(text, i + 1))) {
      if (separator === -1 && value.length === 4) separator = c;
      if (c === separator) {
        i++;
        continue;
      }
    }
    return null;
  }
  if (value.length !== length) return null;
  return { end: i, value };
}

export function findIbans(text: string, candidates: Candidates = findCandidates(text)): Detection[] {
  const found: Detection[] = [];
  let consumedUntil = 0;
  for (const i of candidates.ibanStarts) {
    if (i < consumedUntil) continue;
    const length = IBAN_LENGTHS[text.slice(i, i + 2)];
    if (length === undefined) continue;
    const iban = readIban(text, i, length);
    if (!iban) continue;
    const after = codeAt(text, iban.end);
    if (isAsciiLetter(after) || isDigit(after)) continue;
    if (!ibanChecksumValid(iban.value)) continue;
    found.push({
      category: "privacy.pii.iban",
      severity: Severity.HIGH,
      start: i,
      end: iban.end,
      score: 0.95,
      subject: boundSubject(text.slice(i, iban.end)),
      placeholderKind: "IBAN",
      reason: "IBAN (mod-97 valid)",
    });
    consumedUntil = iban.end;
  }
  return found;
}
