import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { boundSubject, type Detection } from "../detector.js";
import { isWordChar } from "./chars.js";
import { forEachDigitWindow } from "./digit-run.js";

/**
 * US Social Security numbers: nine digits as AAA-GG-SSSS (dashes, spaces or dots, one kind
 * per number) or unseparated. Never-issued values are rejected: area 000, 666 or 9xx,
 * group 00, serial 0000, and numbers published as examples (078-05-1120 from the
 * Woolworth wallet insert, 219-09-9999 from an SSA advertisement, 123-45-6789). An
 * unseparated nine-digit number may be any id, so it scores lower.
 */

const PUBLISHED_EXAMPLES = new Set(["078051120", "219099999", "123456789"]);

export function validSsn(digits: string): boolean {
  if (digits.length !== 9 || PUBLISHED_EXAMPLES.has(digits)) return false;
  const area = digits.slice(0, 3);
  if (area === "000" || area === "666" || area.startsWith("9")) return false;
  return digits.slice(3, 5) !== "00" && digits.slice(5) !== "0000";
}

/** Separators may only fall after the area (3) and the group (5). */
function validGrouping(groups: readonly number[]): boolean {
  let position = 0;
  for (const g of groups.slice(0, -1)) {
    position += g;
    if (position !== 3 && position !== 5) return false;
  }
  return true;
}

export function findSsns(text: string): Detection[] {
  const found: Detection[] = [];
  forEachDigitWindow(text, "- .", 9, 9, isWordChar, (w) => {
    if (w.separators.length > 1 || !validGrouping(w.groupLengths) || !validSsn(w.digits)) return false;
    const separated = w.groupLengths.length > 1;
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
