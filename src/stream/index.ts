/**
 * The pure core of the streamed transport (spec 4.1, issue 7): bytes in, frames out,
 * frames folded into the non-streamed body, and the head-release budget. No I/O here; the
 * HTTP edge wires these together, per stream:
 *
 *   const parser = new SseParser();                 // throws SseError only (size, misuse)
 *   const reassembler = createReassembler(protocol); // never throws
 *   const head = new HeadRelease(headReleaseBytes);  // RangeError only for a bad budget
 *   for each body chunk, then once for parser.end():
 *     for (const frame of frames) {
 *       const info = reassembler.push(frame);
 *       if (head.offer(info)) write(frame.raw); else hold(frame);
 *     }
 *   const { body, done, error, truncatedToolInput } = reassembler.finish(); // judge `body`
 *   allow: write the held frames' raw (placeholders restored); block: refusal per head.state
 */
export { HeadRelease, type ReleaseState } from "./head-release.js";
export { createReassembler, isStreamProtocol } from "./reassembler.js";
export { SseError, type SseErrorCode } from "./sse-error.js";
export {
  DEFAULT_MAX_FRAME_BYTES,
  DEFAULT_MAX_LINE_BYTES,
  type SseFrame,
  SseParser,
  type SseParserOptions,
} from "./sse-parser.js";
export type { FrameInfo, ReassembledResponse, Reassembler, StreamProtocol } from "./types.js";
