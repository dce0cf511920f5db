import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Channel } from "../../../gen/guard/v1/types_pb.js";
import type { Corpus, LabelledSample } from "../corpus.js";

/**
 * secretlint rule snapshots (secretlint/secretlint, packages/@secretlint/*\/test/snapshots):
 * one sample per snapshot case, its input files joined; `ng`-cases whose output.json holds
 * findings are positives (`security.secret_leak`), cases with none negatives. Cases whose
 * label does not come from the text are left out, each for a stated reason below.
 */

interface IndexRow {
  readonly rule: string;
  readonly case: string;
  readonly dir: string;
  readonly inputs: readonly string[];
  readonly has_custom_config: boolean;
  readonly label: string;
}

/** Rules whose verdict depends on something other than the text's content. */
const EXCLUDED_RULES: Readonly<Record<string, string>> = {
  "secretlint-rule-filter-comments": "labels come from `secretlint-disable` comments around a toy rule",
  "secretlint-rule-example": "a toy rule that flags the words `THIS IS SECRET`",
  "secretlint-rule-no-dotenv": "labels come from the file name (`.env` vs `.env.example`)",
  "secretlint-rule-no-homedir": "labels come from the machine's home directory in the rule options",
  "secretlint-rule-no-k8s-kind-secret":
    "its `ng` cases have no findings in their snapshots, so the labels contradict the case names",
};

export const notes = [
  "secretlint: one sample per snapshot case; cases with a custom `.secretlintrc` are left out (their label depends on rule options not applied here), as are cases without copied text inputs (the .p12 files were not copied, and the PEM files beside them are not what those labels judge).",
  ...Object.entries(EXCLUDED_RULES).map(([rule, why]) => `secretlint: ${rule} left out: ${why}.`),
  "secretlint labels some fixtures positive that other corpora (and this detector) treat as placeholders: values of one repeated character (`sk_live_AAAA...`), `hf_xxxx...`, `user:pass`; and identifiers that are not secrets (Azure tenant and client GUIDs, AWS account ids).",
];

const corpus: Corpus = {
  name: "secretlint",
  source: "https://github.com/secretlint/secretlint @ 18346ba31b81 (rule test snapshots, _index.jsonl)",
  async load(corporaRoot) {
    const root = join(corporaRoot, "secretlint");
    const raw = await readFile(join(root, "_index.jsonl"), "utf8");
    const rows = raw
      .split("\n")
      .filter((line) => line.trim().length > 0)
      .map((line) => JSON.parse(line) as IndexRow);
    const samples: LabelledSample[] = [];
    for (const row of rows) {
      if (row.has_custom_config || row.inputs.length === 0 || row.case.includes("p12")) continue;
      if (EXCLUDED_RULES[row.rule] !== undefined) continue;
      const texts = await Promise.all(row.inputs.map((f) => readFile(join(root, row.dir, f), "utf8")));
      samples.push({
        id: `${row.rule}/${row.case}`,
        text: texts.join("\n"),
        channel: Channel.USER,
        expected: row.label === "secret" ? ["security.secret_leak"] : [],
      });
    }
    return samples;
  },
};

export default corpus;
