import { EVENTS_SENT, type HeartbeatSource, sourceKey } from "../queries.js";
import type { HeartbeatRecord } from "../records.js";

interface Entry {
  org_id: string;
  integration?: string;
  agent_id?: string;
  first_at: string;
  beats: number;
  last: HeartbeatRecord;
  run_since?: string;
}

/**
 * The latest beat per heartbeat source, kept in memory so the coverage monitor's periodic check
 * costs nothing per beat ever received. Beats may be applied out of order (journal replay is in
 * order, but timestamps come from request arrival): only a later beat replaces the latest one.
 */
export class HeartbeatIndex {
  readonly #sources = new Map<string, Entry>();

  add(beat: HeartbeatRecord): void {
    const key = sourceKey(beat.org_id, beat.integration, beat.agent_id);
    const known = this.#sources.get(key);
    if (!known) {
      this.#sources.set(key, {
        org_id: beat.org_id,
        ...(beat.integration !== undefined ? { integration: beat.integration } : {}),
        ...(beat.agent_id !== undefined ? { agent_id: beat.agent_id } : {}),
        first_at: beat.at,
        beats: 1,
        last: beat,
      });
      return;
    }
    known.beats++;
    if (Date.parse(beat.at) < Date.parse(known.first_at)) known.first_at = beat.at;
    if (Date.parse(beat.at) < Date.parse(known.last.at)) return;
    const before = known.last.counters?.[EVENTS_SENT];
    const now = beat.counters?.[EVENTS_SENT];
    if (before !== undefined && now !== undefined && now < before) known.run_since = known.last.at;
    known.last = beat;
  }

  sources(orgId?: string): HeartbeatSource[] {
    const all = [...this.#sources.values()].filter((s) => orgId === undefined || s.org_id === orgId);
    return all.map((s) => ({ ...s }));
  }
}
