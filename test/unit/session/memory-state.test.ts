import { describe, expect, it } from "vitest";
import { MemorySessionState } from "../../../src/session/memory-state.js";
import { listSessions } from "../../../src/session/queries.js";
import type { SessionRecord } from "../../../src/session/records.js";
import { grow, harness, opening } from "./helpers.js";

describe("memory state bounds", () => {
  it("evicts the least recently active sessions beyond maxSessions, with their steps and keys", async () => {
    const h = harness({}, { maxSessions: 3 });
    const bases = [1, 2, 3, 4, 5].map((i) => opening("sys", `task ${i}`));
    for (const b of bases) {
      await h.request(b);
      h.clock.advance(1_000);
    }
    // Task 1 was evicted: its continuation no longer finds it and starts afresh.
    const revived = await h.request(grow(bases[0]!, "x", 1));
    expect(revived).toMatchObject({ sessionId: "s6", attachMethod: "new" });
    h.clock.advance(1_000);
    // Task 5 is still held.
    expect(await h.request(grow(bases[4]!, "x", 1))).toMatchObject({
      sessionId: "s5",
      attachMethod: "prefix",
    });
    const size = h.state.size();
    expect(size.sessions).toBe(3);
    expect(size.evictedSessions).toBe(3);
    expect(size.steps).toBeLessThanOrEqual(3 * 2);
    expect((await listSessions(h.state, "org-a")).map((s) => s.sessionId)).toEqual(["s5", "s6", "s4"]);
  });

  it("holds memory flat over many sessions and long conversations", async () => {
    const h = harness({}, { maxSessions: 50, maxSteps: 200, maxBindingsPerSession: 4 });
    for (let i = 0; i < 200; i++) {
      const b = opening("sys", `task ${i}`);
      for (let step = 0; step < 10; step++) await h.request(grow(b, "x", step));
    }
    const size = h.state.size();
    expect(size.sessions).toBe(50);
    expect(size.steps).toBeLessThanOrEqual(200);
    // Per session: at most 4 keys in each of prefix and opening.
    expect(size.bindings).toBeLessThanOrEqual(50 * 4 * 2);
  });

  it("keeps records of one organization out of another's reach and returns copies", async () => {
    const state = new MemorySessionState();
    const record = {
      id: "x",
      orgId: "o1",
      agentId: "a",
      lastSeenAt: 1,
      signals: [],
    } as unknown as SessionRecord;
    await state.putSession("o1", record);
    expect(await state.getSession("o2", "x")).toBeUndefined();
    const copy = await state.getSession("o1", "x");
    copy!.signals.push("changed");
    expect((await state.getSession("o1", "x"))?.signals).toEqual([]);
  });

  it("cannot be confused by ids that embed separators", async () => {
    const state = new MemorySessionState();
    const record = {
      id: "s",
      orgId: "o",
      agentId: "a",
      lastSeenAt: 1,
      signals: [],
    } as unknown as SessionRecord;
    await state.putSession("o", record);
    await state.bind("o", "a\u0000b", "hint", "c", "s");
    expect(await state.lookup("o", "a", "hint", ["b\u0000c"])).toEqual([undefined]);
    expect(await state.lookup("o", "a\u0000b", "hint", ["c"])).toEqual(["s"]);
  });

  it("serialises exclusive work per agent and runs other agents concurrently", async () => {
    const state = new MemorySessionState();
    const log: string[] = [];
    const slow = (tag: string) => async () => {
      log.push(`${tag}+`);
      await new Promise((r) => setTimeout(r, 5));
      log.push(`${tag}-`);
    };
    await Promise.all([
      state.exclusive("o", "a", slow("a1")),
      state.exclusive("o", "a", slow("a2")),
      state.exclusive("o", "b", slow("b1")),
    ]);
    expect(log.indexOf("a1-")).toBeLessThan(log.indexOf("a2+"));
    expect(log.indexOf("b1+")).toBeLessThan(log.indexOf("a1-"));
  });

  it("rejects bounds that are not positive integers", () => {
    expect(() => new MemorySessionState({ maxSessions: 0 })).toThrow(RangeError);
  });
});
