import { describe, expect, it } from "vitest";
import { entry, grow, harness, MINUTE, opening } from "./helpers.js";

describe("re-attachment after context compaction", () => {
  const system = "You are a coding agent.";
  const first = "Migrate the build to ESM.";

  const cases = [
    { name: "after 20 steps (the opening snapshot is no longer indexed)", steps: 20 },
    { name: "after 3 steps (a kept prefix of the session matches)", steps: 3 },
  ];
  for (const { name, steps } of cases) {
    it(`re-attaches by system prompt and first user message ${name}`, async () => {
      const h = harness();
      const base = opening(system, first);
      for (let step = 0; step < steps; step++) await h.request(grow(base, "loop", step));
      const compacted = [
        ...base,
        entry("assistant", "Summary: converted 12 files, 3 left."),
        entry("tool", "ok"),
      ];
      const next = await h.request(compacted);
      expect(next).toMatchObject({ sessionId: "s1", attachMethod: "reattached_system", turnIndex: 1 });
      expect(next.stepIndex).toBe(steps + 1);
      const after = await h.request([...compacted, entry("assistant", "next call"), entry("tool", "done")]);
      expect(after).toMatchObject({ sessionId: "s1", attachMethod: "prefix", stepIndex: steps + 2 });
    });
  }

  it("opens a new turn when the compacted request carries a new instruction", async () => {
    const h = harness();
    const base = opening(system, first);
    for (let step = 0; step < 20; step++) await h.request(grow(base, "loop", step));
    const next = await h.request([
      ...base,
      entry("assistant", "Summary"),
      entry("user", "Now update the docs."),
    ]);
    expect(next).toMatchObject({
      sessionId: "s1",
      attachMethod: "reattached_system",
      turnIndex: 2,
      stepIndex: 1,
    });
    expect(next.closedTurns).toEqual([{ turnId: "s1/1", reason: "new_instruction" }]);
  });

  it("re-attaches only within the window", async () => {
    const h = harness({ reattachWindowMs: 10 * MINUTE });
    const base = opening(system, first);
    for (let step = 0; step < 20; step++) await h.request(grow(base, "loop", step));
    h.clock.advance(11 * MINUTE);
    const next = await h.request([...base, entry("assistant", "Summary")]);
    expect(next).toMatchObject({ sessionId: "s2", attachMethod: "new" });
  });

  it("prefers the most recently written session when several share the opening", async () => {
    const h = harness();
    const base = opening(system, first);
    // Two runs of the same task, told apart by their hints, diverging after the opening.
    for (let step = 0; step < 20; step++) await h.request(grow(base, "one", step), { sessionHint: "run-1" });
    h.clock.advance(MINUTE);
    for (let step = 0; step < 20; step++) await h.request(grow(base, "two", step), { sessionHint: "run-2" });
    const next = await h.request([...base, entry("assistant", "Summary")]);
    expect(next).toMatchObject({ sessionId: "s2", attachMethod: "reattached_system" });
  });

  it("uses connection as the last resort, only when corroborated and recent", async () => {
    const h = harness();
    const base = opening(system, first);
    for (let step = 0; step < 5; step++) await h.request(grow(base, "loop", step), { connection: "conn-1" });
    // Compaction that dropped the system prompt and the first instruction.
    const summarised = [entry("user", "Summary of the work so far."), entry("assistant", "continuing")];
    const byConnection = await h.request(summarised, { connection: "conn-1" });
    expect(byConnection).toMatchObject({ sessionId: "s1", attachMethod: "connection" });

    const otherUser = await h.request(summarised, { connection: "conn-1", agentUser: "mallory" });
    expect(otherUser.attachMethod).toBe("new");
    const otherAgent = await h.request(summarised, { connection: "conn-1", agentId: "agent-2" });
    expect(otherAgent.attachMethod).toBe("new");

    const fresh = await h.request(opening(system, "An unrelated new task"), { connection: "conn-1" });
    expect(fresh.attachMethod).toBe("new");

    h.clock.advance(6 * MINUTE);
    const stale = await h.request([entry("user", "Summary D"), entry("assistant", "go")], {
      connection: "conn-1",
    });
    expect(stale.attachMethod).toBe("new");
  });

  it("does not let connection override a conversation that matches by prefix", async () => {
    const h = harness();
    const a = opening(system, "task A");
    const b = opening(system, "task B");
    await h.request(a, { connection: "shared" });
    await h.request(b, { connection: "shared" });
    const next = await h.request(grow(a, "x", 1), { connection: "shared" });
    expect(next).toMatchObject({ sessionId: "s1", attachMethod: "prefix" });
  });
});
