import { clonePlain } from "./clone.js";
import { KeyedQueue } from "./keyed-queue.js";
import type { AgentRecord, SessionRecord, StepRecord, TurnRecord } from "./records.js";
import type { IndexKind, SessionState, StateWrite } from "./state.js";

/** Bounds of the in-memory state. Each bound evicts the least recently written entries. */
export interface MemoryStateOptions {
  /** Sessions kept per process; the least recently active is evicted with its turns, steps and bindings. */
  maxSessions?: number;
  /** Steps kept per process over all sessions; the oldest written go first. */
  maxSteps?: number;
  /** Agents kept per process (shadow-agent bookkeeping). */
  maxAgents?: number;
  /** Turns kept per session; older turns are dropped from memory (the store keeps the events). */
  maxTurnsPerSession?: number;
  /** Keys of each index a session may own; older keys stop pointing at it. */
  maxBindingsPerSession?: number;
}

/** Defaults sized for one process: about 100k live conversations. */
export const MEMORY_STATE_DEFAULTS: Required<MemoryStateOptions> = {
  maxSessions: 100_000,
  maxSteps: 1_000_000,
  maxAgents: 100_000,
  maxTurnsPerSession: 1_024,
  maxBindingsPerSession: 16,
};

/** Counts of what the state holds, for metrics. */
export interface MemoryStateSize {
  sessions: number;
  steps: number;
  agents: number;
  bindings: number;
  evictedSessions: number;
  evictedSteps: number;
}

/** A session and what hangs off it, evicted together. */
interface Slot {
  record: SessionRecord;
  turns: Map<string, TurnRecord>;
  /** Keys into `steps`, in insertion order. */
  steps: Set<string>;
  /** Keys into `bindings` this session wrote, per index, oldest first. */
  bindings: Map<IndexKind, string[]>;
}

/**
 * The embedded SessionState: plain maps bounded by LRU eviction, one process only.
 *
 * Memory is bounded by `maxSessions` sessions (each with at most `maxTurnsPerSession` turns and
 * `maxBindingsPerSession` keys per index), `maxSteps` steps and `maxAgents` agents. Recency is
 * write recency: reads (CLI queries) never keep an idle session alive. An evicted session only
 * loses its hot state: a later request of that conversation starts a new session, and the
 * recorded events stay in the store.
 */
export class MemorySessionState implements SessionState {
  readonly #options: Required<MemoryStateOptions>;
  /** `(org, sessionId)` → slot, least recently written first. */
  readonly #sessions = new Map<string, Slot>();
  readonly #orgSessions = new Map<string, Set<string>>();
  /** `(org, agentId, stepId)` → step, least recently written first. */
  readonly #steps = new Map<string, StepRecord>();
  /** `(org, agentId)` → agent, least recently written first. */
  readonly #agents = new Map<string, AgentRecord>();
  /** `(org, agentId, index, key)` → session id. */
  readonly #bindings = new Map<string, string>();
  readonly #queue = new KeyedQueue();
  #evictedSessions = 0;
  #evictedSteps = 0;

  constructor(options: MemoryStateOptions = {}) {
    this.#options = { ...MEMORY_STATE_DEFAULTS, ...options };
    for (const [name, value] of Object.entries(this.#options)) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
    }
  }

  /** Current counts, for metrics and tests. */
  size(): MemoryStateSize {
    return {
      sessions: this.#sessions.size,
      steps: this.#steps.size,
      agents: this.#agents.size,
      bindings: this.#bindings.size,
      evictedSessions: this.#evictedSessions,
      evictedSteps: this.#evictedSteps,
    };
  }

  exclusive<T>(orgId: string, agentId: string, work: () => Promise<T>): Promise<T> {
    return this.#queue.run(compose(orgId, agentId), work);
  }

  async getAgent(orgId: string, agentId: string): Promise<AgentRecord | undefined> {
    return copy(this.#agents.get(compose(orgId, agentId)));
  }

  async putAgent(orgId: string, agent: AgentRecord): Promise<void> {
    touch(this.#agents, compose(orgId, agent.agentId), clonePlain(agent));
    for (const key of this.#agents.keys()) {
      if (this.#agents.size <= this.#options.maxAgents) break;
      this.#agents.delete(key);
    }
  }

  async listAgents(orgId: string): Promise<AgentRecord[]> {
    const prefix = compose(orgId);
    const out: AgentRecord[] = [];
    for (const [key, agent] of this.#agents) if (key.startsWith(prefix)) out.push(clonePlain(agent));
    return out;
  }

  async getSession(orgId: string, sessionId: string): Promise<SessionRecord | undefined> {
    return copy(this.#sessions.get(compose(orgId, sessionId))?.record);
  }

  async putSession(orgId: string, session: SessionRecord): Promise<void> {
    const key = compose(orgId, session.id);
    const slot = this.#sessions.get(key) ?? {
      record: session,
      turns: new Map<string, TurnRecord>(),
      steps: new Set<string>(),
      bindings: new Map<IndexKind, string[]>(),
    };
    slot.record = clonePlain(session);
    touch(this.#sessions, key, slot);
    let ids = this.#orgSessions.get(orgId);
    if (!ids) {
      ids = new Set();
      this.#orgSessions.set(orgId, ids);
    }
    ids.add(session.id);
    for (const [oldest, victim] of this.#sessions) {
      if (this.#sessions.size <= this.#options.maxSessions) break;
      this.#evictSession(oldest, victim);
    }
  }

  async listSessions(orgId: string, limit: number): Promise<SessionRecord[]> {
    const ids = this.#orgSessions.get(orgId);
    if (!ids) return [];
    const records: SessionRecord[] = [];
    for (const id of ids) {
      const slot = this.#sessions.get(compose(orgId, id));
      if (slot) records.push(slot.record);
    }
    records.sort((a, b) => b.lastSeenAt - a.lastSeenAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return records.slice(0, Math.max(0, limit)).map((r) => clonePlain(r));
  }

  async getTurn(orgId: string, sessionId: string, turnId: string): Promise<TurnRecord | undefined> {
    return copy(this.#sessions.get(compose(orgId, sessionId))?.turns.get(turnId));
  }

  async putTurn(orgId: string, turn: TurnRecord): Promise<void> {
    const slot = this.#sessions.get(compose(orgId, turn.sessionId));
    if (!slot) return; // The session was evicted meanwhile: nothing to hang the turn on.
    slot.turns.set(turn.id, clonePlain(turn));
    for (const oldest of slot.turns.keys()) {
      if (slot.turns.size <= this.#options.maxTurnsPerSession) break;
      slot.turns.delete(oldest);
    }
  }

  async listTurns(orgId: string, sessionId: string): Promise<TurnRecord[]> {
    const slot = this.#sessions.get(compose(orgId, sessionId));
    if (!slot) return [];
    return [...slot.turns.values()].sort((a, b) => a.index - b.index).map((t) => clonePlain(t));
  }

  async getStep(orgId: string, agentId: string, stepId: string): Promise<StepRecord | undefined> {
    return copy(this.#steps.get(stepKey(orgId, agentId, stepId)));
  }

  async putStep(orgId: string, step: StepRecord): Promise<void> {
    const slot = this.#sessions.get(compose(orgId, step.sessionId));
    if (!slot) return;
    const key = stepKey(orgId, step.agentId, step.stepId);
    touch(this.#steps, key, clonePlain(step));
    slot.steps.add(key);
    for (const [oldest, victim] of this.#steps) {
      if (this.#steps.size <= this.#options.maxSteps) break;
      this.#steps.delete(oldest);
      this.#sessions.get(compose(orgId, victim.sessionId))?.steps.delete(oldest);
      this.#evictedSteps++;
    }
  }

  async listSteps(orgId: string, sessionId: string): Promise<StepRecord[]> {
    const slot = this.#sessions.get(compose(orgId, sessionId));
    if (!slot) return [];
    const steps: StepRecord[] = [];
    for (const key of slot.steps) {
      const step = this.#steps.get(key);
      if (step) steps.push(clonePlain(step));
    }
    return steps.sort((a, b) => a.turnIndex - b.turnIndex || a.index - b.index || a.createdAt - b.createdAt);
  }

  async lookup(
    orgId: string,
    agentId: string,
    index: IndexKind,
    keys: readonly string[],
  ): Promise<(string | undefined)[]> {
    return keys.map((key) => this.#bindings.get(bindingKey(orgId, agentId, index, key)));
  }

  async bind(
    orgId: string,
    agentId: string,
    index: IndexKind,
    key: string,
    sessionId: string,
  ): Promise<void> {
    const slot = this.#sessions.get(compose(orgId, sessionId));
    if (!slot) return; // Never bind to a session we do not hold: the key could not be evicted with it.
    const full = bindingKey(orgId, agentId, index, key);
    const owned = slot.bindings.get(index) ?? [];
    if (this.#bindings.get(full) === sessionId) {
      // Already ours: refresh its place so that it is the last of ours to go.
      const at = owned.indexOf(full);
      if (at >= 0) owned.splice(at, 1);
    }
    this.#bindings.set(full, sessionId);
    owned.push(full);
    while (owned.length > this.#options.maxBindingsPerSession) {
      const old = owned.shift()!;
      if (this.#bindings.get(old) === sessionId) this.#bindings.delete(old);
    }
    slot.bindings.set(index, owned);
  }

  async write(orgId: string, writes: readonly StateWrite[]): Promise<void> {
    for (const w of writes) {
      if (w.kind === "agent") await this.putAgent(orgId, w.agent);
      else if (w.kind === "session") await this.putSession(orgId, w.session);
      else if (w.kind === "turn") await this.putTurn(orgId, w.turn);
      else if (w.kind === "step") await this.putStep(orgId, w.step);
      else await this.bind(orgId, w.agentId, w.index, w.key, w.sessionId);
    }
  }

  #evictSession(key: string, slot: Slot): void {
    const { orgId, id } = slot.record;
    this.#sessions.delete(key);
    this.#orgSessions.get(orgId)?.delete(id);
    if (this.#orgSessions.get(orgId)?.size === 0) this.#orgSessions.delete(orgId);
    for (const step of slot.steps) this.#steps.delete(step);
    for (const owned of slot.bindings.values()) {
      // A key another session took over since stays with that session.
      for (const full of owned) if (this.#bindings.get(full) === id) this.#bindings.delete(full);
    }
    this.#evictedSessions++;
  }
}

/** Re-inserts a key so that Map order is least-recently-written first. */
function touch<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
}

function copy<T>(value: T | undefined): T | undefined {
  return value === undefined ? undefined : clonePlain(value);
}

/**
 * Joins key parts with a length prefix each, so that no choice of ids (they are caller strings and
 * may hold any character) makes two different (org, agent, ...) tuples share a key.
 */
function compose(...parts: string[]): string {
  let out = "";
  for (const part of parts) out += part.length + ":" + part;
  return out;
}

function stepKey(orgId: string, agentId: string, stepId: string): string {
  return compose(orgId, agentId, stepId);
}

function bindingKey(orgId: string, agentId: string, index: IndexKind, key: string): string {
  return compose(orgId, agentId, index, key);
}
