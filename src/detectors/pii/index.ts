import type { Detection, Detector } from "../detector.js";
import { emailPatterns, findEmails } from "./email.js";
import { findIbans } from "./iban.js";
import { findIpAddresses, ipPatterns } from "./ip-address.js";
import { findPaymentCards } from "./payment-card.js";
import { findPhones, phonePatterns } from "./phone.js";
import { findSsns } from "./ssn.js";

/**
 * Personal data (`privacy.pii.*`), each kind validated and not only matched.
 *
 * Severity scale: high = data that enables fraud on its own (payment card, IBAN, a
 * formatted SSN); medium = contact data and public IP addresses; low = non-public IP
 * addresses. Where two kinds claim overlapping text, the more specific, checksummed kind
 * wins, in the order of `SCANNERS`: a Luhn-valid card is not also reported as a phone.
 */
const SCANNERS: readonly ((text: string) => Detection[])[] = [
  findIbans,
  findPaymentCards,
  findSsns,
  findEmails,
  findIpAddresses,
  findPhones,
];

/**
 * Every regular expression the PII scanners use, for the regex safety test. Cards, IBANs
 * and SSNs use none: they are scanned character by character.
 */
export const piiPatterns: readonly RegExp[] = [...emailPatterns, ...phonePatterns, ...ipPatterns];

export function findPii(text: string): Detection[] {
  const kept: Detection[] = [];
  // One flag per code unit: checking a span costs its length, so the whole pass stays
  // linear (each scanner's own spans do not overlap).
  const claimed = new Uint8Array(text.length);
  for (const scan of SCANNERS) {
    for (const d of scan(text)) {
      const start = d.start ?? 0;
      const end = d.end ?? 0;
      if (claimed.subarray(start, end).includes(1)) continue;
      claimed.fill(1, start, end);
      kept.push(d);
    }
  }
  return kept.sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
}

export const piiDetector: Detector = {
  name: "pii",
  version: "2",
  categories: [
    "privacy.pii.email",
    "privacy.pii.phone",
    "privacy.pii.payment_card",
    "privacy.pii.iban",
    "privacy.pii.us_ssn",
    "privacy.pii.ip_address",
  ],
  detect(segment) {
    return findPii(segment.text);
  },
};
