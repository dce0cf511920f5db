import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * A full garbage collection, for heap deltas that measure what is retained rather than what is
 * merely not yet collected. Uses `--expose-gc` when the process was started with it; otherwise
 * enables the flag at run time (V8 honours it for contexts created afterwards), so `tsx
 * bench/run.ts` works as well as `node --expose-gc --import tsx bench/run.ts`.
 */
export function collector(): { gc: () => void; exposed: boolean } {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === "function") return { gc: existing, exposed: true };
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  return { gc, exposed: false };
}

/** Collects until the heap stops shrinking (finalizers and weak maps can free in later passes). */
export function settledHeap(gc: () => void): number {
  let last = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    gc();
    const used = process.memoryUsage().heapUsed;
    if (used >= last * 0.995) return used;
    last = used;
  }
  return last;
}
