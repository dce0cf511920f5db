import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { boundSubject, type Detection } from "../detector.js";
import { type Candidates, findCandidates } from "./candidates.js";
import { isWordChar } from "./chars.js";
import { forEachDigitWindow } from "./digit-run.js";

/**
 * Payment card numbers: 13 to 19 digits, plain or grouped by one kind of separator (space
 * or dash), with a Luhn check digit and an issuer prefix (IIN) that a card network uses.
 * Networks' published test numbers (4111 1111 1111 1111, ...) are reported like any other:
 * they are indistinguishable from real ones by shape and the redaction costs nothing.
 */

/** Luhn mod-10 over a string of digits. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 0x30;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

function prefixBetween(digits: string, width: number, low: number, high: number): boolean {
  const p = Number(digits.slice(0, width));
  return p >= low && p <= high;
}

/** The card network for `digits`, or null when no network issues that prefix and length. */
export function cardNetwork(digits: string): string | null {
  const n = digits.length;
  if (digits.startsWith("4") && (n === 13 || n === 16 || n === 19)) return "visa";
  if ((prefixBetween(digits, 2, 51, 55) || prefixBetween(digits, 4, 2221, 2720)) && n === 16)
    return "mastercard";
  if ((digits.startsWith("34") || digits.startsWith("37")) && n === 15) return "amex";
  if (
    (digits.startsWith("6011") || digits.startsWith("65") || prefixBetween(digits, 3, 644, 649)) &&
    n >= 16 &&
    n <= 19
  )
    return "discover";
  if ((prefixBetween(digits, 3, 300, 305) || /^3[689]/.test(digits)) && n >= 14 && n <= 19) return "diners";
  if (prefixBetween(digits, 4, 3528, 3589) && n >= 16 && n <= 19) return "jcb";
  if (digits.startsWith("62") && n >= 16 && n <= 19) return "unionpay";
  if (prefixBetween(digits, 4, 2200, 2204) && n >= 16 && n <= 19) return "mir";
  if ((digits.startsWith("50") || /^5[6-8]/.test(digits) || digits.startsWith("6")) && n >= 12 && n <= 19)
    return "maestro";
  if (digits.startsWith("1") && n === 15) return "uatp";
  return null;
}

/** A card number's first group: the whole number or a group of at least three digits. */
function opensCard(length: number): boolean {
  return length >= 3;
}

/** Unbroken, or in groups of at least three digits. */
function cardGrouping(groups: readonly number[]): boolean {
  return groups.length === 1 || groups.every((g) => g >= 3);
}

export function findPaymentCards(text: string, candidates: Candidates = findCandidates(text)): Detection[] {
  const found: Detection[] = [];
  forEachDigitWindow(text, candidates.runs, " -", 13, 19, isWordChar, opensCard, cardGrouping, (w) => {
    const { digits } = w;
    if (w.separators.length > 1) return false;
    if (!luhnValid(digits) || cardNetwork(digits) === null) return false;
    found.push({
      category: "privacy.pii.payment_card",
      severity: Severity.HIGH,
      start: w.start,
      end: w.end,
      score: 0.9,
      subject: boundSubject(text.slice(w.start, w.end)),
      placeholderKind: "CARD_NUMBER",
      reason: "payment card number (Luhn-valid)",
    });
    return true;
  });
  return found;
}
