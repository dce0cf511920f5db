import { indexValue, isRecord, type JsonRecord, parseJson } from "./json.js";
import type { SseFrame } from "./sse-parser.js";
import {
  type FrameInfo,
  frameInfo,
  type ReassembledResponse,
  type Reassembler,
  UNDERSTOOD_NOTHING,
} from "./types.js";
import { ChoiceAccumulator } from "./vendor-a-choice.js";

/**
 * vendor_a.chat streams: `data: {chat.completion.chunk}` frames, then `data: [DONE]`.
 * Folds them into the non-streamed `chat.completion` body the decomposer already reads:
 * choices by `index` (several for n>1), each with its message, logprobs and finish reason,
 * and `usage` from the usage chunk (the one with empty `choices`).
 *
 * An error mid-stream arrives as `data: {"error": {...}}` (or an `event: error` frame); it
 * is reported, not thrown. Frames after `[DONE]`, non-JSON data and objects that are not
 * chunks are counted in `ignoredFrames` and held by the head release.
 */

/** Top-level chunk fields copied into the body (every chunk repeats them; the first wins). */
const META_KEYS = ["id", "created", "model", "service_tier", "system_fingerprint"] as const;

/** The error a frame reports: an `error` member, or the whole payload of an `error` event. */
function errorOf(frame: SseFrame, chunk: unknown): unknown {
  if (isRecord(chunk) && chunk.error !== undefined && chunk.error !== null) return chunk.error;
  if (frame.event === "error") return chunk ?? frame.data;
  return undefined;
}

/** `[DONE]`, tolerating stray whitespace; long data is a chunk, so it is not even trimmed. */
function isDoneMarker(data: string): boolean {
  return data.length < 32 && data.trim() === "[DONE]";
}

export class VendorAChatReassembler implements Reassembler {
  private readonly meta = new Map<string, unknown>();
  private readonly choices = new Map<number, ChoiceAccumulator>();
  private usage: unknown;
  private done = false;
  private error: unknown;
  private ignored = 0;

  push(frame: SseFrame): FrameInfo {
    if (this.done) return this.ignore();
    if (isDoneMarker(frame.data)) {
      this.done = true;
      return frameInfo({ mustHold: true, terminal: true });
    }
    const chunk = parseJson(frame.data);
    const error = errorOf(frame, chunk);
    if (error !== undefined) {
      this.error ??= error;
      return frameInfo({ mustHold: true, terminal: true });
    }
    if (!isRecord(chunk) || !Array.isArray(chunk.choices)) return this.ignore();
    this.takeMeta(chunk);
    let contentBytes = 0;
    let toolBytes = 0;
    let announcesTool = false;
    let opening = false;
    let finishes = false;
    for (let k = 0; k < chunk.choices.length; k++) {
      const item: unknown = chunk.choices[k];
      if (!isRecord(item)) continue;
      const cost = this.choice(indexValue(item.index) ?? k).add(item);
      contentBytes += cost.contentBytes;
      toolBytes += cost.toolBytes;
      announcesTool ||= cost.announcesTool;
      opening ||= cost.opening;
      finishes ||= typeof item.finish_reason === "string";
    }
    const hasUsage = isRecord(chunk.usage);
    if (hasUsage) this.usage = chunk.usage;
    // A finish reason tells the client the calls are complete; usage ends the answer.
    return frameInfo({ contentBytes, toolBytes, announcesTool, opening, mustHold: finishes || hasUsage });
  }

  finish(): ReassembledResponse {
    const meta = this.meta;
    const body: JsonRecord = {};
    if (meta.has("id")) body.id = meta.get("id");
    body.object = "chat.completion";
    if (meta.has("created")) body.created = meta.get("created");
    if (meta.has("model")) body.model = meta.get("model");
    const sorted = [...this.choices.values()].sort((a, b) => a.index - b.index);
    body.choices = sorted.map((choice) => choice.build());
    if (this.usage !== undefined) body.usage = this.usage;
    if (meta.has("service_tier")) body.service_tier = meta.get("service_tier");
    if (meta.has("system_fingerprint")) body.system_fingerprint = meta.get("system_fingerprint");
    const truncated = sorted.flatMap((choice) => choice.unparsableArguments());
    return {
      body,
      done: this.done,
      ...(this.error === undefined ? {} : { error: this.error }),
      ...(truncated.length > 0 ? { truncatedToolInput: truncated } : {}),
      ignoredFrames: this.ignored,
    };
  }

  private ignore(): FrameInfo {
    this.ignored++;
    return UNDERSTOOD_NOTHING;
  }

  private takeMeta(chunk: JsonRecord): void {
    for (const key of META_KEYS) {
      if (!this.meta.has(key) && Object.hasOwn(chunk, key)) this.meta.set(key, chunk[key]);
    }
  }

  private choice(index: number): ChoiceAccumulator {
    let choice = this.choices.get(index);
    if (choice === undefined) {
      choice = new ChoiceAccumulator(index);
      this.choices.set(index, choice);
    }
    return choice;
  }
}
