/**
 * The one error the stream core throws. Everything else a hostile or broken stream can
 * contain (garbage lines, non-JSON data, unknown events, frames after the end marker) is
 * absorbed and reported in the results instead, so a caller needs exactly one `catch`
 * branch, keyed on `code`:
 *
 * - `line_too_long`: one line grew past `maxLineBytes` without a line ending. Thrown as soon
 *   as the limit is crossed, before the excess is buffered, so memory stays bounded.
 * - `frame_too_long`: one frame (all lines up to its blank line) grew past `maxFrameBytes`.
 * - `closed`: `push` or `end` after `end()`, or after the parser already threw; a parser
 *   that failed once stays failed, because its buffers no longer describe the stream.
 *
 * The HTTP edge maps the two size codes to a 413-style cut of the stream.
 */
export type SseErrorCode = "line_too_long" | "frame_too_long" | "closed";

export class SseError extends Error {
  readonly code: SseErrorCode;
  /** The limit that was crossed, in bytes (0 for `closed`). */
  readonly limitBytes: number;

  constructor(code: SseErrorCode, message: string, limitBytes = 0) {
    super(message);
    this.name = "SseError";
    this.code = code;
    this.limitBytes = limitBytes;
  }
}
