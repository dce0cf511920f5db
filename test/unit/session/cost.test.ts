import { describe, expect, it } from "vitest";
import { PrefixChain } from "../../../src/session/prefix-chain.js";
import { entry, grow, harness, opening } from "./helpers.js";

describe("cost of chaining", () => {
  it("looks up as many keys for step 200 of a 200-step conversation as for step 10", async () => {
    const h = harness();
    const base = opening("You are a coding agent.", "Refactor the parser.");
    const lookupsAt: Record<number, number> = {};
    for (let step = 1; step <= 200; step++) {
      const before = h.state.totalLookups();
      const placed = await h.request(grow(base, "loop", step - 1));
      await h.response(h.lastStepId());
      lookupsAt[step] = h.state.totalLookups() - before;
      expect(placed.stepIndex).toBe(step);
    }
    expect(lookupsAt[10]).toBeGreaterThan(0);
    expect(lookupsAt[200]! / lookupsAt[10]!).toBeLessThanOrEqual(1.5);
  });

  it("grows with the new messages of a step, capped by maxPrefixProbe", async () => {
    const h = harness({ maxPrefixProbe: 16 });
    const base = opening("sys", "task");
    await h.request(base);
    const before = h.state.lookups.prefix;
    await h.request(grow(base, "burst", 30)); // 60 new messages: more than the probe budget
    expect(h.state.lookups.prefix - before).toBe(16);
  });
});

describe("prefix keys", () => {
  it("depends on every entry, its role and the length", () => {
    const a = new PrefixChain([entry("system", "s"), entry("user", "u")]);
    const b = new PrefixChain([entry("system", "s"), entry("user", "u"), entry("assistant", "x")]);
    const c = new PrefixChain([entry("system", "s2"), entry("user", "u")]);
    const d = new PrefixChain([{ role: "assistant", digest: entry("user", "u").digest }]);
    expect(a.key(2)).toBe(b.key(2));
    expect(a.key(1)).toBe(b.key(1));
    expect(b.key(3)).not.toBe(b.key(2));
    expect(c.key(2)).not.toBe(a.key(2));
    expect(d.key(1)).not.toBe(new PrefixChain([entry("user", "u")]).key(1));
    expect(() => a.key(3)).toThrow(RangeError);
  });

  it("gives distinct keys across many generated conversations", () => {
    const keys = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const chain = new PrefixChain(grow(opening("sys", `task ${i}`), "x", 10));
      for (let k = 1; k <= chain.length; k++) keys.add(chain.key(k));
    }
    // Every prefix is distinct except the shared one-entry system prefix.
    expect(keys.size).toBe(200 * 22 - 199);
  });
});
