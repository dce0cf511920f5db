import { extractFeatures, FEATURE_BITS, FEATURE_COUNT, linearScore, sigmoid } from "./features.js";
import jailbreakModel from "./jailbreak-model.json" with { type: "json" };
import model from "./model.json" with { type: "json" };
import { normaliseForFeatures } from "./normalise.js";

/**
 * The trained classifiers: logistic regressions over the hashed word features of features.ts,
 * with weights that scripts/train-injection.ts writes from the public corpora (no weights come
 * from anywhere else). Each answers one question as a probability; index.ts decides when that
 * may move a score.
 *
 * - The injection model (model.json): "does this text read like the injections and jailbreaks
 *   of those corpora", trained on attacks in data and in user text against clean documents.
 * - The jailbreak model (jailbreak-model.json): "does this user text read like a jailbreak",
 *   trained on jailbreak prompts against benign text of every corpus, legitimate role and rules
 *   set-ups (system prompts), ordinary questions and the project's honest role and persona
 *   prompts, so that it learns what a jailbreak adds to a persona, not the persona itself. It is
 *   only read for user text that talks of lifting limits (index.ts).
 */

export interface InjectionModel {
  readonly featureBits: number;
  readonly bias: number;
  readonly weights: Float64Array;
}

/** Checks a committed model's shape once, at load: a stale or truncated file must fail loudly. */
function load(file: string, raw: { featureBits: number; bias: number; weights: number[] }): InjectionModel {
  if (raw.featureBits !== FEATURE_BITS || raw.weights.length !== FEATURE_COUNT) {
    throw new Error(
      `injection ${file} has ${raw.weights.length} weights for ${raw.featureBits} bits; features.ts wants ${FEATURE_COUNT}: rerun scripts/train-injection.ts`,
    );
  }
  return { featureBits: raw.featureBits, bias: raw.bias, weights: Float64Array.from(raw.weights) };
}

export const INJECTION_MODEL: InjectionModel = load("model.json", model);
export const JAILBREAK_MODEL: InjectionModel = load("jailbreak-model.json", jailbreakModel);

/** Features of `text` as every model reads them. */
export function featuresOf(text: string): Uint16Array {
  return extractFeatures(normaliseForFeatures(text));
}

/** Probability (0..1) that `features` belong to the model's positive class. */
export function modelProbability(features: Uint16Array, m: InjectionModel): number {
  return sigmoid(linearScore(features, m.weights, m.bias));
}

/** Probability (0..1) that `text` is an injection or jailbreak, by the trained model alone. */
export function classifierProbability(text: string, m: InjectionModel = INJECTION_MODEL): number {
  return modelProbability(featuresOf(text), m);
}

/**
 * Probability (0..1) that user text `text` is a jailbreak, by the trained jailbreak model alone;
 * `normalised`, when given, must be `normaliseForFeatures(text)` (saves building it again).
 */
export function jailbreakProbability(
  text: string,
  normalised?: string,
  m: InjectionModel = JAILBREAK_MODEL,
): number {
  return modelProbability(extractFeatures(normalised ?? normaliseForFeatures(text)), m);
}
