/**
 * How a function's run time grows from a small input to a large one: the tool of the
 * "linear on hostile input" tests. Never an absolute time (these machines are shared):
 * a ratio within one run, of CPU time rather than wall time, so that a neighbour's load does
 * not count. Each side is the best of several runs, and a ratio over the
 * bar is measured again a few times before it counts, since other processes' noise does
 * not repeat while a super-linear algorithm fails every attempt.
 */

/** CPU time of this process in ms: time spent preempted by other processes is not the code's. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * A full collection when the worker exposes one (vitest.config.ts passes --expose-gc). CPU time
 * counts the collector's threads too: without it, a timed run pays for old-generation work the
 * worker's earlier tests left behind, and that lands on whichever side happens to trigger it.
 */
const collect = (globalThis as { gc?: () => void }).gc;

function bestOf(runs: number, fn: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    collect?.();
    const started = cpuMs();
    fn();
    best = Math.min(best, cpuMs() - started);
  }
  return best;
}

export interface GrowthOptions {
  /** Ratio under which no further attempt is made. */
  readonly bar: number;
  /** Runs per side of one attempt (default 3). */
  readonly runs?: number;
  /** Attempts before the smallest ratio seen is returned (default 4). */
  readonly attempts?: number;
  /** Shortest time the small side counts as, so a sub-timer-resolution run cannot inflate the ratio. */
  readonly floorMs?: number;
}

/** The smallest large/small run-time ratio seen over the attempts (after a warm-up call of each side). */
export function growthRatio(fn: (input: string) => unknown, small: string, large: string, options: GrowthOptions): number {
  // Both sides once untimed: the first large call would otherwise pay for the code's
  // optimisation (JIT tiers, inline caches) that the small side already had.
  fn(small);
  fn(large);
  let ratio = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < (options.attempts ?? 4) && ratio >= options.bar; attempt++) {
    const tSmall = bestOf(options.runs ?? 3, () => fn(small));
    const tLarge = bestOf(options.runs ?? 3, () => fn(large));
    ratio = Math.min(ratio, tLarge / Math.max(tSmall, options.floorMs ?? 0.05));
  }
  return ratio;
}
