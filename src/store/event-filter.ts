import type { EventFilter } from "./queries.js";
import type { EventRecord } from "./records.js";

/**
 * The filter as a predicate, for stores that scan their records (the embedded journal). RFC 3339
 * instants written by Guard are all `toISOString()` output (UTC, milliseconds), so comparing
 * them as instants rather than strings keeps hand-typed bounds with offsets correct too.
 */
export function matchesEvent(filter: EventFilter): (event: EventRecord) => boolean {
  const from = filter.from === undefined ? undefined : Date.parse(filter.from);
  const to = filter.to === undefined ? undefined : Date.parse(filter.to);
  return (event) => {
    if (filter.orgId !== undefined && event.org_id !== filter.orgId) return false;
    if (filter.agentId !== undefined && event.agent_id !== filter.agentId) return false;
    if (filter.kind !== undefined && event.kind !== filter.kind) return false;
    if (filter.integration !== undefined && event.integration !== filter.integration) return false;
    if (filter.decision !== undefined && event.verdict["decision"] !== filter.decision) return false;
    if (filter.sessionId !== undefined && event.session?.["session_id"] !== filter.sessionId) return false;
    if (from === undefined && to === undefined) return true;
    const at = Date.parse(event.received_at);
    if (from !== undefined && at < from) return false;
    if (to !== undefined && at >= to) return false;
    return true;
  };
}
