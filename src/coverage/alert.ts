import type { CoverageGap } from "./gaps.js";
import { MISSED_BEATS_TOLERANCE } from "./gaps.js";

/** The alert as logged and as POSTed to the webhook: one shape for both, so they can be correlated. */
export interface CoverageAlert {
  readonly alert: "coverage_lost";
  readonly org_id: string;
  readonly integration: string | null;
  readonly agent_id: string | null;
  readonly last_beat_at: string;
  readonly interval_s: number;
  readonly silent_s: number;
  readonly threshold_s: number;
  readonly missed_beats: number;
  readonly detected_at: string;
  /** Spelled out because a silent integration must never be read as a quiet, safe one. */
  readonly meaning: string;
}

export const COVERAGE_LOST_MEANING =
  "coverage lost: this integration stopped sending heartbeats; its agents' model calls may be going unjudged. " +
  "This is not an absence of risk.";

export function coverageAlert(gap: CoverageGap, now: number): CoverageAlert {
  return {
    alert: "coverage_lost",
    org_id: gap.org_id,
    integration: gap.integration ?? null,
    agent_id: gap.agent_id ?? null,
    last_beat_at: gap.last_beat_at,
    interval_s: gap.interval_s,
    silent_s: Math.round(gap.silent_s),
    threshold_s: MISSED_BEATS_TOLERANCE * gap.interval_s,
    missed_beats: gap.missed_beats,
    detected_at: new Date(now).toISOString(),
    meaning: COVERAGE_LOST_MEANING,
  };
}
