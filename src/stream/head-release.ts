import type { FrameInfo } from "./types.js";

/**
 * The bounded head release of spec 4.1: before the verdict, at most `budgetBytes` of
 * client-visible content go out live. The bound is on content, not on time or frames, so
 * what a client sees unjudged never grows with the length of the answer.
 *
 * Rules, in order, for each frame offered:
 * 1. Once one frame is held, every later frame is held too: frames must reach the client
 *    in order, and the held tail is released (or replaced) as a whole after the verdict.
 * 2. A budget of 0 releases nothing, not even opening frames.
 * 3. A `mustHold` frame (finish reason, message end, usage, error, not understood) is held.
 * 4. The frame costs its content bytes; a frame that only announces a tool call costs one
 *    byte. It goes out when the bytes already released plus its cost fit the budget.
 *
 * `state` names what has gone out, which selects the refusal form on `block`: `nothing`
 * (clean refusal), `opening_only` (notice appended inside the open message), `content`
 * (soft ending with the notice), `tool_bytes` (hard retraction: a tool call was begun).
 */
export type ReleaseState = "nothing" | "opening_only" | "content" | "tool_bytes";

export class HeadRelease {
  private spent = 0;
  private holding = false;
  private current: ReleaseState = "nothing";

  /** Throws RangeError for a budget that is not a non-negative integer (a caller bug). */
  constructor(private readonly budgetBytes: number) {
    if (!Number.isSafeInteger(budgetBytes) || budgetBytes < 0) {
      throw new RangeError(`head release budget must be a non-negative integer, got ${budgetBytes}`);
    }
  }

  /** May this frame go out live now? Frames must be offered in stream order. */
  offer(info: FrameInfo): boolean {
    if (this.holding) return false;
    const cost = info.contentBytes === 0 && info.announcesTool ? 1 : info.contentBytes;
    if (this.budgetBytes === 0 || info.mustHold || this.spent + cost > this.budgetBytes) {
      this.holding = true;
      return false;
    }
    this.spent += cost;
    this.advance(info);
    return true;
  }

  get state(): ReleaseState {
    return this.current;
  }

  /** Content bytes released so far (announcements counted at one byte). */
  get releasedBytes(): number {
    return this.spent;
  }

  /** True once a frame has been held: everything from there on waits for the verdict. */
  get isHolding(): boolean {
    return this.holding;
  }

  private advance(info: FrameInfo): void {
    if (info.toolBytes > 0 || info.announcesTool) {
      this.current = "tool_bytes";
    } else if (info.contentBytes > 0) {
      if (this.current !== "tool_bytes") this.current = "content";
    } else if (info.opening && this.current === "nothing") {
      this.current = "opening_only";
    }
  }
}
