import type { WhitelistSource } from "../whitelist/whitelist.js";
import type { AgentRecord, AuditRecord, EventRecord, HeartbeatRecord, PlaceholderRecord } from "./records.js";

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
  recordAgent(record: AgentRecord): Promise<void>;
  recordPlaceholder(record: PlaceholderRecord): Promise<void>;
  /** Everything known at open, for the in-memory registries to start from. */
  loadAgents(): Promise<AgentRecord[]>;
  loadPlaceholders(): Promise<PlaceholderRecord[]>;
  /** Recent events, newest first (for tests, the CLI and operators). */
  recentEvents(orgId: string, limit: number): Promise<EventRecord[]>;
  recentAudits(orgId: string, limit: number): Promise<AuditRecord[]>;
  stats(): StoreStats;
  flush(): Promise<void>;
  close(): Promise<void>;
}
