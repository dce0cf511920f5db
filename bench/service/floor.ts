import type { BucketSample } from "./buckets.js";
import { type Bounds, bounded } from "./loop.js";
import { type Summary, summarize } from "./stats.js";

/** Keeps results observable so the engine cannot drop the work as dead code. */
let sink = 0;

/**
 * The reference floor of issue 9: `JSON.parse` of the body text plus `JSON.stringify` of what it
 * parsed to, the least any service that reads and re-emits the same JSON must spend.
 */
export async function measureFloor(samples: readonly BucketSample[], bounds: Bounds): Promise<Map<string, Summary>> {
  const out = new Map<string, Summary>();
  for (const sample of samples) {
    if (sample.bodies.length === 0) continue;
    const times = await bounded(bounds, (i) => {
      const body = sample.bodies[i % sample.bodies.length] ?? "";
      const started = performance.now();
      sink += JSON.stringify(JSON.parse(body)).length;
      return performance.now() - started;
    });
    out.set(sample.bucket.name, summarize(times));
  }
  if (sink < 0) throw new Error("unreachable");
  return out;
}
