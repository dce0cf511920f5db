/** How long a measurement may run: it stops at whichever bound it reaches first. */
export interface Bounds {
  readonly warmup: number;
  readonly maxCount: number;
  readonly maxMs: number;
}

/**
 * Runs `step(i)` `warmup` times untimed (JIT, caches), then until `maxCount` samples or `maxMs`
 * have passed, collecting what each call answers. Every benchmark loop goes through here, so
 * none can run unbounded on a slow or loaded machine.
 */
export async function bounded<T>(bounds: Bounds, step: (i: number) => Promise<T> | T): Promise<T[]> {
  for (let i = 0; i < bounds.warmup; i++) await step(i);
  const out: T[] = [];
  const deadline = performance.now() + bounds.maxMs;
  for (let i = 0; i < bounds.maxCount && performance.now() < deadline; i++) out.push(await step(bounds.warmup + i));
  return out;
}

/** Runs `step(i)` until `maxMs` passes or `maxCount` calls are done; answers calls and seconds. */
export async function forDuration(
  maxMs: number,
  maxCount: number,
  step: (i: number) => Promise<unknown>,
): Promise<{ count: number; seconds: number }> {
  const started = performance.now();
  let count = 0;
  while (count < maxCount && performance.now() - started < maxMs) await step(count++);
  return { count, seconds: (performance.now() - started) / 1000 };
}
