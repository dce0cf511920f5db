import type { HeartbeatRecord } from "./records.js";

/**
 * Read-side questions operators ask the store (the `guard` CLI, the coverage monitor). Every field
 * of a filter narrows; an absent field does not. Time bounds are RFC 3339 instants, half-open
 * (`from` inclusive, `to` exclusive) so consecutive windows neither overlap nor leave a gap.
 */
export interface EventFilter {
  readonly orgId?: string;
  readonly agentId?: string;
  /** `step/request` or `step/response`. */
  readonly kind?: string;
  /** The verdict's decision: `allow` or `block`. */
  readonly decision?: string;
  /** The event's `integration` field, exactly. */
  readonly integration?: string;
  /** The session the tracker attached the event to (`session.session_id` of the record). */
  readonly sessionId?: string;
  readonly from?: string;
  readonly to?: string;
}

export interface EventQuery extends EventFilter {
  readonly limit: number;
  /**
   * Which end of the range the limit keeps, and the order returned: `newest` (default) answers the
   * latest events newest first; `oldest` answers the earliest events oldest first (what a follower
   * polling forward from a cursor wants).
   */
  readonly order?: "newest" | "oldest";
}

/**
 * One heartbeat source: an (organization, integration, agent) triple as its beats name it, with
 * its latest beat. Counters are cumulative per integration process, so a counter going backwards
 * marks a restart; `run_since` is the beat before the latest restart, and only events received
 * after it are compared with the latest counters.
 */
export interface HeartbeatSource {
  readonly org_id: string;
  readonly integration?: string;
  readonly agent_id?: string;
  readonly first_at: string;
  readonly beats: number;
  readonly last: HeartbeatRecord;
  readonly run_since?: string;
}

/** The named counter whose fall marks an integration restart (spec 2.9). */
export const EVENTS_SENT = "events_sent";

/** The identity of a source: beats without an integration (or agent) share the empty name. */
export function sourceKey(orgId: string, integration: string | undefined, agentId: string | undefined): string {
  return `${orgId}\u001f${integration ?? ""}\u001f${agentId ?? ""}`;
}
