import { appendFileSync } from "node:fs";
import { open } from "node:fs/promises";

/** One queued line: text, or bytes already encoded (a raw body is never decoded to be written). */
export type JournalLine = string | Buffer | readonly (string | Buffer)[];

/** The buffers of queued pieces: runs of text are joined and encoded once, bytes are kept as they are. */
function encode(pieces: readonly (string | Buffer)[]): Buffer[] {
  const buffers: Buffer[] = [];
  let text: string[] = [];
  for (const piece of pieces) {
    if (typeof piece === "string") {
      text.push(piece);
      continue;
    }
    if (text.length > 0) {
      buffers.push(Buffer.from(text.join(""), "utf8"));
      text = [];
    }
    buffers.push(piece);
  }
  if (text.length > 0) buffers.push(Buffer.from(text.join(""), "utf8"));
  return buffers;
}

/** At most this many buffers per writev call (POSIX guarantees IOV_MAX >= 16; Linux has 1024). */
const WRITEV_MAX = 1024;

/**
 * Appends the buffers to the file, in order, with gathered writes: the bytes go from the
 * queued buffers to the kernel without first being copied into one.
 */
async function appendAll(path: string, buffers: Buffer[]): Promise<void> {
  const file = await open(path, "a", 0o600);
  try {
    let pending = buffers;
    while (pending.length > 0) {
      const batch = pending.slice(0, WRITEV_MAX);
      const wanted = batch.reduce((n, b) => n + b.length, 0);
      let { bytesWritten } = await file.writev(batch);
      if (bytesWritten === wanted) {
        pending = pending.slice(batch.length);
        continue;
      }
      // A short write: skip what went out and write the rest.
      const rest: Buffer[] = [];
      for (const b of pending) {
        if (bytesWritten >= b.length) bytesWritten -= b.length;
        else {
          rest.push(bytesWritten > 0 ? b.subarray(bytesWritten) : b);
          bytesWritten = 0;
        }
      }
      pending = rest;
    }
  } finally {
    await file.close();
  }
}

/**
 * An append-only JSON-lines file with a write-behind queue: `append` queues a line and
 * returns at once; a flush writes every queued line with gathered writes (one `writev` per
 * 1024 pieces). When more than
 * `maxQueuedBytes` wait, `append` waits for the next flush (back-pressure) instead of
 * growing without bound or dropping a line.
 *
 * Lines are queued as given and encoded once, at the flush: a raw body arrives as a Buffer
 * and goes to disk without being decoded to a string, re-encoded or copied, and the queue then
 * holds its bytes off the JavaScript heap, so large bodies waiting to be written cost the
 * garbage collector nothing.
 */
export class Journal {
  readonly path: string;
  readonly #maxQueuedBytes: number;
  #queue: (string | Buffer)[] = [];
  #lines = 0;
  #queuedBytes = 0;
  #flushing: Promise<void> | undefined;
  #scheduled = false;
  written = 0;
  writeErrors = 0;

  constructor(path: string, maxQueuedBytes = 64 * 1024 * 1024) {
    this.path = path;
    this.#maxQueuedBytes = maxQueuedBytes;
  }

  /** Lines waiting to be written. */
  get queued(): number {
    return this.#lines;
  }

  /**
   * Queues one line: a string, bytes, or pieces of either joined without separator. The
   * line must not contain a newline (JSON.stringify output never does).
   */
  async append(line: JournalLine): Promise<void> {
    if (this.#queuedBytes > this.#maxQueuedBytes) await this.flush();
    if (typeof line === "string" || Buffer.isBuffer(line)) this.#push(line);
    else for (const piece of line) this.#push(piece);
    this.#queue.push("\n");
    this.#queuedBytes += 1;
    this.#lines++;
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        void this.flush();
      });
    }
  }

  #push(piece: string | Buffer): void {
    this.#queue.push(piece);
    // Characters for text: a bound on memory, not an exact byte count.
    this.#queuedBytes += piece.length;
  }

  /** Writes everything queued so far; resolves when it is on disk (or has failed and been re-queued). */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#lines === 0) return;
    const batch = this.#queue;
    const lines = this.#lines;
    const queuedBytes = this.#queuedBytes;
    this.#queue = [];
    this.#lines = 0;
    this.#queuedBytes = 0;
    this.#flushing = appendAll(this.path, encode(batch))
      .then(() => {
        this.written += lines;
      })
      .catch(() => {
        // Keep the lines: an accepted record is never dropped. They go out with the next flush.
        this.writeErrors++;
        this.#queue = batch.concat(this.#queue);
        this.#lines += lines;
        this.#queuedBytes += queuedBytes;
      })
      .finally(() => {
        this.#flushing = undefined;
      });
    await this.#flushing;
  }

  /** Last resort at process exit: writes synchronously whatever is still queued. */
  flushSync(): void {
    if (this.#lines === 0) return;
    appendFileSync(this.path, Buffer.concat(encode(this.#queue)), { mode: 0o600 });
    this.written += this.#lines;
    this.#queue = [];
    this.#lines = 0;
    this.#queuedBytes = 0;
  }
}
