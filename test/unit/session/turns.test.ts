import { describe, expect, it } from "vitest";
import { describeSession } from "../../../src/session/queries.js";
import { isNewInstruction, planTurn } from "../../../src/session/turns.js";
import { entry, grow, harness, MINUTE, opening } from "./helpers.js";

const base = opening("You are a coding agent.", "Fix the failing test.");

describe("turns", () => {
  it("opens a new turn on a new user instruction and restarts step numbers", async () => {
    const h = harness();
    const turn1 = grow(base, "t1", 2);
    await h.request(base);
    await h.request(grow(base, "t1", 1));
    await h.request(turn1);
    const next = await h.request([
      ...turn1,
      entry("assistant", "Done."),
      entry("user", "Now run the linter."),
    ]);
    expect(next).toMatchObject({ turnIndex: 2, stepIndex: 1, turnId: "s1/2", attachMethod: "prefix" });
    expect(next.closedTurns).toEqual([{ turnId: "s1/1", reason: "new_instruction" }]);
  });

  it("treats a repeated instruction text as new when it is a new message", async () => {
    const h = harness();
    const first = [...base, entry("assistant", "Part 1"), entry("user", "continue")];
    await h.request(first);
    const again = await h.request([...first, entry("assistant", "Part 2"), entry("user", "continue")]);
    expect(again).toMatchObject({ turnIndex: 2, stepIndex: 1 });
  });

  it("closes the turn on a max_tokens response", async () => {
    const h = harness();
    const req = await h.request(base);
    const res = await h.response(h.lastStepId(), { finishReason: "max_tokens" });
    expect(res.closedTurns).toEqual([{ turnId: req.turnId, reason: "max_tokens" }]);
    const next = await h.request([...base, entry("assistant", "truncated answer")]);
    expect(next).toMatchObject({ sessionId: req.sessionId, turnIndex: 2, stepIndex: 1, closedTurns: [] });
  });

  it("closes the turn when Conclude reports a block", async () => {
    const h = harness();
    const req = await h.request(base);
    expect(
      await h.tracker.conclude({
        orgId: "org-a",
        sessionId: req.sessionId,
        stepId: h.lastStepId(),
        kind: "step/request",
        decision: "allow",
      }),
    ).toEqual({ turnClosed: false, recorded: true });
    const blocked = await h.tracker.conclude({
      orgId: "org-a",
      sessionId: req.sessionId,
      stepId: h.lastStepId(),
      kind: "step/request",
      decision: "block",
    });
    expect(blocked).toEqual({ turnClosed: true, recorded: true });
    const next = await h.request(base);
    expect(next).toMatchObject({ sessionId: req.sessionId, turnIndex: 2, stepIndex: 1 });
    const detail = await describeSession(h.state, "org-a", req.sessionId, {
      now: h.clock.now,
      idleTimeoutMs: 30 * MINUTE,
    });
    expect(detail?.turns[0]).toMatchObject({ open: false, closeReason: "block" });
    expect(detail?.turns[0]?.steps[0]?.decision).toBe("block");
  });

  it("answers Conclude for a session it does not hold without failing the verdict", async () => {
    const h = harness();
    const result = await h.tracker.conclude({
      orgId: "org-a",
      sessionId: "nope",
      stepId: "x",
      kind: "step/request",
      decision: "block",
    });
    expect(result).toEqual({ turnClosed: false, recorded: false });
    expect(h.tracker.stats().concludeMisses).toBe(1);
  });

  const idle = [
    {
      name: "keeps the turn within the idle timeout",
      gap: 29 * MINUTE,
      turnIndex: 1,
      closed: [] as unknown[],
    },
    {
      name: "closes the turn after the idle timeout",
      gap: 31 * MINUTE,
      turnIndex: 2,
      closed: [{ turnId: "s1/1", reason: "idle" }],
    },
  ];
  for (const { name, gap, turnIndex, closed } of idle) {
    it(name, async () => {
      const h = harness();
      await h.request(base);
      h.clock.advance(gap);
      const next = await h.request(grow(base, "x", 1));
      expect(next).toMatchObject({ sessionId: "s1", attachMethod: "prefix", turnIndex });
      expect(next.closedTurns).toEqual(closed);
    });
  }

  it("honours a configured idle timeout and dates the close when it expired", async () => {
    const h = harness({ idleTimeoutMs: 5 * MINUTE });
    const start = h.clock.now;
    await h.request(base);
    h.clock.advance(6 * MINUTE);
    const opts = { now: h.clock.now, idleTimeoutMs: 5 * MINUTE };
    // Before the next event the query already shows the turn closed by the timeout.
    const before = await describeSession(h.state, "org-a", "s1", opts);
    expect(before?.turns[0]).toMatchObject({
      open: false,
      closeReason: "idle",
      closedAt: start + 5 * MINUTE,
    });
    await h.request(grow(base, "x", 1));
    const after = await describeSession(h.state, "org-a", "s1", opts);
    expect(after?.turns.map((t) => [t.index, t.open, t.closeReason, t.closedAt])).toEqual([
      [1, false, "idle", start + 5 * MINUTE],
      [2, true, undefined, undefined],
    ]);
  });
});

describe("turn decisions (pure)", () => {
  const turn = { id: "s/1", sessionId: "s", index: 1, openedAt: 0, lastActivityAt: 100, stepCount: 3 };
  const table = [
    { note: "no turn yet", latest: undefined, now: 0, fresh: false, want: { open: true } },
    { note: "continue", latest: turn, now: 200, fresh: false, want: { open: false } },
    {
      note: "instruction",
      latest: turn,
      now: 200,
      fresh: true,
      want: { open: true, close: { reason: "new_instruction", at: 200 } },
    },
    {
      note: "idle wins",
      latest: turn,
      now: 1_200,
      fresh: true,
      want: { open: true, close: { reason: "idle", at: 1_100 } },
    },
    {
      note: "closed",
      latest: { ...turn, closedAt: 150, closeReason: "block" as const },
      now: 200,
      fresh: false,
      want: { open: true },
    },
  ];
  for (const { note, latest, now, fresh, want } of table) {
    it(`planTurn: ${note}`, () => expect(planTurn(latest, now, fresh, 1_000)).toEqual(want));
  }

  it("isNewInstruction: position when extending, recent digests otherwise", () => {
    expect(isNewInstruction(undefined, true, 3, [])).toBe(false);
    expect(isNewInstruction({ index: 4, digest: "d" }, true, 4, ["d"])).toBe(true);
    expect(isNewInstruction({ index: 3, digest: "d" }, true, 4, [])).toBe(false);
    expect(isNewInstruction({ index: 0, digest: "d" }, false, 0, ["a", "d"])).toBe(false);
    expect(isNewInstruction({ index: 0, digest: "e" }, false, 0, ["a", "d"])).toBe(true);
  });
});
