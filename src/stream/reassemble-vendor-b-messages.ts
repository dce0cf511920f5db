import { copyRecord, indexValue, isRecord, type JsonRecord, parseJson, setOwn, utf8Bytes } from "./json.js";
import type { SseFrame } from "./sse-parser.js";
import {
  type FrameInfo,
  frameInfo,
  type ReassembledResponse,
  type Reassembler,
  UNDERSTOOD_NOTHING,
} from "./types.js";
import { BlockAccumulator, deltaCost } from "./vendor-b-block.js";

/**
 * vendor_b.messages streams: `message_start`, then per block `content_block_start`,
 * `content_block_delta`s and `content_block_stop`, then `message_delta` (stop reason, stop
 * sequence, stop details, cumulative usage) and `message_stop`; `ping` anywhere, `error` in
 * place of the rest. Folds them into the non-streamed Messages body the decomposer reads.
 *
 * The event kind is read from the payload's `type` (the `event:` field only when the payload
 * has none), since proxies are known to drop or rename the field but not the payload.
 * Unknown events, non-JSON data, deltas for a block never started, and anything after
 * `message_stop` are counted in `ignoredFrames` and held by the head release.
 */
export class VendorBMessagesReassembler implements Reassembler {
  /** The message from `message_start`, with `message_delta` fields applied as they come. */
  private readonly message: JsonRecord = {};
  private started = false;
  private usage: JsonRecord | undefined;
  private readonly blocks = new Map<number, BlockAccumulator>();
  private done = false;
  private error: unknown;
  private ignored = 0;

  push(frame: SseFrame): FrameInfo {
    if (this.done) return this.ignore();
    const event = parseJson(frame.data);
    const type = isRecord(event) && typeof event.type === "string" ? event.type : frame.event;
    if (type === "error") {
      this.error ??= isRecord(event) ? (event.error ?? event) : frame.data;
      return frameInfo({ mustHold: true, terminal: true });
    }
    if (!isRecord(event)) return this.ignore();
    switch (type) {
      case "ping":
        return frameInfo({});
      case "message_start":
        return this.messageStart(event);
      case "content_block_start":
        return this.blockStart(event, utf8Bytes(frame.data));
      case "content_block_delta":
        return this.blockDelta(event);
      case "content_block_stop":
        return this.blockStop(event);
      case "message_delta":
        return this.messageDelta(event);
      case "message_stop":
        this.done = true;
        return frameInfo({ mustHold: true, terminal: true });
      default:
        return this.ignore();
    }
  }

  finish(): ReassembledResponse {
    const body = copyRecord(this.message);
    if (!this.started) {
      body.type ??= "message";
      body.role ??= "assistant";
    }
    const content: JsonRecord[] = [];
    const truncated: string[] = [];
    for (const [, block] of [...this.blocks.entries()].sort((a, b) => a[0] - b[0])) {
      const built = block.build();
      content.push(built.block);
      if (built.truncated !== undefined) truncated.push(built.truncated);
    }
    setOwn(body, "content", content);
    if (this.usage !== undefined) setOwn(body, "usage", copyRecord(this.usage));
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

  /** Only the first event may start the message; a second start is not a stream we know. */
  private messageStart(event: JsonRecord): FrameInfo {
    if (this.started || this.blocks.size > 0 || !isRecord(event.message)) return this.ignore();
    this.started = true;
    const message = event.message;
    for (const key of Object.keys(message)) setOwn(this.message, key, message[key]);
    if (isRecord(message.usage)) this.usage = copyRecord(message.usage);
    return frameInfo({ opening: true });
  }

  private blockStart(event: JsonRecord, dataBytes: number): FrameInfo {
    const index = indexValue(event.index);
    if (index === undefined || this.blocks.has(index) || !isRecord(event.content_block)) return this.ignore();
    const block = new BlockAccumulator(event.content_block);
    this.blocks.set(index, block);
    return frameInfo(block.startCost(dataBytes));
  }

  private blockDelta(event: JsonRecord): FrameInfo {
    const index = indexValue(event.index);
    const block = index === undefined ? undefined : this.blocks.get(index);
    const delta = event.delta;
    if (!isRecord(delta)) return this.ignore();
    const cost = deltaCost(delta);
    if (cost === undefined || block === undefined || !block.apply(delta)) {
      // The client may still render it: count what it shows, but never release it early.
      this.ignored++;
      return frameInfo({ ...cost, opening: false, mustHold: true });
    }
    return frameInfo(cost);
  }

  /** A finished tool block is a complete call some clients start running at once: held. */
  private blockStop(event: JsonRecord): FrameInfo {
    const index = indexValue(event.index);
    const block = index === undefined ? undefined : this.blocks.get(index);
    if (block === undefined) return this.ignore();
    return frameInfo({ mustHold: block.kind === "tool" });
  }

  /** Stop reason, stop sequence, stop details and the like replace; usage counts merge. */
  private messageDelta(event: JsonRecord): FrameInfo {
    if (isRecord(event.delta)) {
      for (const key of Object.keys(event.delta)) setOwn(this.message, key, event.delta[key]);
    }
    if (isRecord(event.usage)) {
      const usage = this.usage ?? {};
      for (const key of Object.keys(event.usage)) {
        const value = event.usage[key];
        if (value !== null && value !== undefined) setOwn(usage, key, value);
      }
      this.usage = usage;
    }
    return frameInfo({ mustHold: true });
  }
}
