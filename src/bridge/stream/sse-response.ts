import type { FastifyReply } from "fastify";

/**
 * The `text/event-stream` answer of a streamed evaluate with `?payload=true`.
 *
 * The status line and headers are committed lazily, with the first byte that has to go out
 * (a released frame, a keepalive, or the end). Until then the request can still be refused
 * with an ordinary JSON error and status (413 for an over-limit stream, 400 for a body that
 * fails validation): a caller sees an error status whenever nothing reached its client yet.
 *
 * Every write honours back-pressure: when the socket's buffer is full the writer waits for
 * `drain` (or for the connection to close), so a client that stops reading costs at most one
 * frame of buffer, never the whole held tail. Keepalives are skipped while a write waits.
 */
export class SseResponse {
  private timer: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(
    private readonly reply: FastifyReply,
    private readonly signal: AbortSignal,
  ) {}

  /** True once the 200 and the event-stream headers are on the wire. */
  get committed(): boolean {
    return this.reply.raw.headersSent;
  }

  private commit(): void {
    if (this.committed) return;
    // From here the bridge no longer answers this request: the handler owns the socket.
    this.reply.hijack();
    this.reply.raw.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    });
  }

  /** Writes text, waiting for `drain` when the socket buffer is full; a no-op once aborted. */
  async write(text: string): Promise<void> {
    if (this.signal.aborted || this.ended || text === "") return;
    this.commit();
    if (this.reply.raw.write(text)) return;
    await this.drained();
  }

  /** Resolves on `drain`, or at once when the connection closes; both listeners are removed. */
  private drained(): Promise<void> {
    const raw = this.reply.raw;
    return new Promise((resolve) => {
      const done = () => {
        raw.off("drain", done);
        raw.off("close", done);
        resolve();
      };
      raw.on("drain", done);
      raw.on("close", done);
    });
  }

  /** Sends `: keepalive` every `intervalMs` until `stopKeepalive` or the end. */
  startKeepalive(intervalMs: number): void {
    this.stopKeepalive();
    this.timer = setInterval(() => {
      if (this.signal.aborted || this.reply.raw.writableNeedDrain) return;
      void this.write(": keepalive\n\n");
    }, intervalMs);
  }

  stopKeepalive(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Writes the last text and ends the response. */
  async end(text: string): Promise<void> {
    this.stopKeepalive();
    await this.write(text);
    this.ended = true;
    if (!this.signal.aborted) this.reply.raw.end();
  }
}
