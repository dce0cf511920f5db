import { describe, expect, it } from "vitest";
import { describeSession, listSessions } from "../../../src/session/queries.js";
import { entry, grow, harness, MINUTE, opening } from "./helpers.js";

describe("prefix chaining", () => {
  it("keeps 20 steps of one agent loop in one session and one turn", async () => {
    const h = harness();
    const base = opening("You are a coding agent.", "Fix the failing test.");
    const seen = [];
    for (let step = 0; step < 20; step++) {
      const req = await h.request(grow(base, "loop", step));
      const res = await h.response(h.lastStepId());
      seen.push({ req, res });
      h.clock.advance(1_000);
    }
    expect(seen.map((s) => s.req.attachMethod)).toEqual(["new", ...Array(19).fill("prefix")]);
    expect(new Set(seen.map((s) => s.req.sessionId))).toEqual(new Set(["s1"]));
    expect(seen.map((s) => s.req.stepIndex)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(seen.every((s) => s.req.turnIndex === 1 && s.res.turnIndex === 1)).toBe(true);
    for (const { req, res } of seen) {
      expect(res).toMatchObject({
        sessionId: "s1",
        stepIndex: req.stepIndex,
        attachMethod: "step_id",
        paired: true,
      });
    }
    const detail = await describeSession(h.state, "org-a", "s1", {
      now: h.clock.now,
      idleTimeoutMs: 30 * MINUTE,
    });
    expect(detail?.turns).toHaveLength(1);
    expect(detail?.turns[0]?.steps.map((s) => s.kinds)).toEqual(
      Array(20).fill(["step/request", "step/response"]),
    );
  });

  it("keeps two interleaved concurrent sessions of one agent apart", async () => {
    const h = harness();
    const a = opening("You are a coding agent.", "Fix the failing test.");
    const b = opening("You are a coding agent.", "Write the release notes.");
    const placed: Record<string, { sessionId: string; stepIndex: number }[]> = { a: [], b: [] };
    for (let step = 0; step < 6; step++) {
      const ra = await h.request(grow(a, "a", step));
      await h.response(h.lastStepId());
      const rb = await h.request(grow(b, "b", step));
      await h.response(h.lastStepId());
      placed.a!.push(ra);
      placed.b!.push(rb);
    }
    expect(new Set(placed.a!.map((p) => p.sessionId))).toEqual(new Set(["s1"]));
    expect(new Set(placed.b!.map((p) => p.sessionId))).toEqual(new Set(["s2"]));
    expect(placed.a!.map((p) => p.stepIndex)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(placed.b!.map((p) => p.stepIndex)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("numbers concurrent requests of one session without gaps or repeats", async () => {
    const h = harness();
    const base = opening("sys", "Do three things at once.");
    await h.request(base);
    const fanned = await Promise.all(
      [1, 2, 3, 4].map((i) => h.request([...base, entry("assistant", `plan ${i}`)], { stepId: `par-${i}` })),
    );
    expect(new Set(fanned.map((r) => r.sessionId))).toEqual(new Set(["s1"]));
    expect(fanned.map((r) => r.stepIndex).sort()).toEqual([2, 3, 4, 5]);
  });

  const apart = [
    { name: "two agents with identical conversations", second: { agentId: "agent-2" } },
    { name: "two organizations with identical conversations", second: { orgId: "org-b" } },
    { name: "two users of one agent with identical openings", second: { agentUser: "bob" } },
  ];
  for (const { name, second } of apart) {
    // Step ids repeat across the pair only where the scopes differ (agent, org): within one agent a
    // producer never reuses a step_id.
    it(`keeps ${name} apart`, async () => {
      const h = harness();
      const base = opening("You are a support bot.", "Hello");
      const first = [];
      const other = [];
      for (let step = 0; step < 3; step++) {
        first.push(await h.request(grow(base, "x", step), { stepId: `a${step}` }));
        const stepId = "agentUser" in second ? `b${step}` : `a${step}`;
        other.push(await h.request(grow(base, "x", step), { ...second, stepId }));
      }
      expect(new Set(first.map((r) => r.sessionId))).toEqual(new Set(["s1"]));
      expect(new Set(other.map((r) => r.sessionId))).toEqual(new Set(["s2"]));
      expect(other.map((r) => r.attachMethod)).toEqual(["new", "prefix", "prefix"]);
    });
  }

  it("never shows one organization's sessions or steps to another", async () => {
    const h = harness();
    const base = opening("sys", "Hello");
    await h.request(base, { stepId: "shared-step" });
    const other = await h.response("shared-step", { orgId: "org-b" });
    expect(other).toMatchObject({ attachMethod: "unpaired", paired: false });
    expect((await listSessions(h.state, "org-a")).map((s) => s.sessionId)).toEqual(["s1"]);
    expect((await listSessions(h.state, "org-b")).map((s) => s.sessionId)).toEqual([other.sessionId]);
    const opts = { now: h.clock.now, idleTimeoutMs: 30 * MINUTE };
    expect(await describeSession(h.state, "org-b", "s1", opts)).toBeUndefined();
  });

  it("lets session_hint win over a matching prefix", async () => {
    const h = harness();
    const base = opening("sys", "Summarise the inbox.");
    const a = await h.request(base);
    const b = await h.request(opening("sys", "Other task"), { sessionHint: "hint-b" });
    const hinted = await h.request(grow(base, "x", 1), { sessionHint: "hint-b" });
    expect(a.sessionId).toBe("s1");
    expect(b).toMatchObject({ sessionId: "s2", attachMethod: "new" });
    expect(hinted).toMatchObject({
      sessionId: "s2",
      attachMethod: "session_hint",
      stepIndex: 1,
      turnIndex: 2,
    });
  });

  it("scopes a hint to its agent", async () => {
    const h = harness();
    const first = await h.request(opening("sys", "one"), { sessionHint: "h" });
    const other = await h.request(opening("sys", "two"), { sessionHint: "h", agentId: "agent-2" });
    expect(other.sessionId).not.toBe(first.sessionId);
    expect(other.attachMethod).toBe("new");
  });

  it("adopts a first hint on a hint-less session and splits on a conflicting one", async () => {
    const h = harness();
    const base = opening("sys", "Task");
    await h.request(base);
    const adopted = await h.request(grow(base, "x", 1), { sessionHint: "h1" });
    const conflicting = await h.request(grow(base, "x", 2), { sessionHint: "h2" });
    const byHint = await h.request(grow(base, "y", 1), { sessionHint: "h1" });
    expect(adopted).toMatchObject({ sessionId: "s1", attachMethod: "prefix" });
    expect(conflicting).toMatchObject({ sessionId: "s2", attachMethod: "new" });
    expect(byHint).toMatchObject({ sessionId: "s1", attachMethod: "session_hint" });
  });

  it("starts a new session when a stale session's opening is repeated verbatim", async () => {
    const h = harness();
    const base = opening("You summarise the inbox.", "Summarise today's mail.");
    const run1 = await h.request(base);
    h.clock.advance(60 * MINUTE);
    const run2 = await h.request(base);
    expect(run1.sessionId).toBe("s1");
    expect(run2).toMatchObject({ sessionId: "s2", attachMethod: "new" });
  });

  it("resumes a stale conversation that the request extends", async () => {
    const h = harness();
    const base = opening("sys", "Plan the trip.");
    await h.request(grow(base, "x", 2));
    h.clock.advance(24 * 60 * MINUTE);
    const resumed = await h.request([
      ...grow(base, "x", 2),
      entry("assistant", "done"),
      entry("user", "And hotels?"),
    ]);
    expect(resumed).toMatchObject({ sessionId: "s1", attachMethod: "prefix", turnIndex: 2, stepIndex: 1 });
    expect(resumed.closedTurns).toEqual([{ turnId: "s1/1", reason: "idle" }]);
  });
});
