import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Channel } from "../../../gen/guard/v1/types_pb.js";
import type { Corpus, LabelledSample } from "../corpus.js";

/**
 * Presidio recognizer test cases (microsoft/presidio, presidio-analyzer/tests): the
 * (text, expected count) pairs of the recognizers for kinds this project detects. A case
 * with a positive count expects that kind's category; a case with zero is a negative. Test
 * files of other recognizers (national ids, dates, names, ...) are not used: their texts
 * are labelled for those kinds only.
 */

interface Row {
  readonly source_file: string;
  readonly text: string;
  readonly label: string;
}

/** Presidio test file → the category this project reports for that entity. */
const CATEGORY_BY_FILE: Readonly<Record<string, string>> = {
  "test_email_recognizer.py": "privacy.pii.email",
  "test_phone_recognizer.py": "privacy.pii.phone",
  "test_tr_phone_number_recognizer.py": "privacy.pii.phone",
  "test_ph_mobile_number_recognizer.py": "privacy.pii.phone",
  "test_credit_card_recognizer.py": "privacy.pii.payment_card",
  "test_iban_recognizer.py": "privacy.pii.iban",
  "test_us_ssn_recognizer.py": "privacy.pii.us_ssn",
  "test_ip_recognizer.py": "privacy.pii.ip_address",
};

export const notes = [
  "presidio: generic phone cases (test_phone_recognizer.py) are positives only; the phone negatives come from Presidio's own Turkish and Philippine phone recognizer tests, whose negatives mean \"not a number of that country's plan\" (e.g. `917-123-4567`), so they are strict.",
  "presidio: labels are per recognizer, so a negative of one kind may hold another (the IBAN test's `... SD 20241 440-600-5124` has a US phone number); findings on such texts count as false positives here.",
  "presidio: its IBAN country table predates some SWIFT registry entries (IQ, LC, LY, SC, ...); mod-97-valid IBANs of those countries are negatives there.",
];

const corpus: Corpus = {
  name: "presidio",
  source: "https://github.com/microsoft/presidio @ 0aa9f8e44275 (recognizer test cases, presidio_recognizer_test_cases.jsonl)",
  async load(corporaRoot) {
    const raw = await readFile(join(corporaRoot, "presidio", "presidio_recognizer_test_cases.jsonl"), "utf8");
    const samples: LabelledSample[] = [];
    raw
      .split("\n")
      .filter((line) => line.trim().length > 0)
      .forEach((line, index) => {
        const row = JSON.parse(line) as Row;
        const file = row.source_file.split("/").pop() ?? "";
        const category = CATEGORY_BY_FILE[file];
        if (category === undefined) return;
        samples.push({
          id: `${file}#${index}`,
          text: row.text,
          channel: Channel.USER,
          expected: row.label === "pii" ? [category] : [],
        });
      });
    return samples;
  },
};

export default corpus;
