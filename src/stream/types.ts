import type { SseFrame } from "./sse-parser.js";

/**
 * The contract between a protocol reassembler and its callers (the HTTP edge and the
 * head-release tracker). One reassembler per stream; frames go in as the parser emits them.
 */

export type StreamProtocol = "vendor_a.chat" | "vendor_b.messages";

/** What one frame shows the client, as far as the bounded head release cares. */
export interface FrameInfo {
  /**
   * UTF-8 bytes of client-visible content: text, refusal, reasoning/thinking, tool-call
   * argument characters, and blocks that arrive whole (search results, redacted thinking).
   */
  readonly contentBytes: number;
  /** The part of `contentBytes` that is tool-call arguments. */
  readonly toolBytes: number;
  /** The frame starts a tool call (id/name); with no content bytes it costs one byte. */
  readonly announcesTool: boolean;
  /** The frame opens the message or a prose/reasoning block without saying anything yet. */
  readonly opening: boolean;
  /**
   * Never release before the verdict: the frame completes something a client acts on (a
   * tool call's block, a choice's finish reason, the message, usage, the stream), is an
   * error, or was not understood. Releasing it would let the client act on unjudged output.
   */
  readonly mustHold: boolean;
  /** The frame ends the stream in its protocol: `[DONE]`, `message_stop`, or an error. */
  readonly terminal: boolean;
}

/** The non-streamed equivalent of everything pushed so far. */
export interface ReassembledResponse {
  /** The provider's non-streamed response body, ready to be judged as `step/response`. */
  readonly body: Record<string, unknown>;
  /** The protocol's end marker was seen (`[DONE]`, `message_stop`). */
  readonly done: boolean;
  /** The provider's error object, when the stream carried an error event. */
  readonly error?: unknown;
  /** Raw tool-argument texts that did not parse into a JSON object (e.g. cut by max_tokens). */
  readonly truncatedToolInput?: string[];
  /** Frames that contributed nothing: not JSON, unknown kind, or after the end marker. */
  readonly ignoredFrames: number;
}

/**
 * `push` is O(frame size); `finish` builds the body from the accumulated state in time
 * linear in it and does not consume that state, so it may be called again (for example when
 * a client disconnects mid-stream and the partial answer is still recorded).
 */
export interface Reassembler {
  push(frame: SseFrame): FrameInfo;
  finish(): ReassembledResponse;
}

const NOTHING: FrameInfo = {
  contentBytes: 0,
  toolBytes: 0,
  announcesTool: false,
  opening: false,
  mustHold: false,
  terminal: false,
};

/** A FrameInfo with the given fields set and every other one zero/false. */
export function frameInfo(fields: Partial<FrameInfo>): FrameInfo {
  return { ...NOTHING, ...fields };
}

/** A frame that cannot be placed (garbage, unknown kind, after the end): held, costs nothing. */
export const UNDERSTOOD_NOTHING: FrameInfo = frameInfo({ mustHold: true });
