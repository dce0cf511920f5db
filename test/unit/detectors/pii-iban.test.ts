import { describe, expect, it } from "vitest";
import { findIbans, ibanChecksumValid } from "../../../src/detectors/pii/iban.js";

const positives: readonly [string, string][] = [
  ["pay DE89370400440532013000 now", "DE89370400440532013000"],
  ["IBAN: DE89 3704 0044 0532 0130 00.", "DE89 3704 0044 0532 0130 00"],
  ["GB29 NWBK 6016 1331 9268 19", "GB29 NWBK 6016 1331 9268 19"],
  ["AL47-2121-1009-0000-0002-3569-8741", "AL47-2121-1009-0000-0002-3569-8741"],
  ["NO9386011117947", "NO9386011117947"],
];

const negatives: readonly string[] = [
  "DE89370400440532013001",
  "DE8937040044053201300",
  "XX89370400440532013000",
  "EE38 2200 2210  014 5686",
  "de89370400440532013000",
  "ABCDE89370400440532013000",
];

describe("IBAN", () => {
  it.each(positives)("finds %j", (text, iban) => {
    const [d, ...rest] = findIbans(text);
    expect(rest).toEqual([]);
    expect(d?.category).toBe("privacy.pii.iban");
    expect(d?.start).toBe(text.indexOf(iban));
    expect(d?.end).toBe(text.indexOf(iban) + iban.length);
  });

  it.each(negatives)("ignores %j", (text) => {
    expect(findIbans(text)).toEqual([]);
  });

  it("computes mod-97", () => {
    expect(ibanChecksumValid("GB82WEST12345698765432")).toBe(true);
    expect(ibanChecksumValid("GB82WEST12345698765433")).toBe(false);
  });
});
