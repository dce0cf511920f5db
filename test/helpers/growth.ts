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
 * A full collection, when the worker exposes one (vitest.config.ts passes --expose-gc). CPU time
 * counts the collector's threads too: without it, a timed run of an input that leaves many
 * small objects pays for old-generation work the worker's earlier tests left behind, on
 * whichever side happens to trigger it. Only tests that ask for it collect: a full collection
 * costs milliseconds, and the pattern tests make tens of thousands of timed runs.
 */
const collectGarbage = (globalThis as { gc?: () => void }).gc;

function bestOf(runs: number, fn: () => void, collect: boolean): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    if (collect) collectGarbage?.();
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
  /** Collect garbage before each timed run (see collectGarbage); for inputs of many tiny objects. */
  readonly collect?: boolean;
}

/** The smallest large/small run-time ratio seen over the attempts (after a warm-up call of each side). */
export function growthRatio(
  fn: (input: string) => unknown,
  small: string,
  large: string,
  options: GrowthOptions,
): number {
  // Both sides once untimed: the first large call would otherwise pay for the code's
  // optimisation (JIT tiers, inline caches) that the small side already had.
  fn(small);
  fn(large);
  let ratio = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < (options.attempts ?? 4) && ratio >= options.bar; attempt++) {
    const collect = options.collect ?? false;
    const tSmall = bestOf(options.runs ?? 3, () => fn(small), collect);
    const tLarge = bestOf(options.runs ?? 3, () => fn(large), collect);
    ratio = Math.min(ratio, tLarge / Math.max(tSmall, options.floorMs ?? 0.05));
  }
  return ratio;
}
