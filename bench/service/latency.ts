import type { App } from "../../src/app.js";
import { injectEvaluate } from "./bench-app.js";
import { asNewStep } from "./new-step.js";
import type { BucketSample } from "./buckets.js";
import { type Bounds, bounded } from "./loop.js";
import { type Summary, summarize } from "./stats.js";

export interface LatencyRow {
  readonly bucket: string;
  readonly meanBytes: number;
  readonly bodies: number;
  readonly latency: Summary;
  /** Answers other than 200 (each is a benchmark bug: the corpus is valid). */
  readonly failures: number;
}

/**
 * Service-side latency by bucket: one POST /v1/evaluate at a time through Fastify's injector,
 * so the figure holds routing, auth, rate limiting, body reading, parse, schema validation,
 * the pipeline and serialisation, but no socket. Each sample is a new step (fresh step id).
 * The warm-up evaluates every body of the bucket once, so the timed samples all find their
 * texts in the detection memo: they price a re-sent history, the same state for every bucket.
 */
export async function measureLatency(
  app: App,
  samples: readonly BucketSample[],
  boundsFor: (bucket: string) => Bounds,
  seq: { next: number },
): Promise<LatencyRow[]> {
  const rows: LatencyRow[] = [];
  for (const sample of samples) {
    if (sample.bodies.length === 0) continue;
    let failures = 0;
    // Warm-up covers every body once, so the detection memo holds all of them (module doc).
    const bounds = boundsFor(sample.bucket.name);
    const times = await bounded({ ...bounds, warmup: Math.max(bounds.warmup, sample.bodies.length) }, async (i) => {
      const body = asNewStep(sample.bodies[i % sample.bodies.length] ?? "", seq.next++);
      const started = performance.now();
      const status = await injectEvaluate(app, body);
      const elapsed = performance.now() - started;
      if (status !== 200) failures++;
      return elapsed;
    });
    rows.push({
      bucket: sample.bucket.name,
      meanBytes: sample.meanBytes,
      bodies: sample.bodies.length,
      latency: summarize(times),
      failures,
    });
  }
  return rows;
}
