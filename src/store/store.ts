import type { WhitelistSource } from "../whitelist/whitelist.js";
import type { EventFilter, EventQuery, HeartbeatSource } from "./queries.js";
import type {
  AgentRecord,
  AuditRecord,
  EventRecord,
  HeartbeatRecord,
  PlaceholderClaim,
  PlaceholderRecord,
} from "./records.js";

/** Counts that let an operator check that nothing accepted was lost. */
export interface StoreStats {
  readonly accepted: number;
  readonly written: number;
  readonly queued: number;
  readonly write_errors: number;
}

/**
 * Guard's persistence. Writes are write-behind: each `record*` resolves once the record is
 * queued (waiting only when the queue is full: back-pressure), never on a disk round trip.
 * `close()` flushes everything queued before it resolves.
 */
export interface Store extends WhitelistSource {
  recordEvent(event: EventRecord, payload: Buffer): Promise<void>;
  recordAudit(record: AuditRecord): Promise<void>;
  recordHeartbeat(record: HeartbeatRecord): Promise<void>;
  /**
   * Places an agent on first sight: the first placement anywhere wins (spec 5.3), so the
   * answer is the record that holds, which may be another replica's. Only new agents get here.
   */
  claimAgent(record: AgentRecord): Promise<AgentRecord>;
  /**
   * The agent's placeholder for a value: its existing token, or the next ordinal of the kind,
   * minted atomically for every replica sharing the store (a round trip only for new values).
   */
  claimPlaceholder(claim: PlaceholderClaim): Promise<string>;
  /** The sealed original behind an agent's token, for restoring responses. */
  findPlaceholder(orgId: string, agentId: string, placeholder: string): Promise<PlaceholderRecord | undefined>;
  /** Everything known at open, for the in-memory registries to start from. */
  loadAgents(): Promise<AgentRecord[]>;
  /** Recent events, newest first (for tests, the CLI and operators). */
  recentEvents(orgId: string, limit: number): Promise<EventRecord[]>;
  recentAudits(orgId: string, limit: number): Promise<AuditRecord[]>;
  /** Events matching a filter and time range (`guard events tail`, `guard sessions`). */
  queryEvents(query: EventQuery): Promise<EventRecord[]>;
  /** How many events match, without reading them (coverage reconciliation). */
  countEvents(filter: EventFilter): Promise<number>;
  /** The latest heartbeat per source, with its restart marker (coverage, its monitor). */
  heartbeatSources(orgId?: string): Promise<HeartbeatSource[]>;
  stats(): StoreStats;
  flush(): Promise<void>;
  close(): Promise<void>;
}
