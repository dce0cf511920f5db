import { asNewStep } from "./new-step.js";
import type { BucketSample } from "./buckets.js";
import { type Bounds, bounded } from "./loop.js";
import { median, type Summary, summarize } from "./stats.js";
import { STAGES, type Stage, type TimedPipeline } from "./timed-pipeline.js";

export interface SplitRow {
  readonly bucket: string;
  readonly total: Summary;
  /** Mean milliseconds per stage (means add up to the mean total; medians would not). */
  readonly stages: Record<Stage, number>;
  readonly stageMedians: Record<Stage, number>;
  /** Mean milliseconds of each detector's own work. */
  readonly detectors: Record<string, number>;
}

function mean(values: readonly number[]): number {
  return values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);
}

/**
 * The cost split by bucket, from the instrumented pipeline (method in timed-pipeline.ts). The
 * warm-up evaluates every body once, so with the memo on all timed samples are memo hits.
 */
export async function measureSplit(
  pipeline: TimedPipeline,
  samples: readonly BucketSample[],
  boundsFor: (bucket: string) => Bounds,
  seq: { next: number },
): Promise<SplitRow[]> {
  const rows: SplitRow[] = [];
  for (const sample of samples) {
    if (sample.bodies.length === 0) continue;
    const bounds = boundsFor(sample.bucket.name);
    const runs = await bounded({ ...bounds, warmup: Math.max(bounds.warmup, sample.bodies.length) }, (i) =>
      pipeline.evaluate(Buffer.from(asNewStep(sample.bodies[i % sample.bodies.length] ?? "", seq.next++))),
    );
    const stages = {} as Record<Stage, number>;
    const stageMedians = {} as Record<Stage, number>;
    for (const stage of STAGES) {
      stages[stage] = mean(runs.map((r) => r.stages[stage]));
      stageMedians[stage] = median(runs.map((r) => r.stages[stage]));
    }
    const names = [...new Set(runs.flatMap((r) => Object.keys(r.detectors)))];
    const detectors = Object.fromEntries(names.map((n) => [n, mean(runs.map((r) => r.detectors[n] ?? 0))]));
    rows.push({ bucket: sample.bucket.name, total: summarize(runs.map((r) => r.total)), stages, stageMedians, detectors });
  }
  return rows;
}
