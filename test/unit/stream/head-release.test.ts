import { describe, expect, it } from "vitest";
import { HeadRelease } from "../../../src/stream/head-release.js";
import { type FrameInfo, frameInfo } from "../../../src/stream/types.js";
import { release, runSample, streamSamples } from "./helpers.js";

const OPEN = frameInfo({ opening: true });
const text = (bytes: number) => frameInfo({ contentBytes: bytes });
const ANNOUNCE = frameInfo({ announcesTool: true });
const args = (bytes: number) => frameInfo({ contentBytes: bytes, toolBytes: bytes });
const FREE = frameInfo({});
const END = frameInfo({ mustHold: true });

function offerAll(budget: number, infos: FrameInfo[]) {
  const head = new HeadRelease(budget);
  const out = infos.map((info) => head.offer(info));
  return { out, head };
}

describe("HeadRelease states (the refusal form they select)", () => {
  it("nothing: a budget of 0 releases not even the opening frames", () => {
    const { out, head } = offerAll(0, [OPEN, FREE, text(1)]);
    expect(out).toEqual([false, false, false]);
    expect(head.state).toBe("nothing");
    expect(head.isHolding).toBe(true);
  });

  it("nothing: a first frame that must be held holds the rest", () => {
    const { out, head } = offerAll(32, [END, OPEN, text(1)]);
    expect(out).toEqual([false, false, false]);
    expect(head.state).toBe("nothing");
  });

  it("opening_only: openings go out, the first content over budget is held", () => {
    const { out, head } = offerAll(3, [OPEN, OPEN, FREE, text(5), text(1)]);
    expect(out).toEqual([true, true, true, false, false]);
    expect(head.state).toBe("opening_only");
    expect(head.releasedBytes).toBe(0);
  });

  it("content: prose within budget, exact fit included", () => {
    const { out, head } = offerAll(32, [OPEN, text(20), text(12), text(1)]);
    expect(out).toEqual([true, true, true, false]);
    expect(head.state).toBe("content");
    expect(head.releasedBytes).toBe(32);
  });

  it("tool_bytes: an announcement alone costs one byte and marks a begun call", () => {
    const { out, head } = offerAll(1, [OPEN, ANNOUNCE, args(1)]);
    expect(out).toEqual([true, true, false]);
    expect(head.state).toBe("tool_bytes");
    expect(head.releasedBytes).toBe(1);
  });

  it("tool_bytes: argument bytes after prose", () => {
    const { head } = offerAll(32, [OPEN, text(4), ANNOUNCE, args(3)]);
    expect(head.state).toBe("tool_bytes");
    expect(head.releasedBytes).toBe(8);
  });

  it("holds every frame after the first held one, even free ones, to keep order", () => {
    const { out } = offerAll(4, [OPEN, text(5), FREE, OPEN, text(1)]);
    expect(out).toEqual([true, false, false, false, false]);
  });

  it("never releases a frame that must be held, whatever the budget", () => {
    const { out } = offerAll(1_000_000, [OPEN, text(1), END, FREE]);
    expect(out).toEqual([true, true, false, false]);
  });

  it("refuses a budget that is not a non-negative integer", () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new HeadRelease(bad)).toThrow(RangeError);
    }
  });
});

describe("HeadRelease over the wire samples", () => {
  const samples = streamSamples().filter((s) => s.protocol !== undefined);

  it.each(samples.map((s) => [`${s.folder}/${s.file}`, s] as const))(
    "%s: never more than the budget, never a held kind, always a prefix",
    (_name, sample) => {
      const { infos } = runSample(sample);
      for (const budget of [0, 1, 2, 5, 32, 100, 100_000]) {
        const head = new HeadRelease(budget);
        let bytes = 0;
        let heldOnce = false;
        for (const info of infos) {
          const live = head.offer(info);
          if (heldOnce) expect(live).toBe(false);
          if (!live) {
            heldOnce = true;
            continue;
          }
          expect(info.mustHold).toBe(false);
          expect(info.terminal).toBe(false);
          bytes += info.contentBytes === 0 && info.announcesTool ? 1 : info.contentBytes;
        }
        expect(bytes).toBeLessThanOrEqual(budget);
        expect(head.releasedBytes).toBe(bytes);
        if (budget === 0) expect(head.state).toBe("nothing");
        // The end of the answer always waits for the verdict.
        expect(heldOnce).toBe(true);
      }
    },
  );

  it.each([
    ["anthropic", "stream-basic-ping.sse", 32, "content", 7],
    ["anthropic", "stream-basic-ping.sse", 3, "opening_only", 3],
    ["anthropic", "stream-recorded-tool_use-input_json_delta.sse", 32, "tool_bytes", 10],
    ["anthropic", "stream-docs-text-then-tool_use.sse", 32, "content", 10],
    ["anthropic", "stream-refusal-stop_details.sse", 32, "opening_only", 3],
    ["anthropic", "stream-docs-error-overloaded.sse", 32, "nothing", 0],
    ["openai-chat", "stream-text-basic-usage-chunk.sse", 32, "content", 7],
    ["openai-chat", "stream-tool_call-argument-deltas.sse", 32, "tool_bytes", 9],
    ["openai-chat", "stream-refusal-deltas.sse", 1, "opening_only", 1],
  ] as const)(
    "%s/%s with budget %i ends in state %s after %i frames",
    (folder, file, budget, state, frames) => {
      const protocol = folder === "anthropic" ? "vendor_b.messages" : "vendor_a.chat";
      const { infos } = runSample({ folder, file, protocol });
      expect(release(infos, budget)).toEqual({ state, released: frames });
    },
  );
});
