import { describe, expect, it } from "vitest";
import { findPii } from "../../../src/detectors/pii/index.js";
import { findPhones } from "../../../src/detectors/pii/phone.js";

/** [text, the exact phone number the span must cover] */
const positives: readonly [string, string][] = [
  ["call +1 415 555 0132 today", "+1 415 555 0132"],
  ["E.164: +14155550132.", "+14155550132"],
  ["office (415) 555-0132", "(415) 555-0132"],
  ["US: 415-555-0132", "415-555-0132"],
  ["dots 415.555.0132 ok", "415.555.0132"],
  ["UK +44 (20) 7123 4567", "+44 (20) 7123 4567"],
  ["FR +33 1 42 68 53 00", "+33 1 42 68 53 00"],
  ["JP 090-1234-5678", "090-1234-5678"],
  ["TR 0 532 123 45 67", "0 532 123 45 67"],
  ["trunk 05321234567", "05321234567"],
  ["CN 13812345678", "13812345678"],
  ["Phone: 5321234567", "5321234567"],
];

const negatives: readonly string[] = [
  "released 2024-01-15 at noon",
  "on 15.01.2024 we met",
  "version 1.2.3.4 and 10.0.19041.1",
  "pi is 3.14159265358979",
  "order 1234567890 shipped",
  "id 12345678901234567890",
  "host 192.168.10.12",
  "917-123-4567",
  "at 2024-01-15 10:30",
  "file img-34521098-720-516.jpg",
  "SSN 078-05-1123",
  "short 555-0132",
  "population 164.689.383",
  "trace=13466223403 status=200",
];

describe("phone numbers", () => {
  it.each(positives)("finds %j", (text, number) => {
    const found = findPhones(text);
    expect(found).toHaveLength(1);
    expect(found[0]?.category).toBe("privacy.pii.phone");
    expect(found[0]?.start).toBe(text.indexOf(number));
    expect(found[0]?.end).toBe(text.indexOf(number) + number.length);
  });

  it.each(negatives)("ignores %j", (text) => {
    expect(findPii(text).filter((d) => d.category === "privacy.pii.phone")).toEqual([]);
  });
});
