import { SseError } from "./sse-error.js";

/**
 * Incremental server-sent-events parser (WHATWG HTML, "Parsing an event stream"), fed with
 * raw bytes as they arrive from a socket.
 *
 * Why bytes and not strings: a chunk may end inside a multi-byte UTF-8 character. Lines are
 * split on the bytes CR and LF, which never occur inside a multi-byte sequence, and each
 * complete line is decoded on its own, so a split character is simply completed by the next
 * chunk. Invalid UTF-8 decodes to U+FFFD, as the standard requires.
 *
 * Why `raw`: the streamed transport releases the provider's frames to the client verbatim.
 * `raw` is every character received since the previous frame up to and including this
 * frame's blank line, with the line endings as sent; comment lines (keepalives) and blocks
 * that dispatch nothing therefore travel with the next frame. Concatenating the `raw` of all
 * frames gives back the stream (minus a leading BOM and any trailing text that never forms a
 * frame).
 *
 * Deviations from the browser algorithm, both deliberate:
 * - `end()` dispatches a last frame that was not followed by a blank line (browsers drop it).
 *   Recorded provider streams end that way, and dropping `message_stop` would misreport a
 *   complete answer as cut off.
 * - `id` reports the last event ID in effect (the standard's sticky buffer); `retry` is kept
 *   on the parser (`retryMs`) since it configures the connection, not the event.
 *
 * Memory is bounded: a line longer than `maxLineBytes` or a frame longer than
 * `maxFrameBytes` throws `SseError` before the excess is buffered. Time is linear in the
 * input: no buffer is ever rescanned or re-concatenated.
 */

/** One dispatched event. */
export interface SseFrame {
  /** The `event` field, or "message" when the frame had none (standard default). */
  readonly event: string;
  /** The `data` lines joined with "\n". */
  readonly data: string;
  /** The last event ID in effect, when any `id` field has been seen. */
  readonly id?: string;
  /** The exact text received for this frame (see the module comment). */
  readonly raw: string;
}

export interface SseParserOptions {
  /** Longest line accepted, in bytes without its line ending. Default 8 MiB. */
  readonly maxLineBytes?: number;
  /** Longest frame accepted, in bytes including comments carried with it. Default 16 MiB. */
  readonly maxFrameBytes?: number;
}

export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const EMPTY = new Uint8Array(0);
const DIGITS = /^[0-9]+$/;

/** A line whose bytes are complete and decoded, waiting for its line ending to be known. */
interface Line {
  readonly text: string;
  readonly bytes: number;
}

export class SseParser {
  private readonly maxLine: number;
  private readonly maxFrame: number;
  // ignoreBOM: only the stream's first BOM is dropped (by hand, below); later ones are text.
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });

  /** Bytes of the unfinished line, copied out of earlier chunks. */
  private pieces: Uint8Array[] = [];
  private pieceBytes = 0;
  /** A line that ended in CR at the end of a chunk: is the next byte LF (one CRLF) or not? */
  private crLine: Line | undefined;
  private firstLine = true;

  /** The current frame: raw text, its size, and the field buffers of the standard. */
  private rawParts: string[] = [];
  private frameBytes = 0;
  private dataLines: string[] = [];
  private eventType = "";
  private lastEventId: string | undefined;
  private retry: number | undefined;

  private failure: SseError | undefined;
  private ended = false;

  constructor(options: SseParserOptions = {}) {
    this.maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.maxFrame = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  }

  /**
   * Feeds the next bytes; returns the frames they complete, in order. Throws `SseError`
   * only; after a throw the parser is failed and frames completed earlier in the same chunk
   * are not returned (the caller is cutting the stream at that point anyway).
   */
  push(chunk: Uint8Array): SseFrame[] {
    this.assertOpen();
    const out: SseFrame[] = [];
    try {
      this.scan(chunk, out);
    } catch (thrown) {
      this.fail(thrown);
    }
    return out;
  }

  /** Ends the stream: settles a pending CR, flushes an unterminated last line and frame. */
  end(): SseFrame[] {
    this.assertOpen();
    const out: SseFrame[] = [];
    try {
      const cr = this.crLine;
      if (cr !== undefined) {
        this.crLine = undefined;
        this.endLine(cr, "\r", out);
      } else if (this.pieceBytes > 0) {
        this.endLine(this.takeLine(EMPTY), "", out);
      }
      if (this.dataLines.length > 0) this.dispatch(out);
    } catch (thrown) {
      this.fail(thrown);
    }
    this.ended = true;
    return out;
  }

  /** Bytes currently held for the unfinished line and frame (what a hostile peer costs). */
  get bufferedBytes(): number {
    return this.pieceBytes + this.frameBytes;
  }

  /** The reconnection time last set by a `retry` field, in milliseconds. */
  get retryMs(): number | undefined {
    return this.retry;
  }

  /** Records the failure so later calls refuse, then rethrows it. */
  private fail(thrown: unknown): never {
    this.failure = thrown instanceof SseError ? thrown : new SseError("closed", String(thrown));
    throw thrown;
  }

  private assertOpen(): void {
    if (this.failure !== undefined)
      throw new SseError("closed", `parser failed earlier: ${this.failure.message}`);
    if (this.ended) throw new SseError("closed", "parser already ended");
  }

  private scan(chunk: Uint8Array, out: SseFrame[]): void {
    let pos = 0;
    const cr = this.crLine;
    if (cr !== undefined) {
      if (chunk.length === 0) return;
      this.crLine = undefined;
      const crlf = chunk[0] === LF;
      this.endLine(cr, crlf ? "\r\n" : "\r", out);
      pos = crlf ? 1 : 0;
    }
    // Next CR and LF positions, searched again only once passed: linear over the chunk.
    let nextLf = chunk.indexOf(LF, pos);
    let nextCr = chunk.indexOf(CR, pos);
    for (;;) {
      if (nextLf !== -1 && nextLf < pos) nextLf = chunk.indexOf(LF, pos);
      if (nextCr !== -1 && nextCr < pos) nextCr = chunk.indexOf(CR, pos);
      const stop = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
      if (stop === -1) break;
      this.checkLine(stop - pos);
      const line = this.takeLine(chunk.subarray(pos, stop));
      if (chunk[stop] === LF) {
        this.endLine(line, "\n", out);
        pos = stop + 1;
      } else if (stop + 1 < chunk.length) {
        const crlf = chunk[stop + 1] === LF;
        this.endLine(line, crlf ? "\r\n" : "\r", out);
        pos = stop + (crlf ? 2 : 1);
      } else {
        this.crLine = line;
        pos = chunk.length;
      }
    }
    if (pos < chunk.length) {
      this.checkLine(chunk.length - pos);
      // Copied (a Buffer's slice() would be a view): the caller may reuse its buffer.
      const piece = new Uint8Array(chunk.length - pos);
      piece.set(chunk.subarray(pos));
      this.pieces.push(piece);
      this.pieceBytes += chunk.length - pos;
    }
  }

  /** Throws before buffering when the unfinished line plus `more` bytes is over the limit. */
  private checkLine(more: number): void {
    if (this.pieceBytes + more > this.maxLine) {
      throw new SseError("line_too_long", `SSE line longer than ${this.maxLine} bytes`, this.maxLine);
    }
  }

  /** Joins the buffered pieces with the line's last bytes and decodes them. */
  private takeLine(tail: Uint8Array): Line {
    let bytes: Uint8Array = tail;
    if (this.pieces.length > 0) {
      bytes = new Uint8Array(this.pieceBytes + tail.length);
      let at = 0;
      for (const piece of this.pieces) {
        bytes.set(piece, at);
        at += piece.length;
      }
      bytes.set(tail, at);
      this.pieces = [];
      this.pieceBytes = 0;
    }
    let text = this.decoder.decode(bytes);
    if (this.firstLine) {
      this.firstLine = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    return { text, bytes: bytes.length };
  }

  /** Interprets one complete line (standard: "process the field"). */
  private endLine(line: Line, ending: string, out: SseFrame[]): void {
    this.frameBytes += line.bytes + ending.length;
    if (this.frameBytes > this.maxFrame) {
      throw new SseError("frame_too_long", `SSE frame longer than ${this.maxFrame} bytes`, this.maxFrame);
    }
    const text = line.text;
    this.rawParts.push(text, ending);
    if (text === "") {
      this.dispatch(out);
      return;
    }
    if (text.charCodeAt(0) === COLON) return;
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? "" : text.slice(colon + 1);
    if (value.charCodeAt(0) === SPACE) value = value.slice(1);
    switch (field) {
      case "event":
        this.eventType = value;
        break;
      case "data":
        this.dataLines.push(value);
        break;
      case "id":
        if (!value.includes("\u0000")) this.lastEventId = value;
        break;
      case "retry":
        if (DIGITS.test(value)) this.retry = Number(value);
        break;
      default:
        // Unknown fields are ignored, as the standard says.
        break;
    }
  }

  /** Blank line: emits the frame when it has data; otherwise its text rides with the next. */
  private dispatch(out: SseFrame[]): void {
    if (this.dataLines.length === 0) {
      this.eventType = "";
      return;
    }
    const frame: SseFrame = {
      event: this.eventType === "" ? "message" : this.eventType,
      data: this.dataLines.join("\n"),
      ...(this.lastEventId === undefined ? {} : { id: this.lastEventId }),
      raw: this.rawParts.join(""),
    };
    this.rawParts = [];
    this.frameBytes = 0;
    this.dataLines = [];
    this.eventType = "";
    out.push(frame);
  }
}
