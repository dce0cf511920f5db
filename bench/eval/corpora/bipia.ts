import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Channel } from "../../../gen/guard/v1/types_pb.js";
import type { Corpus, LabelledSample } from "../corpus.js";

/**
 * BIPIA (microsoft/BIPIA), train split: indirect prompt injection in e-mail, table and code
 * contexts. The tasks whose contexts ship with the repository are used (email, table, code; the
 * qa and abstract contexts must be rebuilt from licensed data and are absent).
 *
 * Negatives: every clean context, as a tool result. Positives: every attack text of the task's
 * attack file (text attacks for email and table, code attacks for code) inserted at the start,
 * in the middle and at the end of a clean context, the context chosen round-robin so that each
 * attack and position appears exactly once per task. Insertion follows BIPIA's own
 * `bipia/data/utils.py` (parts joined with a line break; the middle insertion goes before a
 * sentence start), except that the middle sentence is the one nearest the middle instead of a
 * random one, so the corpus is deterministic. Nothing is written here: samples are the
 * corpus's own texts, joined.
 *
 * Sample ids are `bipia/<task>/<attack category>/<attack index>/<position>`, so that a
 * calibration script can tune on some attacks and report on the others.
 */

interface Task {
  readonly name: "email" | "table" | "code";
  readonly attacks: "text_attack_train.json" | "code_attack_train.json";
}

const TASKS: readonly Task[] = [
  { name: "email", attacks: "text_attack_train.json" },
  { name: "table", attacks: "text_attack_train.json" },
  { name: "code", attacks: "code_attack_train.json" },
];

const POSITIONS = ["start", "middle", "end"] as const;

/** The context text of one JSONL row; code contexts are arrays of lines. */
function contextOf(row: unknown): string | undefined {
  if (typeof row !== "object" || row === null) return undefined;
  const context = (row as { context?: unknown }).context;
  if (typeof context === "string") return context;
  if (Array.isArray(context) && context.every((line) => typeof line === "string")) return context.join("\n");
  return undefined;
}

/** Start of the sentence (after a line break or `. `/`? `/`! `) nearest the middle of `text`. */
function middleSentenceStart(text: string): number {
  const mid = Math.floor(text.length / 2);
  let best = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text[i];
    const boundary = c === "\n" || ((c === "." || c === "?" || c === "!") && text[i + 1] === " ");
    if (!boundary) continue;
    const at = c === "\n" ? i + 1 : i + 2;
    if (Math.abs(at - mid) < Math.abs(best - mid)) best = at;
  }
  return best;
}

/** BIPIA's insert_start / insert_middle / insert_end: parts joined with a line break. */
function insert(context: string, attack: string, position: (typeof POSITIONS)[number]): string {
  if (position === "start") return [attack, context].join("\n");
  if (position === "end") return [context, attack].join("\n");
  const at = middleSentenceStart(context);
  return [context.slice(0, at), attack, context.slice(at)].join("\n");
}

async function loadTask(root: string, task: Task): Promise<LabelledSample[]> {
  const dir = join(root, "BIPIA", "benchmark");
  const lines = (await readFile(join(dir, task.name, "train.jsonl"), "utf8")).split("\n");
  const contexts = lines
    .filter((line) => line.trim().length > 0)
    .map((line) => contextOf(JSON.parse(line)))
    .filter((c): c is string => c !== undefined && c.trim().length > 0);
  const attacks = JSON.parse(await readFile(join(dir, task.attacks), "utf8")) as Record<string, string[]>;
  const samples: LabelledSample[] = contexts.map((text, i) => ({
    id: `bipia/${task.name}/clean/${i}`,
    text,
    channel: Channel.TOOL_RESULT,
    expected: [],
  }));
  let turn = 0;
  for (const [category, texts] of Object.entries(attacks)) {
    texts.forEach((attack, a) => {
      for (const position of POSITIONS) {
        const context = contexts[turn++ % contexts.length] ?? "";
        samples.push({
          id: `bipia/${task.name}/${category}/${a}/${position}`,
          text: insert(context, attack, position),
          channel: Channel.TOOL_RESULT,
          expected: ["security.prompt_injection"],
        });
      }
    });
  }
  return samples;
}

const corpus: Corpus = {
  name: "bipia",
  source:
    "https://github.com/microsoft/BIPIA @ 1a2a91da6bb12838e05d1b2e54d98e2f37b835f3 (benchmark/, train split)",
  async load(corporaRoot) {
    const samples: LabelledSample[] = [];
    for (const task of TASKS) samples.push(...(await loadTask(corporaRoot, task)));
    return samples;
  },
};

export default corpus;
