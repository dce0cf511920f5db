import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Channel } from "../../../gen/guard/v1/types_pb.js";
import type { Corpus, LabelledSample } from "../corpus.js";

/**
 * gitleaks rule examples (gitleaks/gitleaks, cmd/generate/config/rules/*.go): the static
 * true-positive and false-positive strings its rule tests use. `secret` rows are positives
 * (`security.secret_leak`), `not_secret` rows negatives. gitleaks labels a row not_secret
 * when that one rule must stay silent, so a not_secret string that is word for word
 * another rule's secret example is a positive; it is dropped here (the secret row already
 * counts it) rather than counted as a false alarm.
 */

interface Row {
  readonly rule_id: string;
  readonly label: string;
  readonly text: string;
}

export const notes = [
  "gitleaks: every `secret` row is a positive and every `not_secret` row a negative, except `not_secret` rows whose text is, word for word, another rule's `secret` example (dropped, since the secret row already counts it).",
  "gitleaks labels `not_secret` per rule: a string that must not fire *that* rule. Some are still credentials by any other rule's reading (e.g. a well-formed Anthropic admin key listed under anthropic-api-key, Google API keys on gitleaks' own allowlist, meraki-shaped tokens of the wrong length assigned to `*_token`); findings on them count as false positives here.",
];

const corpus: Corpus = {
  name: "gitleaks",
  source: "https://github.com/gitleaks/gitleaks @ b58d3f102cf3 (rule tps/fps examples, gitleaks_rule_examples.jsonl)",
  async load(corporaRoot) {
    const raw = await readFile(join(corporaRoot, "gitleaks", "gitleaks_rule_examples.jsonl"), "utf8");
    const rows = raw
      .split("\n")
      .filter((line) => line.trim().length > 0)
      .map((line) => JSON.parse(line) as Row);
    const secretTexts = new Set(rows.filter((r) => r.label === "secret").map((r) => r.text));
    const samples: LabelledSample[] = [];
    rows.forEach((row, index) => {
      const secret = row.label === "secret";
      if (!secret && secretTexts.has(row.text)) return;
      samples.push({
        id: `${row.rule_id}#${index}`,
        text: row.text,
        channel: Channel.USER,
        expected: secret ? ["security.secret_leak"] : [],
      });
    });
    return samples;
  },
};

export default corpus;
