import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { DetectorService, DetectResponseSchema } from "../../../gen/guard/v1/detector_pb.js";
import { Channel, EventKind, FindingSchema, type Segment, SegmentSchema, Severity } from "../../../gen/guard/v1/types_pb.js";
import { type DetectorHandle, detectAll } from "../../../src/pipeline/detect.js";
import { DetectionMemo } from "../../../src/pipeline/detection-memo.js";
import { inProcessClient } from "../../../src/rpc/in-process.js";

/** A detector that counts the segments it is shown and flags the word "bad". */
function countingDetector(): { handle: DetectorHandle; seen: () => number } {
  let seen = 0;
  const handle: DetectorHandle = {
    name: "counting",
    version: "1",
    categories: ["x.test"],
    channels: [],
    client: inProcessClient(DetectorService, {
      describe: () => ({ name: "counting" }),
      detect(request) {
        seen += request.segments.length;
        const findings = request.segments
          .filter((s) => s.text.includes("bad"))
          .map((s) =>
            create(FindingSchema, {
              category: "x.test",
              severity: Severity.LOW,
              path: s.path,
              start: s.text.indexOf("bad"),
              end: s.text.indexOf("bad") + 3,
              detector: "counting",
              subject: "bad",
            }),
          );
        return create(DetectResponseSchema, { findings });
      },
    }),
  };
  return { handle, seen: () => seen };
}

function conversation(steps: number): Segment[] {
  return Array.from({ length: steps }, (_, i) =>
    create(SegmentSchema, {
      path: `payload.messages.${i}.content`,
      channel: i % 2 ? Channel.TOOL_RESULT : Channel.USER,
      text: `message ${i}${i % 7 === 0 ? " bad" : ""}`,
      addressable: true,
    }),
  );
}

describe("incremental judging", () => {
  it("shows a detector each text once per organization, yet every verdict carries all its findings", async () => {
    const { handle, seen } = countingDetector();
    const memo = new DetectionMemo();
    const costs: number[] = [];
    for (let step = 1; step <= 200; step++) {
      const before = seen();
      const outcome = await detectAll([handle], EventKind.STEP_REQUEST, conversation(step), 1000, { memo, orgId: "o" });
      costs.push(seen() - before);
      expect(outcome.findings.map((f) => f.path)).toEqual(
        conversation(step)
          .filter((s) => s.text.includes("bad"))
          .map((s) => s.path),
      );
    }
    // Step 200 costs what step 10 costs: one new text each (DESIGN.md decision 5; issue 6 asks <= 1.5x).
    expect(costs[199]).toBe(1);
    expect((costs[199] ?? 0) / (costs[9] ?? 1)).toBeLessThanOrEqual(1.5);
    // Another organization's identical texts are judged afresh.
    const before = seen();
    await detectAll([handle], EventKind.STEP_REQUEST, conversation(5), 1000, { memo, orgId: "other" });
    expect(seen() - before).toBe(5);
  });

  it("replays a memoised result onto the text's new path and call", async () => {
    const { handle } = countingDetector();
    const memo = new DetectionMemo();
    const at = (path: string, callId: string) =>
      create(SegmentSchema, { path, channel: Channel.TOOL_RESULT, text: "a bad day", addressable: true, callId });
    await detectAll([handle], EventKind.STEP_REQUEST, [at("payload.messages.2.content", "c1")], 1000, { memo, orgId: "o" });
    const moved = await detectAll([handle], EventKind.STEP_REQUEST, [at("payload.messages.5.content", "c9")], 1000, {
      memo,
      orgId: "o",
    });
    expect(moved.findings[0]).toMatchObject({ path: "payload.messages.5.content", callId: "c9", start: 2, end: 5 });
    expect(memo.hits).toBe(1);
  });

  it("stays within its byte bound", async () => {
    const { handle } = countingDetector();
    const memo = new DetectionMemo(64 * 1024);
    for (let i = 0; i < 200; i++) {
      const segment = create(SegmentSchema, { path: "payload.text", channel: Channel.PROSE, text: `${i}`.padEnd(1000, "x") });
      await detectAll([handle], EventKind.STEP_RESPONSE, [segment], 1000, { memo, orgId: "o" });
    }
    expect(memo.size).toBeLessThan(40);
  });
});

describe("memo eviction", () => {
  it("keeps texts that are seen again and evicts the one-off ones first", async () => {
    const { handle, seen } = countingDetector();
    const memo = new DetectionMemo(40 * 1000 * 2);
    const history = create(SegmentSchema, { path: "payload.messages.0.content", channel: Channel.USER, text: "h".repeat(1000) });
    for (let i = 0; i < 100; i++) {
      const fresh = create(SegmentSchema, { path: "payload.messages.1.content", channel: Channel.USER, text: `${i}`.padEnd(1000, "x") });
      await detectAll([handle], EventKind.STEP_REQUEST, [history, fresh], 1000, { memo, orgId: "o" });
    }
    // 100 steps, each re-sending the history: it was judged once, the fresh texts once each.
    expect(seen()).toBe(101);
  });
});
