import type { Detection, Detector } from "../detector.js";
import { type Candidates, candidatePatterns, findCandidates } from "./candidates.js";
import { emailPatterns, findEmails } from "./email.js";
import { findIbans } from "./iban.js";
import { findIpAddresses, ipPatterns } from "./ip-address.js";
import { labelPatterns } from "./labels.js";
import { findPaymentCards } from "./payment-card.js";
import { findPhones, phonePatterns } from "./phone.js";
import { findSsns, ssnPatterns } from "./ssn.js";

/**
 * Personal data (`privacy.pii.*`), each kind validated and not only matched.
 *
 * Severity scale: high = data that enables fraud on its own (payment card, IBAN, a
 * formatted SSN); medium = contact data and public IP addresses; low = non-public IP
 * addresses. Where two kinds claim overlapping text, the more specific, checksummed kind
 * wins, in the order of `SCANNERS`: a Luhn-valid card is not also reported as a phone.
 *
 * Cost: `findCandidates` finds the runs of four or more digits and the IBAN starts once,
 * with two regex scans; the numeric scanners read only those, and emails and IPv6
 * addresses are found from their `@` and `:` by `indexOf`. Text without such triggers
 * costs little more than those scans.
 */
const SCANNERS: readonly ((text: string, candidates: Candidates) => Detection[])[] = [
  findIbans,
  findPaymentCards,
  findSsns,
  (text) => findEmails(text),
  findIpAddresses,
  findPhones,
];

/**
 * Every regular expression the PII scanners use, for the regex safety test. Cards and
 * IBANs use none of their own: they are read character by character from the candidates.
 */
export const piiPatterns: readonly RegExp[] = [
  ...emailPatterns,
  ...phonePatterns,
  ...ipPatterns,
  ...ssnPatterns,
  ...labelPatterns,
  ...candidatePatterns,
];

export function findPii(text: string): Detection[] {
  const candidates = findCandidates(text);
  const found: Detection[][] = [];
  let total = 0;
  for (const scan of SCANNERS) {
    const detections = scan(text, candidates);
    found.push(detections);
    total += detections.length;
  }
  if (total === 0) return [];
  const kept: Detection[] = [];
  // One flag per code unit: checking a span costs its length, so the whole pass stays
  // linear (each scanner's own spans do not overlap).
  const claimed = new Uint8Array(text.length);
  for (const detections of found) {
    for (const d of detections) {
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
  version: "4",
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
