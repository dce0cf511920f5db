import { decodeTime, isValid } from "ulid";
import { describe, expect, it } from "vitest";
import { monotonicUlid } from "../../../src/identity/event-id.js";

describe("event ids", () => {
  it("are ULIDs carrying the minting millisecond", () => {
    const mint = monotonicUlid(() => 1_700_000_000_123);
    const id = mint();
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(isValid(id)).toBe(true);
    expect(decodeTime(id)).toBe(1_700_000_000_123);
  });

  it("sort in minting order within one millisecond and across them, even when the clock steps back", () => {
    const t = 1_700_000_000_000;
    const times = [t, t, t, t + 1, t + 1, t - 5, t + 2];
    let i = 0;
    const mint = monotonicUlid(() => times[i++] ?? t);
    const ids = times.map(() => mint());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("carries a random part into the next digit", () => {
    const mint = monotonicUlid(() => 0);
    let last = mint();
    for (let n = 0; n < 5000; n++) {
      const next = mint();
      expect(next > last).toBe(true);
      last = next;
    }
  });
});
