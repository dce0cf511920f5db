import { addAbortSignal, type Readable } from "node:stream";
import { errors } from "../../errors/guard-error.js";
import {
  createReassembler,
  type HeadRelease,
  type ReassembledResponse,
  SseError,
  type SseFrame,
  SseParser,
  type StreamProtocol,
} from "../../stream/index.js";

/**
 * Reads the caller's SSE body as it arrives: bytes -> frames -> reassembled body, each
 * frame either released live (when the head release allows it) or held for the verdict.
 *
 * `release` is awaited before the next chunk is read, so a slow client slows the reading
 * of the upload instead of growing a buffer. Memory is bounded by the organization's
 * `max_request_bytes`: the byte counter of the auth hooks fails the body past it, and the
 * parser's line and frame bounds are set to the same limit, so a hostile frame is refused
 * before it is buffered. Both surface here as the 413 `payload_too_large` error.
 */
export interface FrameSink {
  release(frame: SseFrame): Promise<void>;
  hold(frame: SseFrame): void;
}

/** A sink for callers that only want the reassembled body (no `?payload=true`). */
export const DISCARD: FrameSink = { release: async () => {}, hold: () => {} };

export async function ingest(
  body: unknown,
  protocol: StreamProtocol,
  head: HeadRelease | undefined,
  limitBytes: number,
  sink: FrameSink,
  signal: AbortSignal,
): Promise<ReassembledResponse> {
  const parser = new SseParser({ maxLineBytes: limitBytes, maxFrameBytes: limitBytes });
  const reassembler = createReassembler(protocol);
  const take = async (frames: SseFrame[]) => {
    for (const frame of frames) {
      const info = reassembler.push(frame);
      if (head?.offer(info)) await sink.release(frame);
      else sink.hold(frame);
    }
  };
  try {
    if (isReadable(body)) {
      // Destroys the body (and so ends the loop) the moment the client goes away.
      addAbortSignal(signal, body);
      for await (const chunk of body) {
        await take(parser.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Uint8Array)));
      }
    }
    await take(parser.end());
  } catch (error) {
    if (error instanceof SseError && error.code !== "closed") throw errors.payloadTooLarge(limitBytes);
    throw error;
  }
  return reassembler.finish();
}

function isReadable(value: unknown): value is Readable {
  return typeof value === "object" && value !== null && typeof (value as Readable).pipe === "function";
}
