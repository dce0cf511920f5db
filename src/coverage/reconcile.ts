import { EVENTS_SENT, type HeartbeatSource } from "../store/queries.js";
import type { EventFilter } from "../store/queries.js";

/**
 * Counters reported by an integration set against the events the store actually received from it
 * (spec 4.2 rule 5). `gap` > 0 means events the integration says it sent never arrived: lost in
 * transit, or suppressed selectively before reaching Guard.
 */
export interface Reconciliation {
  readonly events_sent: number;
  readonly events_recorded: number;
  readonly gap: number;
  /** The window compared: after `run_since` (the last restart) up to and including the latest beat. */
  readonly from?: string;
  readonly to: string;
}

/**
 * The events comparable with a source's latest counters: same organization, same integration
 * (and agent, when the beats name one), received after the integration's current run began and
 * no later than its latest beat. An event in flight while the beat was sent may land just after
 * it, so a gap of one or two under steady traffic is jitter; a growing gap is not.
 */
export function reconciliationFilter(source: HeartbeatSource): EventFilter | undefined {
  if (source.integration === undefined && source.agent_id === undefined) return undefined;
  const to = new Date(Date.parse(source.last.at) + 1).toISOString();
  return {
    orgId: source.org_id,
    ...(source.integration !== undefined ? { integration: source.integration } : {}),
    ...(source.agent_id ? { agentId: source.agent_id } : {}),
    ...(source.run_since !== undefined ? { from: new Date(Date.parse(source.run_since) + 1).toISOString() } : {}),
    to,
  };
}

/** Undefined when the integration reports no events_sent: there is nothing to reconcile. */
export function reconcile(source: HeartbeatSource, recorded: number): Reconciliation | undefined {
  const sent = source.last.counters?.[EVENTS_SENT];
  const filter = reconciliationFilter(source);
  if (sent === undefined || !filter?.to) return undefined;
  return {
    events_sent: sent,
    events_recorded: recorded,
    gap: sent - recorded,
    ...(filter.from !== undefined ? { from: filter.from } : {}),
    to: filter.to,
  };
}
