import { extractFeatures, FEATURE_BITS, FEATURE_COUNT, linearScore, sigmoid } from "./features.js";
import model from "./model.json" with { type: "json" };
import { normalise } from "./normalise.js";

/**
 * The trained injection classifier: logistic regression over the hashed word features of
 * features.ts, with weights from model.json, which scripts/train-injection.ts writes from the
 * public corpora (no weights come from anywhere else). It answers one question, "does this text
 * read like the injections and jailbreaks of those corpora", as a probability; index.ts decides
 * when that may move a score.
 */

export interface InjectionModel {
  readonly featureBits: number;
  readonly bias: number;
  readonly weights: Float64Array;
}

/** Checks the committed model's shape once, at load: a stale or truncated file must fail loudly. */
function load(raw: { featureBits: number; bias: number; weights: number[] }): InjectionModel {
  if (raw.featureBits !== FEATURE_BITS || raw.weights.length !== FEATURE_COUNT) {
    throw new Error(
      `injection model.json has ${raw.weights.length} weights for ${raw.featureBits} bits; features.ts wants ${FEATURE_COUNT}: rerun scripts/train-injection.ts`,
    );
  }
  return { featureBits: raw.featureBits, bias: raw.bias, weights: Float64Array.from(raw.weights) };
}

export const INJECTION_MODEL: InjectionModel = load(model);

/** Probability (0..1) that `text` is an injection or jailbreak, by the trained model alone. */
export function classifierProbability(text: string, m: InjectionModel = INJECTION_MODEL): number {
  return sigmoid(linearScore(extractFeatures(normalise(text).text), m.weights, m.bias));
}
