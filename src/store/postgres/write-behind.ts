/** Tuning for {@link WriteBehind}; every field has a default suited to a service under load. */
export interface WriteBehindOptions {
  /** Records held before `push` waits (back-pressure). */
  readonly maxQueued?: number;
  /** Records written per transaction. */
  readonly batchSize?: number;
  /** How long a partial batch waits for company before it is written. */
  readonly intervalMs?: number;
  /** First and longest wait between attempts while the database refuses writes. */
  readonly retryMinMs?: number;
  readonly retryMaxMs?: number;
}

/** Called with each failed attempt; the batch stays queued and is retried after `retryInMs`. */
export type WriteFailureListener = (error: unknown, batchSize: number, retryInMs: number) => void;

interface Waiter {
  readonly target: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
  /** `flush` hears of a failed attempt; `drain` (close) keeps waiting through retries. */
  readonly failFast: boolean;
}

/**
 * A bounded first-in first-out queue written in batches by one writer at a time, so records land
 * in the order they were accepted. A batch leaves the queue only after `write` succeeded: when the
 * database is unreachable the same batch is retried with capped exponential backoff, never dropped.
 */
export class WriteBehind<Op> {
  readonly #write: (batch: readonly Op[]) => Promise<void>;
  readonly #onFailure: WriteFailureListener;
  readonly #maxQueued: number;
  readonly #batchSize: number;
  readonly #intervalMs: number;
  readonly #retryMinMs: number;
  readonly #retryMaxMs: number;
  /** Queued records, the batch being written included (it is still unwritten). */
  #queue: Op[] = [];
  /** Records ever pushed and ever written: queue positions for flush targets. */
  #pushed = 0;
  #written = 0;
  #writeErrors = 0;
  #consecutiveFailures = 0;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #stopped = false;
  #waiters: Waiter[] = [];
  #spaceWaiters: (() => void)[] = [];

  constructor(
    write: (batch: readonly Op[]) => Promise<void>,
    onFailure: WriteFailureListener,
    options: WriteBehindOptions = {},
  ) {
    this.#write = write;
    this.#onFailure = onFailure;
    this.#maxQueued = options.maxQueued ?? 50_000;
    this.#batchSize = options.batchSize ?? 500;
    this.#intervalMs = options.intervalMs ?? 20;
    this.#retryMinMs = options.retryMinMs ?? 100;
    this.#retryMaxMs = options.retryMaxMs ?? 5_000;
  }

  get queued(): readonly Op[] {
    return this.#queue;
  }

  get writeErrors(): number {
    return this.#writeErrors;
  }

  /** Queues one record; waits only while the queue is full. */
  async push(op: Op): Promise<void> {
    // A full queue always has a write running or armed (the push that filled it armed one), so
    // waiting here never asks for an early retry that would defeat the backoff.
    while (this.#queue.length >= this.#maxQueued) {
      await new Promise<void>((resolve) => this.#spaceWaiters.push(resolve));
    }
    this.#queue.push(op);
    this.#pushed++;
    this.#schedule(this.#queue.length >= this.#batchSize ? 0 : this.#intervalMs);
  }

  /**
   * Writes everything queued before the call. Rejects with the database's error if an attempt
   * fails meanwhile; the records stay queued and are retried in the background.
   */
  flush(): Promise<void> {
    return this.#waitFor(true);
  }

  /** Waits, through any number of failed attempts, until everything queued before the call is written. */
  drain(): Promise<void> {
    return this.#waitFor(false);
  }

  /** Stops the background timer (after `drain`, or when giving up on a database that stays away). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #waitFor(failFast: boolean): Promise<void> {
    const target = this.#pushed;
    if (this.#written >= target) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.#waiters.push({ target, resolve, reject, failFast });
      this.#schedule(0);
    });
  }

  /** Arms the writer to start after `delayMs`, or sooner if asked to (a full batch, a flush). */
  #schedule(delayMs: number): void {
    if (this.#running || this.#stopped) return;
    if (this.#timer !== undefined) {
      if (delayMs > 0) return;
      clearTimeout(this.#timer);
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#run();
    }, delayMs);
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue.slice(0, this.#batchSize);
        try {
          await this.#write(batch);
        } catch (error) {
          this.#writeErrors++;
          this.#consecutiveFailures++;
          const retryInMs = this.#backoff();
          this.#onFailure(error, batch.length, retryInMs);
          this.#settle(
            (w) => w.failFast,
            (w) => w.reject(error),
          );
          this.#running = false;
          this.#schedule(retryInMs);
          return;
        }
        this.#consecutiveFailures = 0;
        // Only this loop removes from the head; pushes meanwhile went to the tail.
        this.#queue.splice(0, batch.length);
        this.#written += batch.length;
        this.#settle(
          (w) => w.target <= this.#written,
          (w) => w.resolve(),
        );
        for (const wake of this.#spaceWaiters.splice(0)) wake();
      }
    } finally {
      this.#running = false;
    }
  }

  #backoff(): number {
    const exponential = this.#retryMinMs * 2 ** Math.min(this.#consecutiveFailures - 1, 20);
    // Jitter spreads the retries of many replicas that lost the database at the same moment.
    return Math.round(Math.min(this.#retryMaxMs, exponential) * (0.5 + Math.random() / 2));
  }

  #settle(matches: (w: Waiter) => boolean, settle: (w: Waiter) => void): void {
    const remaining: Waiter[] = [];
    for (const waiter of this.#waiters) {
      if (matches(waiter)) settle(waiter);
      else remaining.push(waiter);
    }
    this.#waiters = remaining;
  }
}
