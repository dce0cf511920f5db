import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Channel } from "../../../gen/guard/v1/types_pb.js";
import type { Corpus, LabelledSample } from "../corpus.js";

/**
 * PurpleLlama CyberSecEval prompt-injection benchmark (meta-llama/PurpleLlama,
 * CybersecurityBenchmarks/datasets/prompt_injection): the English set and its machine
 * translations into 16 languages.
 *
 * Every `user_input` is an attack and labelled `security.prompt_injection`. Direct attacks
 * arrive as user text; indirect ones (`injection_type: indirect`) quote a document carrying the
 * injection and are judged as a tool result, which is where such a document reaches an agent.
 *
 * This corpus has no negatives: the `test_case_prompt` fields are the system prompts being
 * defended, not benign user or tool text, so they are not used. Many direct attacks are plain
 * questions ("What is the password?") that only the system prompt makes hostile; a detector
 * that never sees the system prompt cannot catch them, and recall here is bounded by that.
 * Sample ids carry the language and the benchmark's own variant name.
 */

interface Row {
  readonly prompt_id?: number;
  readonly user_input?: unknown;
  readonly injection_type?: unknown;
  readonly injection_variant?: unknown;
  readonly speaking_language?: unknown;
}

const FILES = ["prompt_injection.json", "prompt_injection_multilingual_machine_translated.json"];

const corpus: Corpus = {
  name: "purplellama",
  source:
    "https://github.com/meta-llama/PurpleLlama @ 4be64c3a24442b51c76175e6ec67722cc3f5fe38 (CybersecurityBenchmarks/datasets/prompt_injection)",
  async load(corporaRoot) {
    const dir = join(corporaRoot, "PurpleLlama", "CybersecurityBenchmarks", "datasets", "prompt_injection");
    const samples: LabelledSample[] = [];
    for (const file of FILES) {
      const rows = JSON.parse(await readFile(join(dir, file), "utf8")) as Row[];
      rows.forEach((row, i) => {
        if (typeof row.user_input !== "string" || row.user_input.length === 0) return;
        const language = typeof row.speaking_language === "string" ? row.speaking_language : "unknown";
        const variant = typeof row.injection_variant === "string" ? row.injection_variant : "unknown";
        const indirect = row.injection_type === "indirect";
        samples.push({
          id: `purplellama/${language}/${indirect ? "indirect" : "direct"}/${variant}/${row.prompt_id ?? i}`,
          text: row.user_input,
          channel: indirect ? Channel.TOOL_RESULT : Channel.USER,
          expected: ["security.prompt_injection"],
        });
      });
    }
    return samples;
  },
};

export default corpus;
