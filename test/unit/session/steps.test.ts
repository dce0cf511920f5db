import { describe, expect, it } from "vitest";
import { describeSession, listShadowAgents } from "../../../src/session/queries.js";
import { grow, harness, MINUTE, opening } from "./helpers.js";

const base = opening("sys", "Do the task.");
const opts = (now: number) => ({ now, idleTimeoutMs: 30 * MINUTE });

describe("steps", () => {
  it("records an unseen step_id response as unpaired in a session of its own", async () => {
    const h = harness();
    await h.request(base);
    const orphan = await h.response("never-requested");
    expect(orphan).toMatchObject({
      sessionId: "s2",
      attachMethod: "unpaired",
      paired: false,
      turnIndex: 1,
      stepIndex: 1,
    });
    const retried = await h.response("never-requested");
    expect(retried).toMatchObject({ sessionId: "s2", attachMethod: "step_id", paired: false, stepIndex: 1 });
    const detail = await describeSession(h.state, "org-a", "s2", opts(h.clock.now));
    expect(detail).toMatchObject({ origin: "unpaired", eventCount: 2 });
    expect(detail?.turns[0]?.steps[0]).toMatchObject({
      kinds: ["step/response"],
      attachMethod: "unpaired",
      paired: false,
    });
  });

  it("does not pair a response with another agent's step", async () => {
    const h = harness();
    await h.request(base, { stepId: "s-1" });
    const other = await h.response("s-1", { agentId: "agent-2" });
    expect(other).toMatchObject({ attachMethod: "unpaired", paired: false });
    expect(other.sessionId).not.toBe("s1");
  });

  it("records retries of one step_id on the same step, without dedup", async () => {
    const h = harness();
    await h.request(base, { stepId: "r" });
    const again = await h.request(base, { stepId: "r" });
    const res1 = await h.response("r");
    const res2 = await h.response("r");
    const next = await h.request(grow(base, "x", 1));
    expect(again).toMatchObject({ sessionId: "s1", attachMethod: "step_id", stepIndex: 1, paired: false });
    expect([res1, res2].map((r) => [r.stepIndex, r.paired])).toEqual([
      [1, true],
      [1, true],
    ]);
    expect(next.stepIndex).toBe(2);
    const detail = await describeSession(h.state, "org-a", "s1", opts(h.clock.now));
    const step = detail?.turns[0]?.steps[0];
    expect(step?.events.map((e) => e.kind)).toEqual([
      "step/request",
      "step/request",
      "step/response",
      "step/response",
    ]);
    expect(step?.kinds).toEqual(["step/request", "step/response"]);
    expect(detail?.eventCount).toBe(5);
  });

  it("records decisions per event: Conclude marks the latest undecided event of its kind", async () => {
    const h = harness();
    const req = await h.request(base, { stepId: "d" });
    await h.request(base, { stepId: "d" });
    const conclude = (decision: "allow" | "block") =>
      h.tracker.conclude({
        orgId: "org-a",
        sessionId: req.sessionId,
        stepId: "d",
        kind: "step/request",
        decision,
      });
    await conclude("allow");
    await conclude("allow");
    const detail = await describeSession(h.state, "org-a", "s1", opts(h.clock.now));
    expect(detail?.turns[0]?.steps[0]?.events.map((e) => e.decision)).toEqual(["allow", "allow"]);
    expect(detail?.turns[0]?.steps[0]?.decision).toBe("allow");
  });
});

describe("shadow agents", () => {
  it("keeps one agent and raises shadow_agent when agent_type disagrees", async () => {
    const h = harness();
    const first = await h.request(base, { agentType: "coder" });
    const unlabeled = await h.request(grow(base, "x", 1), { agentType: "" });
    const shadow = await h.request(grow(base, "x", 2), { agentType: "browser" });
    const shadowResponse = await h.response(h.lastStepId(), { agentType: "browser" });
    expect(first.signals).toEqual([]);
    expect(unlabeled.signals).toEqual([]);
    expect(shadow).toMatchObject({ sessionId: "s1", attachMethod: "prefix", signals: ["shadow_agent"] });
    expect(shadowResponse.signals).toEqual(["shadow_agent"]);
    const agents = await listShadowAgents(h.state, "org-a");
    expect(agents).toEqual([
      expect.objectContaining({
        agentId: "agent-1",
        agentType: "coder",
        shadowTypes: ["browser"],
        shadowEvents: 2,
      }),
    ]);
    expect(h.tracker.stats().shadowAgentEvents).toBe(2);
    const detail = await describeSession(h.state, "org-a", "s1", opts(h.clock.now));
    expect(detail).toMatchObject({ agentType: "coder", signals: ["shadow_agent"] });
    expect(await listShadowAgents(h.state, "org-b")).toEqual([]);
  });

  it("lets an unlabelled agent take its first label without a signal", async () => {
    const h = harness();
    await h.request(base, { agentType: "" });
    const labelled = await h.request(grow(base, "x", 1), { agentType: "coder" });
    expect(labelled.signals).toEqual([]);
    expect(await listShadowAgents(h.state, "org-a")).toEqual([]);
  });
});
