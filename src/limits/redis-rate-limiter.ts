import { createHash } from "node:crypto";
import { RedisConnection } from "../redis/connection.js";
import { InProcessRateLimiter, type RateLimiter } from "./rate-limiter.js";

/**
 * The rate limiter as seen by a replica that shares its counters over the network: the same
 * contract as {@link RateLimiter} (fixed one-minute windows, per key and optionally per org;
 * returns the exhausted scope or undefined), asynchronous because the count lives in Redis.
 */
export interface AsyncRateLimiter {
  take(
    orgId: string,
    keyId: string,
    perKey: number,
    perOrg: number,
    now: number,
  ): Promise<"key" | "org" | undefined>;
}

const WINDOW_MS = 60_000;
/** Counters live two windows, so a key outlasts its window even between replicas whose clocks differ. */
const COUNTER_TTL_MS = 2 * WINDOW_MS;

/**
 * Check-then-count in one atomic step, so concurrent takes from any number of replicas admit
 * exactly the limit. A refused request counts against nothing (as in the in-process limiter):
 * the key is checked first, then the org, and both counters grow only when both allow.
 * KEYS: key counter, org counter. ARGV: per-key limit, per-org limit (0 = none), ttl in ms.
 */
const TAKE_SCRIPT = `
local perKey = tonumber(ARGV[1])
local perOrg = tonumber(ARGV[2])
if perKey > 0 and tonumber(redis.call('GET', KEYS[1]) or '0') >= perKey then return 1 end
if perOrg > 0 then
  if tonumber(redis.call('GET', KEYS[2]) or '0') >= perOrg then return 2 end
  if redis.call('INCR', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[3]) end
end
if redis.call('INCR', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 0
`;
const TAKE_SHA = createHash("sha1").update(TAKE_SCRIPT).digest("hex");

/** Redis Cluster places keys by the `{...}` part: both counters of an org share it, so the script may touch both. */
export function counterKeys(orgId: string, keyId: string, now: number): { key: string; org: string } {
  const window = Math.floor(now / WINDOW_MS);
  const org = encodeURIComponent(orgId);
  return {
    key: `guard:rl:${window}:key:{${org}}:${encodeURIComponent(keyId)}`,
    org: `guard:rl:${window}:org:{${org}}`,
  };
}

export interface RateLimiterLogger {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

export interface RedisRateLimiterOptions {
  /** A take that Redis has not answered in this time is decided locally (default 100 ms). */
  readonly commandTimeoutMs?: number;
  /** How long `open` waits for the first connection before starting degraded (default 2 s). */
  readonly startupTimeoutMs?: number;
  /** After a failure, takes skip Redis for this long instead of each waiting for a timeout (default 1 s). */
  readonly retryAfterMs?: number;
  readonly logger?: RateLimiterLogger;
}

export interface RedisRateLimiterStats {
  /** Takes decided by Redis (exact across replicas). */
  readonly redis_takes: number;
  /** Takes decided by this replica's own counters while Redis was unavailable. */
  readonly fallback_takes: number;
  readonly redis_errors: number;
  readonly degraded: boolean;
}

const silentLogger: RateLimiterLogger = { warn() {}, info() {} };

/**
 * Fixed-window counters in Redis, exact across replicas (`guard:rl:<window>:<scope>:<id>`).
 *
 * When Redis is down, slow or not yet reachable, a take is decided by in-process counters
 * instead (the choice between failing open and failing closed made for availability with a
 * bound): each replica then enforces the limit on its own share, so the service-wide budget is
 * at most replicas x limit for the outage, never unlimited, and no request waits on a dead
 * server. Every such take is counted (`stats().fallback_takes`); the switch to degraded and the
 * recovery (the first take Redis decides again) are each logged once. After a failure takes skip
 * Redis for `retryAfterMs`, or until the connection is ready again, whichever comes first. Counts
 * do not merge back: the window Redis resumes in only knows the takes it saw.
 */
export class RedisRateLimiter implements AsyncRateLimiter {
  readonly #connection: RedisConnection;
  readonly #fallback: RateLimiter = new InProcessRateLimiter();
  readonly #logger: RateLimiterLogger;
  readonly #commandTimeoutMs: number;
  readonly #retryAfterMs: number;
  #skipRedisUntil = 0;
  #degraded = false;
  #redisTakes = 0;
  #fallbackTakes = 0;
  #redisErrors = 0;

  private constructor(connection: RedisConnection, options: RedisRateLimiterOptions) {
    this.#connection = connection;
    this.#logger = options.logger ?? silentLogger;
    this.#commandTimeoutMs = options.commandTimeoutMs ?? 100;
    this.#retryAfterMs = options.retryAfterMs ?? 1_000;
  }

  /** Connects to `url` (`redis://host:port`); starts degraded, reconnecting in the background, if Redis does not answer in time. */
  static async open(url: string, options: RedisRateLimiterOptions = {}): Promise<RedisRateLimiter> {
    // The connection reports before the limiter exists (a failed first connect): hold it until then.
    let limiter: RedisRateLimiter | undefined;
    let early: Error | undefined;
    const connection = await RedisConnection.open(url, {
      connectTimeoutMs: options.startupTimeoutMs ?? 2_000,
      stallMs: Math.max(10 * (options.commandTimeoutMs ?? 100), 1_000),
      onError: (error) => {
        if (limiter) limiter.#failed(error);
        else early ??= error;
      },
      onReady: () => {
        // Back: the next take tries Redis again; recovery is logged once one succeeds.
        if (limiter) limiter.#skipRedisUntil = 0;
      },
    });
    limiter = new RedisRateLimiter(connection, options);
    if (early) limiter.#failed(early);
    return limiter;
  }

  async take(
    orgId: string,
    keyId: string,
    perKey: number,
    perOrg: number,
    now: number,
  ): Promise<"key" | "org" | undefined> {
    if (this.#connection.ready && Date.now() >= this.#skipRedisUntil) {
      try {
        const verdict = await this.#takeInRedis(orgId, keyId, perKey, perOrg, now);
        this.#redisTakes++;
        this.#recovered();
        return verdict;
      } catch (error) {
        this.#failed(error as Error);
      }
    }
    this.#fallbackTakes++;
    return this.#fallback.take(orgId, keyId, perKey, perOrg, now);
  }

  stats(): RedisRateLimiterStats {
    return {
      redis_takes: this.#redisTakes,
      fallback_takes: this.#fallbackTakes,
      redis_errors: this.#redisErrors,
      degraded: this.#degraded,
    };
  }

  async close(): Promise<void> {
    await this.#connection.close();
  }

  async #takeInRedis(orgId: string, keyId: string, perKey: number, perOrg: number, now: number) {
    const keys = counterKeys(orgId, keyId, now);
    const args = [
      "2",
      keys.key,
      keys.org,
      String(Math.max(0, perKey)),
      String(Math.max(0, perOrg)),
      String(COUNTER_TTL_MS),
    ];
    let code: unknown;
    try {
      code = await this.#connection.send(["EVALSHA", TAKE_SHA, ...args], this.#commandTimeoutMs);
    } catch (error) {
      // First use on this server (or after a SCRIPT FLUSH): send the script itself once.
      if (!String((error as Error).message).startsWith("NOSCRIPT")) throw error;
      code = await this.#connection.send(["EVAL", TAKE_SCRIPT, ...args], this.#commandTimeoutMs);
    }
    if (code === 1) return "key";
    if (code === 2) return "org";
    if (code === 0) return undefined;
    throw new Error(`unexpected rate-limit script reply: ${String(code)}`);
  }

  #failed(error: Error): void {
    this.#redisErrors++;
    this.#skipRedisUntil = Date.now() + this.#retryAfterMs;
    if (this.#degraded) return;
    this.#degraded = true;
    this.#logger.warn(
      { err: error.message },
      "redis rate limiter unavailable: limits enforced per replica until it recovers",
    );
  }

  #recovered(): void {
    if (!this.#degraded) return;
    this.#degraded = false;
    this.#skipRedisUntil = 0;
    this.#logger.info(
      { fallback_takes: this.#fallbackTakes },
      "redis rate limiter recovered: limits exact again",
    );
  }
}
