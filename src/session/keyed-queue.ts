/**
 * Work queued per key within this process: a run starts once every earlier run of the same key
 * has finished. Keys nobody waits on are dropped, so idle agents cost no memory. The session
 * states use it to serialise an agent's events (the Redis state then also takes its lock).
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<void>>();

  /**
   * Runs `work` after the key's earlier runs. `wait` is how the turn is awaited: as it is, or
   * bounded by a deadline (a rejection ends this run without `work`, and frees the turn).
   */
  async run<T>(
    key: string,
    work: () => Promise<T>,
    wait: (previous: Promise<void>) => Promise<void> = (previous) => previous,
  ): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => done);
    this.#tails.set(key, tail);
    try {
      await wait(previous);
      return await work();
    } finally {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
