import { type HeartbeatSource, sourceKey } from "../store/queries.js";

/** Beats an integration may miss before its silence counts as coverage lost (DESIGN.md decision 9). */
export const MISSED_BEATS_TOLERANCE = 3;

/** A heartbeat source that has been silent longer than 3 x its declared interval. */
export interface CoverageGap {
  /** Source plus the beat the silence started after: one gap, one alert, however often it is checked. */
  readonly id: string;
  readonly org_id: string;
  readonly integration?: string;
  readonly agent_id?: string;
  readonly last_beat_at: string;
  readonly interval_s: number;
  /** Seconds since the last beat. */
  readonly silent_s: number;
  /** Whole intervals elapsed without a beat. */
  readonly missed_beats: number;
}

/** How a source stands at an instant; `unknown` when its beats declare no interval to judge by. */
export type SourceState = "ok" | "missed" | "unknown";

export function sourceState(source: HeartbeatSource, now: number): SourceState {
  const interval = source.last.interval_s;
  if (interval === undefined || !(interval > 0)) return "unknown";
  const silentMs = now - Date.parse(source.last.at);
  return silentMs > MISSED_BEATS_TOLERANCE * interval * 1000 ? "missed" : "ok";
}

/**
 * The pure decision: which sources have lost coverage at `now`. A source without a declared
 * interval cannot miss a beat, so it never raises one (the CLI shows it as `unknown`).
 */
export function findCoverageGaps(sources: readonly HeartbeatSource[], now: number): CoverageGap[] {
  const gaps: CoverageGap[] = [];
  for (const source of sources) {
    if (sourceState(source, now) !== "missed") continue;
    const interval = source.last.interval_s as number;
    const silent_s = (now - Date.parse(source.last.at)) / 1000;
    gaps.push({
      id: `${sourceKey(source.org_id, source.integration, source.agent_id)}\u001f${source.last.at}`,
      org_id: source.org_id,
      ...(source.integration !== undefined ? { integration: source.integration } : {}),
      ...(source.agent_id !== undefined ? { agent_id: source.agent_id } : {}),
      last_beat_at: source.last.at,
      interval_s: interval,
      silent_s,
      missed_beats: Math.floor(silent_s / interval),
    });
  }
  return gaps;
}
