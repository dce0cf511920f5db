import { describe, expect, it } from "vitest";
import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { findSsns, validSsn } from "../../../src/detectors/pii/ssn.js";

const positives: readonly [string, string, Severity][] = [
  ["SSN 078-05-1123 on file", "078-05-1123", Severity.HIGH],
  ["078 05 1123", "078 05 1123", Severity.HIGH],
  ["078.05.1123", "078.05.1123", Severity.HIGH],
  ["id 078051121", "078051121", Severity.MEDIUM],
];

const negatives: readonly string[] = [
  "000-12-3456",
  "666-12-3456",
  "912-12-3456",
  "078-00-1123",
  "078-05-0000",
  "078-05-1120",
  "123-45-6789",
  "219-09-9999",
  "693-09.4444",
  "0780511201",
  "x078-05-1123",
];

describe("US SSN", () => {
  it.each(positives)("finds %j", (text, ssn, severity) => {
    const [d, ...rest] = findSsns(text);
    expect(rest).toEqual([]);
    expect(d?.category).toBe("privacy.pii.us_ssn");
    expect(d?.severity).toBe(severity);
    expect(d?.start).toBe(text.indexOf(ssn));
    expect(d?.end).toBe(text.indexOf(ssn) + ssn.length);
  });

  it.each(negatives)("ignores %j", (text) => {
    expect(findSsns(text)).toEqual([]);
  });

  it("validates ranges", () => {
    expect(validSsn("536901234")).toBe(true);
    expect(validSsn("666901234")).toBe(false);
  });
});
