import type { App } from "../../src/app.js";
import { injectEvaluate } from "./bench-app.js";
import { ReplayBody } from "./new-step.js";
import { forDuration } from "./loop.js";

export interface ThroughputResult {
  readonly label: string;
  readonly evaluations: number;
  readonly seconds: number;
  readonly perSecond: number;
  readonly meanBytes: number;
  readonly failures: number;
}

/**
 * Evaluations per second on one core: one evaluate after another through the injector, the
 * next starting when the previous answered, so the event loop never idles and never queues.
 * `bodies` are cycled, each time as a new step, handed over as bytes (ReplayBody).
 */
export async function measureThroughput(
  app: App,
  label: string,
  bodies: readonly string[],
  maxMs: number,
  seq: { next: number },
): Promise<ThroughputResult> {
  let failures = 0;
  let bytes = 0;
  const replays = bodies.map((body) => new ReplayBody(body));
  const run = await forDuration(maxMs, 1_000_000, async (i) => {
    const replay = replays[i % replays.length] ?? new ReplayBody("");
    bytes += replay.byteLength;
    if ((await injectEvaluate(app, replay.asNewStep(seq.next++))) !== 200) failures++;
  });
  return {
    label,
    evaluations: run.count,
    seconds: run.seconds,
    perSecond: run.count / run.seconds,
    meanBytes: bytes / Math.max(1, run.count),
    failures,
  };
}
