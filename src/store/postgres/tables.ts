import type { WhitelistRecord } from "../../whitelist/whitelist.js";
import type {
  AgentRecord,
  AuditRecord,
  EventRecord,
  HeartbeatRecord,
  PlaceholderRecord,
} from "../records.js";
import { type Column, pgJson, pgText } from "./sql.js";

/**
 * How each record maps to its table and back. Columns, the row a record becomes and the record a
 * row becomes live together so the three cannot drift apart.
 */

export const PAYLOAD_COLUMNS: readonly Column[] = [
  ["sha256", "text"],
  ["body", "bytea"],
  ["bytes", "integer"],
];

export function payloadRow(sha256: string, body: Buffer): unknown[] {
  return [sha256, body, body.length];
}

export const EVENT_COLUMNS: readonly Column[] = [
  ["event_id", "text"],
  ["received_at", "timestamptz"],
  ["org_id", "text"],
  ["key_id", "text"],
  ["kind", "text"],
  ["step_id", "text"],
  ["agent_id", "text"],
  ["agent_id_derived", "boolean"],
  ["agent_type", "text"],
  ["agent_user", "text"],
  ["workspace", "text"],
  ["llm_protocol", "text"],
  ["integration", "text"],
  ["connection", "text"],
  ["session_hint", "text"],
  ["payload_sha256", "text"],
  ["payload_bytes", "integer"],
  ["session", "jsonb"],
  ["verdict", "jsonb"],
];

export function eventRow(e: EventRecord): unknown[] {
  return [
    pgText(e.event_id),
    e.received_at,
    pgText(e.org_id),
    pgText(e.key_id),
    pgText(e.kind),
    pgText(e.step_id),
    pgText(e.agent_id),
    e.agent_id_derived,
    pgText(e.agent_type),
    pgText(e.agent_user),
    pgText(e.workspace),
    pgText(e.llm_protocol),
    pgText(e.integration),
    pgText(e.connection),
    pgText(e.session_hint),
    e.payload_sha256,
    e.payload_bytes,
    pgJson(e.session),
    pgJson(e.verdict),
  ];
}

export const EVENT_SELECT = EVENT_COLUMNS.map(([name]) => name).join(", ");

export interface EventRow {
  event_id: string;
  received_at: Date;
  org_id: string;
  key_id: string;
  kind: string;
  step_id: string;
  agent_id: string;
  agent_id_derived: boolean;
  agent_type: string;
  agent_user: string;
  workspace: string;
  llm_protocol: string;
  integration: string | null;
  connection: string | null;
  session_hint: string | null;
  payload_sha256: string;
  payload_bytes: number;
  session: Record<string, unknown> | null;
  verdict: Record<string, unknown>;
}

export function eventFromRow(r: EventRow): EventRecord {
  return {
    event_id: r.event_id,
    received_at: r.received_at.toISOString(),
    org_id: r.org_id,
    key_id: r.key_id,
    kind: r.kind,
    step_id: r.step_id,
    agent_id: r.agent_id,
    agent_id_derived: r.agent_id_derived,
    agent_type: r.agent_type,
    agent_user: r.agent_user,
    workspace: r.workspace,
    llm_protocol: r.llm_protocol,
    ...(r.integration === null ? {} : { integration: r.integration }),
    ...(r.connection === null ? {} : { connection: r.connection }),
    ...(r.session_hint === null ? {} : { session_hint: r.session_hint }),
    payload_sha256: r.payload_sha256,
    payload_bytes: r.payload_bytes,
    ...(r.session === null ? {} : { session: r.session }),
    verdict: r.verdict,
  };
}

export const AUDIT_COLUMNS: readonly Column[] = [
  ["id", "text"],
  ["at", "timestamptz"],
  ["org_id", "text"],
  ["key_id", "text"],
  ["action", "text"],
  ["field", "text"],
  ["asserted", "text"],
  ["expected", "text"],
];

export function auditRow(id: string, a: AuditRecord): unknown[] {
  return [
    id,
    a.at,
    pgText(a.org_id),
    pgText(a.key_id),
    a.action,
    pgText(a.field),
    pgText(a.asserted),
    pgText(a.expected),
  ];
}

export interface AuditRow {
  at: Date;
  org_id: string;
  key_id: string;
  action: AuditRecord["action"];
  field: string;
  asserted: string;
  expected: string;
}

export function auditFromRow(r: AuditRow): AuditRecord {
  return {
    at: r.at.toISOString(),
    org_id: r.org_id,
    key_id: r.key_id,
    action: r.action,
    field: r.field,
    asserted: r.asserted,
    expected: r.expected,
  };
}

export const HEARTBEAT_COLUMNS: readonly Column[] = [
  ["id", "text"],
  ["at", "timestamptz"],
  ["org_id", "text"],
  ["key_id", "text"],
  ["integration", "text"],
  ["agent_id", "text"],
  ["interval_s", "double precision"],
  ["counters", "jsonb"],
];

export function heartbeatRow(id: string, h: HeartbeatRecord): unknown[] {
  return [
    id,
    h.at,
    pgText(h.org_id),
    pgText(h.key_id),
    pgText(h.integration),
    pgText(h.agent_id),
    h.interval_s,
    pgJson(h.counters),
  ];
}

export const AGENT_COLUMNS: readonly Column[] = [
  ["org_id", "text"],
  ["agent_id", "text"],
  ["workspace", "text"],
  ["agent_type", "text"],
  ["first_seen", "timestamptz"],
];

export function agentRow(a: AgentRecord): unknown[] {
  return [pgText(a.org_id), pgText(a.agent_id), pgText(a.workspace), pgText(a.agent_type), a.first_seen];
}

export interface AgentRow {
  org_id: string;
  agent_id: string;
  workspace: string;
  agent_type: string;
  first_seen: Date;
}

export function agentFromRow(r: AgentRow): AgentRecord {
  return {
    org_id: r.org_id,
    agent_id: r.agent_id,
    workspace: r.workspace,
    agent_type: r.agent_type,
    first_seen: r.first_seen.toISOString(),
  };
}

/** Placeholder rows carry exactly the record's fields, so a row is the record. */
export type PlaceholderRow = PlaceholderRecord;

export interface WhitelistRow {
  at: Date;
  org_id: string;
  fp: string;
  op: WhitelistRecord["op"];
  note: string | null;
}

export function whitelistFromRow(r: WhitelistRow): WhitelistRecord {
  return {
    at: r.at.toISOString(),
    org_id: r.org_id,
    fp: r.fp,
    op: r.op,
    ...(r.note === null ? {} : { note: r.note }),
  };
}
