import type { LabelledSample } from "./corpus.js";

/**
 * Scoring, per corpus, per system and per expected category. A positive sample is a true
 * positive for each expected id that some reported category starts with, a false negative
 * otherwise; a benign sample (no expected ids) that draws findings is a false positive for
 * each category it drew (a category counts toward the corpus's expected id it falls under, or
 * as itself). Findings on positive samples outside their expected ids are not scored.
 *
 * `inScope` limits a system to the expected ids it covers: a positive sample none of whose
 * expected ids is in scope is left out, and only in-scope ids of the others are scored. Guard
 * is in scope everywhere; a peer only on the categories its checks claim.
 */

export interface Counts {
  tp: number;
  fn: number;
  fp: number;
}

/** What one system reported on one sample. */
export interface SampleOutcome {
  readonly sample: LabelledSample;
  readonly categories: readonly string[];
  /** Checks that threw on this sample; the sample is scored on what the others reported. */
  readonly errors: number;
}

export interface CorpusScore {
  readonly positives: number;
  readonly negatives: number;
  readonly byCategory: Map<string, Counts>;
  readonly negativesWithFindings: number;
  /** Samples on which at least one check threw. */
  readonly erroredSamples: number;
  readonly misses: string[];
  readonly falseAlarms: string[];
}

function counts(map: Map<string, Counts>, category: string): Counts {
  let c = map.get(category);
  if (!c) {
    c = { tp: 0, fn: 0, fp: 0 };
    map.set(category, c);
  }
  return c;
}

export function scoreCorpus(
  outcomes: readonly SampleOutcome[],
  inScope: (expectedId: string) => boolean = () => true,
): CorpusScore {
  const byCategory = new Map<string, Counts>();
  const corpusIds = [...new Set(outcomes.flatMap((o) => o.sample.expected))];
  let positives = 0;
  let negatives = 0;
  let negativesWithFindings = 0;
  let erroredSamples = 0;
  const misses: string[] = [];
  const falseAlarms: string[] = [];
  for (const { sample, categories, errors } of outcomes) {
    const scored = sample.expected.filter(inScope);
    if (sample.expected.length > 0 && scored.length === 0) continue;
    if (errors > 0) erroredSamples++;
    if (scored.length > 0) {
      positives++;
      for (const id of scored) {
        const c = counts(byCategory, id);
        if (categories.some((category) => category.startsWith(id))) c.tp++;
        else {
          c.fn++;
          misses.push(`${sample.id} (${id})`);
        }
      }
      continue;
    }
    negatives++;
    if (categories.length === 0) continue;
    negativesWithFindings++;
    const drawn = new Set(categories.map((c) => corpusIds.find((id) => c.startsWith(id)) ?? c));
    for (const category of drawn) counts(byCategory, category).fp++;
    falseAlarms.push(`${sample.id}: ${[...new Set(categories)].join(", ")}`);
  }
  for (const id of corpusIds) if (inScope(id)) counts(byCategory, id);
  return { positives, negatives, byCategory, negativesWithFindings, erroredSamples, misses, falseAlarms };
}

/** Sum of counts over every category: the "all" row, a benign sample counted once however many categories it drew. */
export function totalCounts(score: CorpusScore): Counts {
  let tp = 0;
  let fn = 0;
  for (const c of score.byCategory.values()) {
    tp += c.tp;
    fn += c.fn;
  }
  return { tp, fn, fp: score.negativesWithFindings };
}

/** Adds counts; for pooling one category over several corpora. */
export function addCounts(a: Counts, b: Counts): Counts {
  return { tp: a.tp + b.tp, fn: a.fn + b.fn, fp: a.fp + b.fp };
}

export function precision(c: Counts): number | undefined {
  return c.tp + c.fp === 0 ? undefined : c.tp / (c.tp + c.fp);
}

export function recall(c: Counts): number | undefined {
  return c.tp + c.fn === 0 ? undefined : c.tp / (c.tp + c.fn);
}

/** F1; undefined when the category has no positives (nothing to recall). */
export function f1(c: Counts): number | undefined {
  if (c.tp + c.fn === 0) return undefined;
  if (c.tp === 0) return 0;
  const p = c.tp / (c.tp + c.fp);
  const r = c.tp / (c.tp + c.fn);
  return (2 * p * r) / (p + r);
}
