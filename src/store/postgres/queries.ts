import type { EventFilter, HeartbeatSource } from "../queries.js";
import { pgText } from "./sql.js";

/** A WHERE clause and its parameters, numbered from `$1`. */
export interface Where {
  readonly sql: string;
  readonly values: unknown[];
}

/** The filter as parameterised SQL over the `events` table (indexes in migrations/004). */
export function eventWhere(filter: EventFilter): Where {
  const clauses: string[] = [];
  const values: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    values.push(value);
    clauses.push(sql.replace("?", `$${values.length}`));
  };
  if (filter.orgId !== undefined) add("org_id = ?", pgText(filter.orgId));
  if (filter.agentId !== undefined) add("agent_id = ?", pgText(filter.agentId));
  if (filter.kind !== undefined) add("kind = ?", pgText(filter.kind));
  if (filter.integration !== undefined) add("integration = ?", pgText(filter.integration));
  if (filter.decision !== undefined) add("verdict ->> 'decision' = ?", pgText(filter.decision));
  if (filter.sessionId !== undefined) add("session ->> 'session_id' = ?", pgText(filter.sessionId));
  if (filter.from !== undefined) add("received_at >= ?::timestamptz", filter.from);
  if (filter.to !== undefined) add("received_at < ?::timestamptz", filter.to);
  return { sql: clauses.length === 0 ? "" : `WHERE ${clauses.join(" AND ")}`, values };
}

export interface HeartbeatSourceRow {
  org_id: string;
  integration: string | null;
  agent_id: string | null;
  first_at: Date;
  last_at: Date;
  last_key_id: string;
  interval_s: number | null;
  counters: Record<string, number> | null;
  beats: string;
  run_since: Date | null;
}

export const HEARTBEAT_SOURCE_SELECT =
  "SELECT org_id, integration, agent_id, first_at, last_at, last_key_id, interval_s, counters, beats, run_since FROM heartbeat_sources";

export function heartbeatSourceFromRow(r: HeartbeatSourceRow): HeartbeatSource {
  const optional = {
    ...(r.integration === null ? {} : { integration: r.integration }),
    ...(r.agent_id === null ? {} : { agent_id: r.agent_id }),
  };
  return {
    org_id: r.org_id,
    ...optional,
    first_at: r.first_at.toISOString(),
    beats: Number(r.beats),
    last: {
      at: r.last_at.toISOString(),
      org_id: r.org_id,
      key_id: r.last_key_id,
      ...optional,
      ...(r.interval_s === null ? {} : { interval_s: r.interval_s }),
      ...(r.counters === null ? {} : { counters: r.counters }),
    },
    ...(r.run_since === null ? {} : { run_since: r.run_since.toISOString() }),
  };
}
