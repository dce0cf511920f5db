import { createHash, randomUUID } from "node:crypto";
import { RedisConnection, redactUrl } from "../redis/connection.js";
import type { AgentRecord, SessionRecord, StepRecord, TurnRecord } from "./records.js";
import type { IndexKind, SessionState, StateWrite } from "./state.js";
import { KeyedQueue } from "./keyed-queue.js";

/** Tuning of the Redis-backed session state. Times are milliseconds. */
export interface RedisSessionStateOptions {
  /**
   * First part of every key (default `guard:s`); keys read `<prefix>:{<org>}:...`. Tests give
   * each run its own prefix so that runs never meet. Must not contain `{` or `}`, which would
   * move the cluster hash tag.
   */
  readonly keyPrefix?: string;
  /**
   * How long hot state outlives its last write (default 2 h: the 30 min re-attach window and
   * idle timeout, plus a margin of 90 min so that a session past both is still recognised as
   * stale rather than forgotten). A conversation resumed after this starts a new session; the
   * events of the old one stay in the store.
   */
  readonly idleTtlMs?: number;
  /** A command Redis has not answered in this time fails the call (default 1 s). */
  readonly commandTimeoutMs?: number;
  /**
   * How long an agent's lock holds if its holder dies without releasing it (default 10 s): far
   * above an attach's handful of round trips, so a live holder does not lose it mid-work unless Redis
   * is so slow that most commands near their timeout. Were that to happen, the next holder could
   * number a step alongside it; the release still never deletes a lock it no longer owns.
   */
  readonly lockLeaseMs?: number;
  /** How long `exclusive` waits for an agent's lock before failing the call (default 5 s). */
  readonly lockWaitMs?: number;
  /** How long `open` waits for the first connection before returning disconnected (default 2 s). */
  readonly startupTimeoutMs?: number;
  readonly logger?: SessionStateLogger;
}

export interface SessionStateLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

const DEFAULTS = {
  keyPrefix: "guard:s",
  idleTtlMs: 2 * 60 * 60_000,
  commandTimeoutMs: 1_000,
  lockLeaseMs: 10_000,
  lockWaitMs: 5_000,
  startupTimeoutMs: 2_000,
} as const;

/**
 * Redis could not serve a call: not connected, too slow, or an agent's lock stayed busy past the
 * wait bound. The tracker lets it propagate, so the evaluate fails instead of waiting.
 */
export class SessionStateUnavailableError extends Error {
  override readonly name = "SessionStateUnavailableError";
}

/**
 * A script run by its SHA once Redis knows it (EVALSHA), by its text the first time. Scripts
 * make the conditional writes atomic (write only while the session is held, as the in-memory
 * state does) and touch only keys passed in KEYS, all under one org's hash tag.
 */
class Script {
  readonly sha: string;
  constructor(readonly text: string) {
    this.sha = createHash("sha1").update(text).digest("hex");
  }
}

/**
 * A batch of writes, applied in order in one call (the tracker's writes of one event cost one
 * round trip). ARGV: ttl, write time, expiry cutoff (`(<ms>`), then one group per write, each
 * taking a fixed number of KEYS and ARGV:
 *
 * - `agent` (KEYS agent, agent index; ARGV json, agent id): writes the agent and indexes it by
 *   write time, dropping index entries whose key has expired.
 * - `session` (KEYS session, by-seen index, by-write index, turns, steps; ARGV json, id,
 *   lastSeenAt): writes the session and indexes it twice, by lastSeenAt for listing and by write
 *   time to find entries whose key has expired (those are dropped from both); its turns and
 *   steps are refreshed with it, so they live exactly as long.
 * - `turn` (KEYS session, turns; ARGV turn id, json): only while the session is held.
 * - `step` (KEYS session, steps, step pointer; ARGV field, json): the step, and the pointer
 *   that finds it by (agent, step_id) holding the step itself (one read finds it), only while
 *   the session is held.
 * - `bind` (KEYS session, binding; ARGV session id): only while the session is held.
 *
 * Every key is passed in KEYS, all under one org's hash tag.
 */
const WRITE = new Script(`
local ttl, now, cutoff = ARGV[1], ARGV[2], ARGV[3]
local k, a = 1, 4
while a <= #ARGV do
  local op = ARGV[a]
  if op == 'agent' then
    redis.call('SET', KEYS[k], ARGV[a + 1], 'PX', ttl)
    redis.call('ZADD', KEYS[k + 1], now, ARGV[a + 2])
    redis.call('ZREMRANGEBYSCORE', KEYS[k + 1], '-inf', cutoff)
    redis.call('PEXPIRE', KEYS[k + 1], ttl)
    k, a = k + 2, a + 3
  elseif op == 'session' then
    redis.call('SET', KEYS[k], ARGV[a + 1], 'PX', ttl)
    redis.call('ZADD', KEYS[k + 1], ARGV[a + 3], ARGV[a + 2])
    redis.call('ZADD', KEYS[k + 2], now, ARGV[a + 2])
    local gone = redis.call('ZRANGEBYSCORE', KEYS[k + 2], '-inf', cutoff, 'LIMIT', 0, 256)
    for _, id in ipairs(gone) do
      redis.call('ZREM', KEYS[k + 1], id)
      redis.call('ZREM', KEYS[k + 2], id)
    end
    for i = k + 1, k + 4 do redis.call('PEXPIRE', KEYS[i], ttl) end
    k, a = k + 5, a + 4
  elseif op == 'turn' then
    if redis.call('EXISTS', KEYS[k]) == 1 then
      redis.call('HSET', KEYS[k + 1], ARGV[a + 1], ARGV[a + 2])
      redis.call('PEXPIRE', KEYS[k + 1], ttl)
    end
    k, a = k + 2, a + 3
  elseif op == 'step' then
    if redis.call('EXISTS', KEYS[k]) == 1 then
      redis.call('HSET', KEYS[k + 1], ARGV[a + 1], ARGV[a + 2])
      redis.call('PEXPIRE', KEYS[k + 1], ttl)
      redis.call('SET', KEYS[k + 2], ARGV[a + 2], 'PX', ttl)
    end
    k, a = k + 3, a + 3
  elseif op == 'bind' then
    if redis.call('EXISTS', KEYS[k]) == 1 then
      redis.call('SET', KEYS[k + 1], ARGV[a + 1], 'PX', ttl)
    end
    k, a = k + 2, a + 2
  else
    return redis.error_reply('unknown write ' .. tostring(op))
  end
end
return 0
`);

/** Deletes the lock only if it still holds our token: a lock that expired and was retaken stays. */
const RELEASE = new Script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

/** Sessions read per page while listing; expired entries met on the way are dropped. */
const LIST_PAGE = 64;

/**
 * Key names of one organization. Every key carries the org as its cluster hash tag, so the
 * scripts and MGETs of one org address one slot; each variable part is URI-encoded, so no id
 * (ids are caller strings) can contain `:`, `{` or `}` and make two tuples share a key.
 */
class OrgKeys {
  readonly #base: string;
  constructor(prefix: string, orgId: string) {
    this.#base = `${prefix}:{${enc(orgId)}}`;
  }
  agent(agentId: string) {
    return `${this.#base}:a:${enc(agentId)}`;
  }
  /** Zset of agent ids by write time. */
  agents() {
    return `${this.#base}:ai`;
  }
  session(sessionId: string) {
    return `${this.#base}:s:${enc(sessionId)}`;
  }
  /** Zset of session ids by lastSeenAt (the tracker's clock). */
  sessionsBySeen() {
    return `${this.#base}:sl`;
  }
  /** Zset of session ids by write time (the real clock that TTLs run on). */
  sessionsByWrite() {
    return `${this.#base}:sw`;
  }
  /** Hash turn id -> turn. */
  turns(sessionId: string) {
    return `${this.#base}:t:${enc(sessionId)}`;
  }
  /** Hash step field -> step. */
  steps(sessionId: string) {
    return `${this.#base}:st:${enc(sessionId)}`;
  }
  /** Session id holding the step of (agent, step_id). */
  stepOwner(agentId: string, stepId: string) {
    return `${this.#base}:sp:${stepField(agentId, stepId)}`;
  }
  binding(agentId: string, index: IndexKind, key: string) {
    return `${this.#base}:b:${enc(agentId)}:${index}:${enc(key)}`;
  }
  lock(agentId: string) {
    return `${this.#base}:l:${enc(agentId)}`;
  }
}

/**
 * SessionState in Redis: the hot session state shared by every replica, so that the two halves
 * of a step, or consecutive requests of one conversation, may land on different replicas.
 *
 * Layout (`<prefix>:{<org>}:...`): agents and sessions as JSON strings, a session's turns and
 * steps as hashes, bindings and step pointers (holding the step itself) as strings, two zsets per org to list sessions.
 * Every key has a TTL of `idleTtlMs`, refreshed when written; a session's turns and steps are
 * refreshed with the session, so idle state expires as a whole. That TTL replaces the in-memory
 * state's LRU bounds: memory follows the activity of the last `idleTtlMs`, not all history.
 *
 * `exclusive` is a lock per (org, agent) in Redis: SET NX PX with a random token, polled with
 * a growing backoff up to `lockWaitMs`, released by a script that deletes only its own token.
 * Calls of one process for one agent queue locally first, so a replica polls Redis once per
 * agent, not once per waiting request. A lock whose release failed (or whose taking went
 * unanswered) is released once Redis answers again, before this process next takes it, so an
 * outage does not leave the agent busy for the rest of the lease. Every command has a deadline and
 * the connection does not queue commands while disconnected: when Redis is down or slow, calls
 * throw {@link SessionStateUnavailableError} within the bounds instead of hanging, and a
 * connection that stops answering is replaced (see {@link RedisConnection}).
 */
export class RedisSessionState implements SessionState {
  readonly #connection: RedisConnection;
  readonly #prefix: string;
  readonly #ttlMs: number;
  readonly #commandTimeoutMs: number;
  readonly #leaseMs: number;
  readonly #waitMs: number;
  readonly #localQueue = new KeyedQueue();
  /** Locks that may still hold our token after a failed call: lock key -> token, time taken. */
  readonly #unreleased = new Map<string, { token: string; at: number }>();
  #commands = 0;
  #roundTrips = 0;
  #inFlight = 0;
  /** Warned of an outage, and no command has succeeded since. */
  #degraded = false;
  readonly #logger: SessionStateLogger | undefined;

  private constructor(connection: RedisConnection, options: RedisSessionStateOptions) {
    this.#connection = connection;
    this.#prefix = options.keyPrefix ?? DEFAULTS.keyPrefix;
    this.#ttlMs = options.idleTtlMs ?? DEFAULTS.idleTtlMs;
    this.#commandTimeoutMs = options.commandTimeoutMs ?? DEFAULTS.commandTimeoutMs;
    this.#leaseMs = options.lockLeaseMs ?? DEFAULTS.lockLeaseMs;
    this.#waitMs = options.lockWaitMs ?? DEFAULTS.lockWaitMs;
    this.#logger = options.logger;
    if (/[{}]/.test(this.#prefix)) throw new RangeError("keyPrefix must not contain { or }");
    for (const [name, value] of Object.entries({
      idleTtlMs: this.#ttlMs,
      commandTimeoutMs: this.#commandTimeoutMs,
      lockLeaseMs: this.#leaseMs,
      lockWaitMs: this.#waitMs,
    })) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
    }
  }

  /**
   * Connects to `url`. A server that does not answer within `startupTimeoutMs` does not stop the
   * replica from starting: the client keeps reconnecting and calls fail until it is back.
   */
  static async open(url: string, options: RedisSessionStateOptions = {}): Promise<RedisSessionState> {
    const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULTS.commandTimeoutMs;
    // The connection reports before the state exists (a failed first connect): hold it until then.
    let state: RedisSessionState | undefined;
    let early: Error | undefined;
    const connection = await RedisConnection.open(url, {
      connectTimeoutMs: options.startupTimeoutMs ?? DEFAULTS.startupTimeoutMs,
      stallMs: Math.max(2 * commandTimeoutMs, 1_000),
      onError: (error) => {
        if (state) state.#unavailable(error, url);
        else early ??= error;
      },
      onReady: () => {
        if (state) state.#releaseLeftovers();
      },
    });
    state = new RedisSessionState(connection, options);
    if (early) state.#unavailable(early, url);
    return state;
  }

  /** True while connected: calls can succeed. */
  get ready(): boolean {
    return this.#connection.ready;
  }

  /**
   * Closes the connection after in-flight commands are answered; a server that does not answer
   * them within the command timeout gets the socket torn down instead, so closing never hangs.
   */
  async close(): Promise<void> {
    await this.#connection.close(this.#commandTimeoutMs);
  }

  async exclusive<T>(orgId: string, agentId: string, work: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.#waitMs;
    return this.#localQueue.run(
      `${enc(orgId)}:${enc(agentId)}`,
      async () => {
        const lock = new OrgKeys(this.#prefix, orgId).lock(agentId);
        const token = randomUUID();
        await this.#acquire(lock, token, deadline, agentId);
        try {
          return await work();
        } finally {
          // The work's own outcome must not be replaced by a failed release; the lock is released
          // once Redis answers again instead of holding the agent until the lease ends.
          await this.#release(lock, token).catch(() => undefined);
        }
      },
      (previous) => raceDeadline(previous, deadline, () => `agent ${agentId} stayed busy in this process`),
    );
  }

  async getAgent(orgId: string, agentId: string): Promise<AgentRecord | undefined> {
    return parse<AgentRecord>(await this.#call(["GET", this.#keys(orgId).agent(agentId)]));
  }

  async putAgent(orgId: string, agent: AgentRecord): Promise<void> {
    await this.write(orgId, [{ kind: "agent", agent }]);
  }

  async listAgents(orgId: string): Promise<AgentRecord[]> {
    const keys = this.#keys(orgId);
    const ids = await this.#call<string[]>([
      "ZRANGEBYSCORE",
      keys.agents(),
      this.#cutoff(Date.now()),
      "+inf",
    ]);
    if (ids.length === 0) return [];
    const found = await this.#call<(string | null)[]>(["MGET", ...ids.map((id) => keys.agent(id))]);
    return found.flatMap((json) => parse<AgentRecord>(json) ?? []);
  }

  async getSession(orgId: string, sessionId: string): Promise<SessionRecord | undefined> {
    return parse<SessionRecord>(await this.#call(["GET", this.#keys(orgId).session(sessionId)]));
  }

  async putSession(orgId: string, session: SessionRecord): Promise<void> {
    await this.write(orgId, [{ kind: "session", session }]);
  }

  async listSessions(orgId: string, limit: number): Promise<SessionRecord[]> {
    if (!(limit > 0)) return [];
    const keys = this.#keys(orgId);
    const records: SessionRecord[] = [];
    for (let start = 0; records.length < limit; start += LIST_PAGE) {
      const ids = await this.#call<string[]>([
        "ZREVRANGE",
        keys.sessionsBySeen(),
        String(start),
        String(start + LIST_PAGE - 1),
      ]);
      if (ids.length === 0) break;
      const found = await this.#call<(string | null)[]>(["MGET", ...ids.map((id) => keys.session(id))]);
      const gone: string[] = [];
      found.forEach((json, i) => {
        const record = parse<SessionRecord>(json);
        if (record) records.push(record);
        else gone.push(ids[i]!);
      });
      if (gone.length > 0) {
        // Expired since the last write pruned the index: drop them, and step back over the gap.
        await this.#call(["ZREM", keys.sessionsBySeen(), ...gone]);
        await this.#call(["ZREM", keys.sessionsByWrite(), ...gone]);
        start -= gone.length;
      }
      if (ids.length < LIST_PAGE) break;
    }
    records.sort((a, b) => b.lastSeenAt - a.lastSeenAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return records.slice(0, limit);
  }

  async getTurn(orgId: string, sessionId: string, turnId: string): Promise<TurnRecord | undefined> {
    return parse<TurnRecord>(await this.#call(["HGET", this.#keys(orgId).turns(sessionId), turnId]));
  }

  async putTurn(orgId: string, turn: TurnRecord): Promise<void> {
    await this.write(orgId, [{ kind: "turn", turn }]);
  }

  async listTurns(orgId: string, sessionId: string): Promise<TurnRecord[]> {
    const all = await this.#call<string[]>(["HVALS", this.#keys(orgId).turns(sessionId)]);
    return all.flatMap((json) => parse<TurnRecord>(json) ?? []).sort((a, b) => a.index - b.index);
  }

  async getStep(orgId: string, agentId: string, stepId: string): Promise<StepRecord | undefined> {
    const keys = this.#keys(orgId);
    const pointer = await this.#call<string | null>(["GET", keys.stepOwner(agentId, stepId)]);
    if (pointer === null) return undefined;
    // The pointer holds the step itself; one written by an earlier version holds its session id.
    if (pointer.startsWith("{")) return parse<StepRecord>(pointer);
    return parse<StepRecord>(await this.#call(["HGET", keys.steps(pointer), stepField(agentId, stepId)]));
  }

  async putStep(orgId: string, step: StepRecord): Promise<void> {
    await this.write(orgId, [{ kind: "step", step }]);
  }

  async listSteps(orgId: string, sessionId: string): Promise<StepRecord[]> {
    const all = await this.#call<string[]>(["HVALS", this.#keys(orgId).steps(sessionId)]);
    return all
      .flatMap((json) => parse<StepRecord>(json) ?? [])
      .sort((a, b) => a.turnIndex - b.turnIndex || a.index - b.index || a.createdAt - b.createdAt);
  }

  async lookup(
    orgId: string,
    agentId: string,
    index: IndexKind,
    keys: readonly string[],
  ): Promise<(string | undefined)[]> {
    if (keys.length === 0) return [];
    const names = this.#keys(orgId);
    const found = await this.#call<(string | null)[]>([
      "MGET",
      ...keys.map((key) => names.binding(agentId, index, key)),
    ]);
    return found.map((id) => id ?? undefined);
  }

  async bind(
    orgId: string,
    agentId: string,
    index: IndexKind,
    key: string,
    sessionId: string,
  ): Promise<void> {
    await this.write(orgId, [{ kind: "bind", agentId, index, key, sessionId }]);
  }

  async write(orgId: string, writes: readonly StateWrite[]): Promise<void> {
    if (writes.length === 0) return;
    const keys = this.#keys(orgId);
    const now = Date.now();
    const names: string[] = [];
    const args: string[] = [String(this.#ttlMs), String(now), this.#cutoff(now)];
    for (const w of writes) {
      if (w.kind === "agent") {
        names.push(keys.agent(w.agent.agentId), keys.agents());
        args.push("agent", JSON.stringify(w.agent), w.agent.agentId);
      } else if (w.kind === "session") {
        const id = w.session.id;
        names.push(
          keys.session(id),
          keys.sessionsBySeen(),
          keys.sessionsByWrite(),
          keys.turns(id),
          keys.steps(id),
        );
        args.push("session", JSON.stringify(w.session), id, String(w.session.lastSeenAt));
      } else if (w.kind === "turn") {
        names.push(keys.session(w.turn.sessionId), keys.turns(w.turn.sessionId));
        args.push("turn", w.turn.id, JSON.stringify(w.turn));
      } else if (w.kind === "step") {
        const step = w.step;
        names.push(
          keys.session(step.sessionId),
          keys.steps(step.sessionId),
          keys.stepOwner(step.agentId, step.stepId),
        );
        args.push("step", stepField(step.agentId, step.stepId), JSON.stringify(step));
      } else {
        names.push(keys.session(w.sessionId), keys.binding(w.agentId, w.index, w.key));
        args.push("bind", w.sessionId);
      }
    }
    await this.#script(WRITE, names, args);
  }

  /**
   * Commands sent since start, and round trips: waits on Redis, where commands sent together
   * (one event's independent reads) count once. Scripts and MGETs do their work in one command.
   */
  get calls(): { commands: number; roundTrips: number } {
    return { commands: this.#commands, roundTrips: this.#roundTrips };
  }

  #keys(orgId: string): OrgKeys {
    return new OrgKeys(this.#prefix, orgId);
  }

  /** Exclusive lower score bound of index entries whose key has expired by `now`. */
  #cutoff(now: number): string {
    return `(${now - this.#ttlMs}`;
  }

  /** Polls SET NX PX with a growing, jittered backoff until the lock is ours or the deadline passes. */
  async #acquire(lock: string, token: string, deadline: number, agentId: string): Promise<void> {
    const leftover = this.#unreleased.get(lock);
    if (leftover) await this.#release(lock, leftover.token);
    let backoff = 2;
    for (;;) {
      let taken: string | null;
      try {
        taken = await this.#call<string | null>(["SET", lock, token, "NX", "PX", String(this.#leaseMs)]);
      } catch (error) {
        // Redis may have taken it without the answer reaching us: release it when it is back.
        this.#leftOver(lock, token);
        throw error;
      }
      if (taken === "OK") return;
      const pause = backoff / 2 + Math.random() * backoff;
      if (Date.now() + pause > deadline) {
        throw new SessionStateUnavailableError(
          `session lock of agent ${agentId} stayed busy for ${this.#waitMs} ms`,
        );
      }
      await sleep(pause);
      backoff = Math.min(backoff * 2, 50);
    }
  }

  /** Releases `lock` if it still holds `token`; remembers it for later when Redis does not answer. */
  async #release(lock: string, token: string): Promise<void> {
    try {
      await this.#script(RELEASE, [lock], [token]);
      if (this.#unreleased.get(lock)?.token === token) this.#unreleased.delete(lock);
    } catch (error) {
      this.#leftOver(lock, token);
      throw error;
    }
  }

  #leftOver(lock: string, token: string): void {
    const now = Date.now();
    // Leases past their end have freed themselves; only live ones are kept (bounded by agents).
    for (const [key, { at }] of this.#unreleased) if (now - at >= this.#leaseMs) this.#unreleased.delete(key);
    this.#unreleased.set(lock, { token, at: now });
  }

  /** Warns once per outage: the first failure after a command succeeded. */
  #unavailable(error: Error, url: string): void {
    if (this.#degraded) return;
    this.#degraded = true;
    this.#logger?.warn(
      { err: error.message, url: redactUrl(url) },
      "redis session state unavailable: evaluates fail until it recovers",
    );
  }

  /** Once Redis is back: frees the locks left behind by calls that failed during the outage. */
  #releaseLeftovers(): void {
    for (const [lock, { token, at }] of this.#unreleased) {
      if (Date.now() - at >= this.#leaseMs) this.#unreleased.delete(lock);
      else this.#release(lock, token).catch(() => undefined);
    }
  }

  async #script(script: Script, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.#call(["EVALSHA", script.sha, ...tail]);
    } catch (error) {
      // First use on this server (or after SCRIPT FLUSH): send the script itself once.
      if (!(error as Error).message.includes("NOSCRIPT")) throw error;
      return this.#call(["EVAL", script.text, ...tail]);
    }
  }

  /** One command under the command timeout; any failure is a SessionStateUnavailableError. */
  async #call<T = unknown>(args: string[]): Promise<T> {
    if (!this.#connection.ready)
      throw new SessionStateUnavailableError("redis session state is not connected");
    this.#commands++;
    if (this.#inFlight++ === 0) this.#roundTrips++;
    try {
      const reply = await this.#connection.send<T>(args, this.#commandTimeoutMs);
      this.#degraded = false;
      return reply;
    } catch (error) {
      throw new SessionStateUnavailableError(`redis session state failed: ${(error as Error).message}`, {
        cause: error,
      });
    } finally {
      this.#inFlight--;
    }
  }
}

/** Waits for `work` until `deadline`, then gives up with a SessionStateUnavailableError. */
async function raceDeadline(work: Promise<void>, deadline: number, why: () => string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new SessionStateUnavailableError(why())),
      Math.max(0, deadline - Date.now()),
    );
  });
  try {
    await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

function enc(part: string): string {
  return encodeURIComponent(part);
}

function stepField(agentId: string, stepId: string): string {
  return `${enc(agentId)}:${enc(stepId)}`;
}

function parse<T>(json: unknown): T | undefined {
  return typeof json === "string" ? (JSON.parse(json) as T) : undefined;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
