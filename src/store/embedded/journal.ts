import { appendFileSync, close, open, writev } from "node:fs";
import { promisify } from "node:util";

const openFile = promisify(open);
const closeFile = promisify(close);
/** `writev` answering the bytes written (a raw descriptor: no FileHandle to be closed on collection). */
const writeGathered = (fd: number, buffers: Buffer[]) =>
  new Promise<number>((resolve, reject) => writev(fd, buffers, (error, written) => (error ? reject(error) : resolve(written))));

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
async function appendAll(fd: number, buffers: Buffer[]): Promise<void> {
  let pending = buffers;
  while (pending.length > 0) {
    const batch = pending.slice(0, WRITEV_MAX);
    const wanted = batch.reduce((n, b) => n + b.length, 0);
    let bytesWritten = await writeGathered(fd, batch);
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
}

/**
 * An append-only JSON-lines file with a write-behind queue: `append` queues a line and
 * returns at once; a flush, a few milliseconds later, writes every line queued by then with
 * gathered writes (one `writev` per 1024 pieces). When more than
 * `maxQueuedBytes` wait, `append` waits for the next flush (back-pressure) instead of
 * growing without bound or dropping a line.
 *
 * Lines are queued as given and encoded once, at the flush: a raw body arrives as a Buffer
 * and goes to disk without being decoded to a string, re-encoded or copied, and the queue then
 * holds its bytes off the JavaScript heap, so large bodies waiting to be written cost the
 * garbage collector nothing.
 *
 * The file stays open (append mode) between flushes: a flush is one `writev` on the thread
 * pool, not an open, a write and a close (issue 9: three round trips per journal per request,
 * their callbacks landing inside the next request). A failed write closes it; the next flush
 * opens it again.
 */
export class Journal {
  readonly path: string;
  readonly #maxQueuedBytes: number;
  readonly #flushDelayMs: number;
  #queue: (string | Buffer)[] = [];
  #lines = 0;
  #queuedBytes = 0;
  #flushing: Promise<void> | undefined;
  #scheduled: NodeJS.Timeout | undefined;
  /** The open descriptor between flushes. */
  #fd: number | undefined;
  #closed = false;
  written = 0;
  writeErrors = 0;

  /**
   * `flushDelayMs`: how long a queued line waits for others to share its write. One write per
   * request woke a thread-pool thread per journal per request, which on a busy machine took the
   * core from the next request (issue 9); a few milliseconds gather the lines of several.
   */
  constructor(path: string, maxQueuedBytes = 64 * 1024 * 1024, flushDelayMs = 5) {
    this.path = path;
    this.#maxQueuedBytes = maxQueuedBytes;
    this.#flushDelayMs = flushDelayMs;
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
    this.#scheduled ??= setTimeout(() => {
      this.#scheduled = undefined;
      void this.flush();
    }, this.#flushDelayMs);
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
    this.#flushing = this.#write(encode(batch))
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

  async #write(buffers: Buffer[]): Promise<void> {
    const fd = this.#fd ?? (await openFile(this.path, "a", 0o600));
    // A line queued after `close` is written all the same, through a descriptor of its own.
    if (!this.#closed) this.#fd = fd;
    try {
      await appendAll(fd, buffers);
    } catch (error) {
      // The next flush starts from a fresh descriptor (the file may have been replaced).
      if (this.#fd === fd) this.#fd = undefined;
      await closeFile(fd).catch(() => undefined);
      throw error;
    }
    if (fd !== this.#fd) await closeFile(fd);
  }

  /** Writes what is queued (asynchronously, then synchronously for anything a failure put back) and closes the file. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#scheduled);
    this.#scheduled = undefined;
    await this.flush();
    this.flushSync();
    const fd = this.#fd;
    this.#fd = undefined;
    if (fd !== undefined) await closeFile(fd);
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
