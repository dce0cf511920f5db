import { findCoverageGaps, MISSED_BEATS_TOLERANCE, type SourceState, sourceState } from "../../coverage/gaps.js";
import { type Reconciliation, reconcile } from "../../coverage/reconcile.js";
import type { HeartbeatSource } from "../../store/queries.js";

/** One line of `guard coverage`: a heartbeat source, how it stands, and what its counters say. */
export interface CoverageRow {
  readonly org_id: string;
  readonly integration?: string;
  readonly agent_id?: string;
  readonly last_beat_at: string;
  readonly age_ms: number;
  readonly interval_s?: number;
  readonly state: SourceState;
  /** Whole intervals without a beat (0 when the source is within its cadence or has none). */
  readonly missed_beats: number;
  readonly beats: number;
  readonly counters: Readonly<Record<string, number>>;
  readonly reconciliation?: Reconciliation;
}

/** Rows from the sources and, per source, the events recorded in its reconciliation window. */
export function coverageRows(sources: readonly HeartbeatSource[], recorded: ReadonlyMap<HeartbeatSource, number>, now: number): CoverageRow[] {
  const gaps = new Map(findCoverageGaps(sources, now).map((g) => [`${g.org_id}\u001f${g.integration}\u001f${g.agent_id}`, g]));
  return sources
    .map((source): CoverageRow => {
      const gap = gaps.get(`${source.org_id}\u001f${source.integration}\u001f${source.agent_id}`);
      const count = recorded.get(source);
      const reconciliation = count === undefined ? undefined : reconcile(source, count);
      const interval = source.last.interval_s;
      return {
        org_id: source.org_id,
        ...(source.integration !== undefined ? { integration: source.integration } : {}),
        ...(source.agent_id !== undefined ? { agent_id: source.agent_id } : {}),
        last_beat_at: source.last.at,
        age_ms: now - Date.parse(source.last.at),
        ...(interval !== undefined ? { interval_s: interval } : {}),
        state: sourceState(source, now),
        missed_beats: gap?.missed_beats ?? 0,
        beats: source.beats,
        counters: source.last.counters ?? {},
        ...(reconciliation ? { reconciliation } : {}),
      };
    })
    .sort((a, b) => a.org_id.localeCompare(b.org_id) || b.age_ms - a.age_ms);
}

/** The two lines an operator must not misread, printed under the table when they apply. */
export function coverageNotes(rows: readonly CoverageRow[]): string[] {
  const notes: string[] = [];
  if (rows.some((r) => r.state === "missed"))
    notes.push(
      `MISSED: silent for more than ${MISSED_BEATS_TOLERANCE} x interval_s. Coverage is lost: its agents' calls may be going unjudged. This is not "no risk".`,
    );
  if (rows.some((r) => (r.reconciliation?.gap ?? 0) > 0))
    notes.push(
      "GAP > 0: events the integration reports sending (events_sent) that Guard never recorded: lost in transit or selectively suppressed.",
    );
  if (rows.some((r) => r.state === "unknown")) notes.push("unknown: the beats declare no interval_s, so missed beats cannot be computed.");
  return notes;
}
