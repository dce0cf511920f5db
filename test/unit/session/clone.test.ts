import { describe, expect, it } from "vitest";
import { clonePlain } from "../../../src/session/clone.js";

describe("clonePlain", () => {
  it("copies record data as structuredClone would, nothing shared", () => {
    const step = {
      stepId: "s1",
      closedAt: undefined as number | undefined,
      events: [{ kind: "step/request", paired: false, signals: ["shadow_agent"], decision: undefined }],
      digests: [["a", "b"], []],
      nothing: null,
    };
    const copy = clonePlain(step);
    expect(copy).toEqual(structuredClone(step));
    expect(Object.keys(copy)).toEqual(Object.keys(step));
    expect("closedAt" in copy).toBe(true);
    copy.events[0]!.signals.push("x");
    copy.digests[0]!.push("c");
    expect(step.events[0]!.signals).toEqual(["shadow_agent"]);
    expect(step.digests[0]).toEqual(["a", "b"]);
    expect(copy.events).not.toBe(step.events);
  });

  it("returns primitives as they are", () => {
    for (const value of [0, -1.5, "", "text", true, false, null, undefined]) expect(clonePlain(value)).toBe(value);
  });
});
