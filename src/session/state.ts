import type { AgentRecord, SessionRecord, StepRecord, TurnRecord } from "./records.js";

/**
 * Lookup tables that point at a session. Each is scoped by (org, agent) in the interface; the
 * tracker folds agent_user into the keys where a session is per user.
 *
 * - `prefix`: prefix key of a conversation a request carried.
 * - `hint`: the producer's session_hint.
 * - `opening`: system-prompt digest plus first user digest, to re-attach after compaction.
 * - `connection`: the reporter's connection id, a last-resort signal.
 */
export type IndexKind = "prefix" | "hint" | "opening" | "connection";

/** One write of a batch: what the put or bind of the same name does. */
export type StateWrite =
  | { readonly kind: "agent"; readonly agent: AgentRecord }
  | { readonly kind: "session"; readonly session: SessionRecord }
  | { readonly kind: "turn"; readonly turn: TurnRecord }
  | { readonly kind: "step"; readonly step: StepRecord }
  | {
      readonly kind: "bind";
      readonly agentId: string;
      readonly index: IndexKind;
      readonly key: string;
      readonly sessionId: string;
    };

/**
 * Storage of the tracker's hot state. Narrow on purpose: the in-memory implementation is the
 * embedded default, and the same interface is meant to be backed by PostgreSQL or Redis so that
 * replicas share sessions. Every method is keyed by organization first, so that no call can read
 * or write across tenants. Records passed in and returned are copies: mutating a returned record
 * changes nothing until it is put back.
 */
export interface SessionState {
  /**
   * Runs `work` while no other `exclusive` call for the same (org, agent) runs, so that two
   * events of one agent never race on step or turn numbering. A shared backend implements it
   * with a row or advisory lock; work for different agents runs concurrently.
   */
  exclusive<T>(orgId: string, agentId: string, work: () => Promise<T>): Promise<T>;

  getAgent(orgId: string, agentId: string): Promise<AgentRecord | undefined>;
  putAgent(orgId: string, agent: AgentRecord): Promise<void>;
  /** Agents of the organization, in no particular order. */
  listAgents(orgId: string): Promise<AgentRecord[]>;

  getSession(orgId: string, sessionId: string): Promise<SessionRecord | undefined>;
  /** Creates or replaces a session; must precede putting its turns, steps and bindings. */
  putSession(orgId: string, session: SessionRecord): Promise<void>;
  /** Sessions of the organization, most recently seen first, at most `limit`. */
  listSessions(orgId: string, limit: number): Promise<SessionRecord[]>;

  getTurn(orgId: string, sessionId: string, turnId: string): Promise<TurnRecord | undefined>;
  putTurn(orgId: string, turn: TurnRecord): Promise<void>;
  /** Turns of one session by ascending index. */
  listTurns(orgId: string, sessionId: string): Promise<TurnRecord[]>;

  /** Steps are found by step_id within one agent: another agent's step_id never pairs. */
  getStep(orgId: string, agentId: string, stepId: string): Promise<StepRecord | undefined>;
  putStep(orgId: string, step: StepRecord): Promise<void>;
  /** Steps of one session by ascending (turn index, step index). */
  listSteps(orgId: string, sessionId: string): Promise<StepRecord[]>;

  /**
   * Resolves several keys of one index at once (one round trip for a remote backend); the
   * answer has one entry per key, undefined where nothing is bound.
   */
  lookup(
    orgId: string,
    agentId: string,
    index: IndexKind,
    keys: readonly string[],
  ): Promise<(string | undefined)[]>;
  /** Points a key at a session, replacing what it pointed at before (the latest writer wins). */
  bind(orgId: string, agentId: string, index: IndexKind, key: string, sessionId: string): Promise<void>;

  /**
   * Applies writes in order, each exactly as its own put or bind would (a turn, step or binding
   * still needs its session held), at once: one round trip for a remote backend.
   */
  write(orgId: string, writes: readonly StateWrite[]): Promise<void>;
}
