import { appendFileSync } from "node:fs";
import { appendFile } from "node:fs/promises";

/**
 * An append-only JSON-lines file with a write-behind queue: `append` queues a line and
 * returns at once; a flush writes every queued line in one system call. When more than
 * `maxQueuedBytes` wait, `append` waits for the next flush (back-pressure) instead of
 * growing without bound or dropping a line.
 */
export class Journal {
  readonly path: string;
  readonly #maxQueuedBytes: number;
  #queue: string[] = [];
  #queuedBytes = 0;
  #flushing: Promise<void> | undefined;
  #scheduled = false;
  written = 0;
  writeErrors = 0;

  constructor(path: string, maxQueuedBytes = 64 * 1024 * 1024) {
    this.path = path;
    this.#maxQueuedBytes = maxQueuedBytes;
  }

  get queued(): number {
    return this.#queue.length;
  }

  /** Queues one line (the text must not contain a newline: JSON.stringify output never does). */
  async append(line: string): Promise<void> {
    if (this.#queuedBytes > this.#maxQueuedBytes) await this.flush();
    this.#queue.push(line);
    this.#queuedBytes += line.length + 1;
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        void this.flush();
      });
    }
  }

  /** Writes everything queued so far; resolves when it is on disk (or has failed and been re-queued). */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#queue.length === 0) return;
    const batch = this.#queue;
    this.#queue = [];
    this.#queuedBytes = 0;
    this.#flushing = appendFile(this.path, `${batch.join("\n")}\n`, { encoding: "utf8", mode: 0o600 })
      .then(() => {
        this.written += batch.length;
      })
      .catch(() => {
        // Keep the lines: an accepted record is never dropped. They go out with the next flush.
        this.writeErrors++;
        this.#queue = batch.concat(this.#queue);
        this.#queuedBytes += batch.reduce((n, l) => n + l.length + 1, 0);
      })
      .finally(() => {
        this.#flushing = undefined;
      });
    await this.#flushing;
  }

  /** Last resort at process exit: writes synchronously whatever is still queued. */
  flushSync(): void {
    if (this.#queue.length === 0) return;
    appendFileSync(this.path, `${this.#queue.join("\n")}\n`, { encoding: "utf8", mode: 0o600 });
    this.written += this.#queue.length;
    this.#queue = [];
    this.#queuedBytes = 0;
  }
}
