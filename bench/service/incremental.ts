import { sessionEvents } from "../corpus/corpus.js";
import { Random } from "../corpus/random.js";
import { buildSession } from "../corpus/session.js";
import { median } from "./stats.js";
import type { TimedPipeline } from "./timed-pipeline.js";

export interface IncrementalResult {
  readonly protocol: string;
  /** Median detection milliseconds of the requests of steps 8 to 12 and 196 to 200. */
  readonly detectEarly: number;
  readonly detectLate: number;
  readonly ratio: number;
  readonly totalEarly: number;
  readonly totalLate: number;
  readonly bytesEarly: number;
  readonly bytesLate: number;
  readonly seconds: number;
}

const EARLY = [8, 9, 10, 11, 12];
const LATE = [196, 197, 198, 199, 200];

/**
 * Issue 6's check: detection of step 200 of a 200-step conversation against step 10. The whole
 * session is fed in order (requests and responses, one agent), so a memo of earlier steps would
 * be warm exactly as in production; five steps around each point are taken, as medians, to damp
 * noise. Tool results are 0.5 to 2 KB here, so step 200 needs no context clearing and the whole
 * check stays within seconds: the growth measured is the conversation's, nothing else.
 */
export async function measureIncremental(pipeline: TimedPipeline, seed: number): Promise<IncrementalResult> {
  const started = performance.now();
  const session = buildSession(new Random(seed).fork(9000), 9000, "vendor_a.chat", {
    steps: 200,
    resultBytes: { min: 512, max: 2048 },
  });
  const detect = new Map<number, number>();
  const total = new Map<number, number>();
  const bytes = new Map<number, number>();
  for (const e of sessionEvents(session, Number.POSITIVE_INFINITY, { tag: "-incr" })) {
    const times = await pipeline.evaluate(Buffer.from(e.body));
    if (e.kind !== "step/request") continue;
    detect.set(e.step, times.stages.detect);
    total.set(e.step, times.total);
    bytes.set(e.step, Buffer.byteLength(e.body));
  }
  const at = (m: Map<number, number>, steps: number[]) => median(steps.map((s) => m.get(s) ?? Number.NaN));
  const detectEarly = at(detect, EARLY);
  const detectLate = at(detect, LATE);
  return {
    protocol: session.protocol,
    detectEarly,
    detectLate,
    ratio: detectLate / detectEarly,
    totalEarly: at(total, EARLY),
    totalLate: at(total, LATE),
    bytesEarly: bytes.get(10) ?? 0,
    bytesLate: bytes.get(200) ?? 0,
    seconds: (performance.now() - started) / 1000,
  };
}
