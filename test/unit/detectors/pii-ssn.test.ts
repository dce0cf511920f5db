import { describe, expect, it } from "vitest";
import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { findSsns, validSsn } from "../../../src/detectors/pii/ssn.js";

const positives: readonly [string, string, Severity][] = [
  ["SSN 078-05-1123 on file", "078-05-1123", Severity.HIGH],
  ["078 05 1123", "078 05 1123", Severity.HIGH],
  ["078.05.1123", "078.05.1123", Severity.HIGH],
  ["SSN 078051121", "078051121", Severity.MEDIUM],
  ["078051121", "078051121", Severity.MEDIUM],
  ["SSN ID: 078051121", "078051121", Severity.MEDIUM],
  ["sentence ends 078-05-1123.", "078-05-1123", Severity.HIGH],
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
  // Sample values: one digit repeated, binary strings, six digits in sequence.
  "555-55-5555",
  "011101101",
  "532123456",
  "532-12-3456",
  // Nine digits that another label names, or that are one part of a longer token.
  "Reference ID   454777298",
  "id 078051121",
  "trace=532812345 status=200",
  'orderId: "532812345"',
  "Registrant Phone: +33.170377661",
  "GET /api/v1/users/532812345/orders",
  "build-532812345",
  "dump-532812345.json",
  "span 4f3a-532812345-ab",
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
