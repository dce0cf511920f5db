import { sessionEvents } from "../corpus/corpus.js";
import { Random } from "../corpus/random.js";
import { buildSession, type Protocol } from "../corpus/session.js";
import { injectEvaluate, startBenchApp } from "./bench-app.js";
import { collector, settledHeap } from "./gc.js";

export interface MemoryResult {
  readonly sessions: number;
  readonly events: number;
  /** heapUsed after minus before, both after full collections, in bytes. */
  readonly heapDelta: number;
  readonly perSessionBytes: number;
  readonly gcExposed: boolean;
  readonly failures: number;
}

const PROTOCOLS: readonly Protocol[] = ["vendor_a.chat", "vendor_b.messages", "canonical"];

/**
 * Memory per 1k sessions: a fresh service is fed `sessions` short sessions (two steps, request
 * and response each, one agent per session, 1 to 4 KB tool results); the retained heap growth
 * is what the service keeps per live session (session state, agent placements, placeholder
 * caches, store bookkeeping). Journals are flushed before the second reading so queued
 * records do not count.
 */
export async function measureMemory(seed: number, sessions: number, maxMs: number): Promise<MemoryResult> {
  const { gc, exposed } = collector();
  const bench = await startBenchApp();
  try {
    const root = new Random(seed).fork(7000);
    const models = Array.from({ length: sessions }, (_, i) =>
      buildSession(root.fork(i), 10_000 + i, PROTOCOLS[i % 3] ?? "canonical", {
        steps: 2,
        resultBytes: { min: 1024, max: 4096 },
      }),
    );
    // Warm the code paths on a few sessions outside the measurement.
    for (const s of models.slice(0, 5)) for (const e of sessionEvents(s, Infinity, { tag: "-warm" })) await injectEvaluate(bench.app, e.body);
    await bench.app.store.flush();
    const before = settledHeap(gc);
    let events = 0;
    let failures = 0;
    let fed = 0;
    const deadline = performance.now() + maxMs;
    for (const s of models) {
      if (performance.now() > deadline) break;
      for (const e of sessionEvents(s, Infinity)) {
        if ((await injectEvaluate(bench.app, e.body)) !== 200) failures++;
        events++;
      }
      fed++;
    }
    await bench.app.store.flush();
    const after = settledHeap(gc);
    const heapDelta = after - before;
    return { sessions: fed, events, heapDelta, perSessionBytes: heapDelta / Math.max(1, fed), gcExposed: exposed, failures };
  } finally {
    await bench.stop();
  }
}
