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

  it("does not report a login at a host before its remote path (scp, rsync, git over SSH) as an email", () => {
    for (const text of [
      "git clone git@github.com:acme/app.git",
      "scp backup.tgz deploy@build.example.com:/backups/",
      "rsync -avz ./site/ deploy@web1.example.com:~/www/",
    ])
      expect(
        findPii(text).map((d) => d.category),
        text,
      ).toEqual([]);
    // A colon that ends the sentence's address is still an email's.
    expect(findPii("Write to ops@example.com: we answer within a day.").map((d) => d.category)).toEqual([
      "privacy.pii.email",
    ]);
  });

  it("lets the checksummed kind win overlaps", () => {
    expect(findPii("4111-1111-1111-1111").map((d) => d.category)).toEqual(["privacy.pii.payment_card"]);
  });

  it("finds each kind planted in long ordinary text, at its offsets", () => {
    const plants = [
      ["a.person@example.org", "privacy.pii.email"],
      ["+44 (20) 7123 4567", "privacy.pii.phone"],
      ["4012 8888 8888 1881", "privacy.pii.payment_card"],
      ["GB29 NWBK 6016 1331 9268 19", "privacy.pii.iban"],
      ["078-05-1123", "privacy.pii.us_ssn"],
      ["2001:db8::7", "privacy.pii.ip_address"],
      ["8.8.4.4", "privacy.pii.ip_address"],
    ] as const;
    const line = (i: number) =>
      `2025-03-14T10:${String(i % 60).padStart(2, "0")}:07.${i % 1000}Z INFO [worker-${i % 8}] GET /api/v1/orders/${i * 7} status=200 duration_ms=${i % 900} trace=${(i * 2654435761).toString(16)}`;
    const lines = Array.from({ length: 600 }, (_, i) => line(i));
    plants.forEach(([value], k) => {
      lines.splice(50 + k * 80, 0, `note: ${value} (planted)`);
    });
    const text = lines.join("\n");
    const found = findPii(text);
    expect(found.map((d) => [d.category, text.slice(d.start, d.end)])).toEqual(
      plants.map(([value, category]) => [category, value]),
    );
  });
});
