import { randomBytes } from "node:crypto";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { counterKeys, RedisRateLimiter } from "../../src/limits/redis-rate-limiter.js";
import { redisReachable, requireOrSkip, TEST_REDIS_URL } from "../helpers/servers.js";

/**
 * Runs against the machine's Redis (GUARD_TEST_REDIS_URL, or the loopback server). Every test uses
 * organizations named for this run, so parallel runs count separately; counters expire by themselves.
 * In CI an unreachable server fails the file instead of skipping it.
 */
const REDIS_URL = TEST_REDIS_URL;
const up = requireOrSkip("redis-rate-limiter", (await redisReachable(REDIS_URL)) ? [] : [`Redis at ${REDIS_URL}`]);

const run = randomBytes(6).toString("hex");
let orgs = 0;
const newOrg = () => `org_${run}_${++orgs}`;
/** A moment well inside a window, so a test's takes never straddle two. */
const WINDOW_START = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);

describe.skipIf(!up)("RedisRateLimiter", () => {
  let replicaA: RedisRateLimiter;
  let replicaB: RedisRateLimiter;

  beforeAll(async () => {
    [replicaA, replicaB] = await Promise.all([
      RedisRateLimiter.open(REDIS_URL),
      RedisRateLimiter.open(REDIS_URL),
    ]);
  });

  afterAll(async () => {
    await Promise.all([replicaA?.close(), replicaB?.close()]);
  });

  it("admits exactly the limit under 50 concurrent takes spread over two replicas", async () => {
    const org = newOrg();
    const now = WINDOW_START + 1_000;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 === 0 ? replicaA : replicaB).take(org, "key_1", 10, 0, now),
      ),
    );
    expect(results.filter((r) => r === undefined).length).toBe(10);
    expect(results.filter((r) => r === "key").length).toBe(40);
    expect(replicaA.stats()).toMatchObject({ fallback_takes: 0, degraded: false });
  });

  it("limits the organization across its keys, and a refused take spends no budget", async () => {
    const org = newOrg();
    const now = WINDOW_START + 2_000;
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? replicaA : replicaB).take(org, `key_${i % 3}`, 100, 12, now),
      ),
    );
    expect(results.filter((r) => r === undefined).length).toBe(12);
    expect(results.filter((r) => r === "org").length).toBe(18);

    // A key over its own limit is refused as "key" and leaves the org budget untouched.
    const other = newOrg();
    expect(await replicaA.take(other, "k", 1, 3, now)).toBeUndefined();
    expect(await replicaA.take(other, "k", 1, 3, now)).toBe("key");
    expect(await replicaA.take(other, "k", 1, 3, now)).toBe("key");
    expect(await replicaB.take(other, "k2", 5, 3, now)).toBeUndefined();
    expect(await replicaB.take(other, "k3", 5, 3, now)).toBeUndefined();
    expect(await replicaB.take(other, "k3", 5, 3, now)).toBe("org");
    // Another organization is counted apart.
    expect(await replicaB.take(newOrg(), "k", 1, 1, now)).toBeUndefined();
  });

  it("starts a fresh count when the window rolls over", async () => {
    const org = newOrg();
    const lastMoment = WINDOW_START + 59_999;
    for (let i = 0; i < 3; i++) expect(await replicaA.take(org, "k", 3, 3, lastMoment)).toBeUndefined();
    expect(await replicaB.take(org, "k", 3, 3, lastMoment)).toBe("key");
    const nextWindow = WINDOW_START + 60_000;
    for (let i = 0; i < 3; i++) expect(await replicaB.take(org, "k", 3, 3, nextWindow)).toBeUndefined();
    expect(await replicaA.take(org, "k", 3, 3, nextWindow)).toBe("key");
  });

  it("keeps its counters under guard:rl:<window>:<scope>:<id>, expiring on their own", async () => {
    const org = newOrg();
    const now = WINDOW_START + 3_000;
    await replicaA.take(org, "k", 5, 5, now);
    const keys = counterKeys(org, "k", now);
    expect(keys.key).toBe(`guard:rl:${Math.floor(now / 60_000)}:key:{${org}}:k`);
    const client = createClient({ url: REDIS_URL });
    await client.connect();
    try {
      expect(await client.get(keys.key)).toBe("1");
      expect(await client.get(keys.org)).toBe("1");
      const ttl = await client.pTTL(keys.key);
      expect(ttl).toBeGreaterThan(60_000);
      expect(ttl).toBeLessThanOrEqual(120_000);
    } finally {
      await client.close();
    }
  });

  it("falls back to in-process counters, counted and logged once, when Redis is unreachable", async () => {
    const warnings: string[] = [];
    const offline = await RedisRateLimiter.open("redis://127.0.0.1:1", {
      startupTimeoutMs: 200,
      logger: { warn: (_fields, message) => warnings.push(message), info: () => undefined },
    });
    try {
      const org = newOrg();
      const results: (string | undefined)[] = [];
      for (let i = 0; i < 5; i++) results.push(await offline.take(org, "k", 3, 0, WINDOW_START));
      expect(results).toEqual([undefined, undefined, undefined, "key", "key"]);
      expect(offline.stats()).toMatchObject({ redis_takes: 0, fallback_takes: 5, degraded: true });
      expect(offline.stats().redis_errors).toBeGreaterThan(0);
      expect(warnings.length).toBe(1);
    } finally {
      await offline.close();
    }
  });
});
