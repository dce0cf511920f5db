import { describe, expect, it } from "vitest";
import { findPii, piiDetector } from "../../../src/detectors/pii/index.js";

describe("pii detector", () => {
  it("declares every kind it reports", () => {
    const text =
      "mail a@b.io, call +1 415 555 0132, card 4111 1111 1111 1111, IBAN DE89370400440532013000, SSN 078-05-1123, host 8.8.8.8";
    const categories = findPii(text).map((d) => d.category);
    expect(categories).toEqual([
      "privacy.pii.email",
      "privacy.pii.phone",
      "privacy.pii.payment_card",
      "privacy.pii.iban",
      "privacy.pii.us_ssn",
      "privacy.pii.ip_address",
    ]);
    for (const c of categories) expect(piiDetector.categories).toContain(c);
  });

  it("does not report a URL password as an email", () => {
    expect(findPii("postgres://app:hunter2@db.example.com/x").map((d) => d.category)).toEqual([]);
  });

  it("lets the checksummed kind win overlaps", () => {
    expect(findPii("4111-1111-1111-1111").map((d) => d.category)).toEqual(["privacy.pii.payment_card"]);
  });
});
