import { sessionEvents } from "../corpus/corpus.js";
import { Random } from "../corpus/random.js";
import { buildSession } from "../corpus/session.js";
import { median } from "./stats.js";
import type { TimedPipeline } from "./timed-pipeline.js";

export interface IncrementalResult {
  readonly protocol: string;
  /** Sessions fed (each its own seed); the medians pool their steps. */
  readonly sessions: number;
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

/** Sessions measured: each point pools their steps, so one unlucky step (a collection, a neighbour's burst) moves the median less. */
const SESSIONS = 3;

/**
 * Issue 6's check: detection of step 200 of a 200-step conversation against step 10. Each
 * session is fed whole and in order (requests and responses, one agent), so a memo of earlier
 * steps is warm exactly as in production; five steps around each point are taken from each of
 * SESSIONS sessions (their own seeds and agents), as medians, to damp noise. Tool results are
 * 0.5 to 2 KB here, so step 200 needs no context clearing and the whole check stays within
 * seconds: the growth measured is the conversation's, nothing else.
 */
export async function measureIncremental(pipeline: TimedPipeline, seed: number, sessions = SESSIONS): Promise<IncrementalResult> {
  const started = performance.now();
  const detect: { early: number[]; late: number[] } = { early: [], late: [] };
  const total: { early: number[]; late: number[] } = { early: [], late: [] };
  let bytesEarly = 0;
  let bytesLate = 0;
  let protocol = "";
  for (let n = 0; n < sessions; n++) {
    const session = buildSession(new Random(seed + n).fork(9000 + n), 9000 + n, "vendor_a.chat", {
      steps: 200,
      resultBytes: { min: 512, max: 2048 },
    });
    protocol = session.protocol;
    for (const e of sessionEvents(session, Number.POSITIVE_INFINITY, { tag: `-incr${n}` })) {
      const times = await pipeline.evaluate(Buffer.from(e.body));
      if (e.kind !== "step/request") continue;
      const point = EARLY.includes(e.step) ? "early" : LATE.includes(e.step) ? "late" : undefined;
      if (!point) continue;
      detect[point].push(times.stages.detect);
      total[point].push(times.total);
      if (n === 0 && e.step === 10) bytesEarly = Buffer.byteLength(e.body);
      if (n === 0 && e.step === 200) bytesLate = Buffer.byteLength(e.body);
    }
  }
  const detectEarly = median(detect.early);
  const detectLate = median(detect.late);
  return {
    protocol,
    sessions,
    detectEarly,
    detectLate,
    ratio: detectLate / detectEarly,
    totalEarly: median(total.early),
    totalLate: median(total.late),
    bytesEarly,
    bytesLate,
    seconds: (performance.now() - started) / 1000,
  };
}
