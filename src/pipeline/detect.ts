import type { Client } from "@connectrpc/connect";
import type { DetectorService } from "../../gen/guard/v1/detector_pb.js";
import type { Channel, EventKind, Finding, Segment } from "../../gen/guard/v1/types_pb.js";

/** A detector as the pipeline sees it: what it said of itself, and how to call it. */
export interface DetectorHandle {
  readonly name: string;
  readonly version: string;
  readonly categories: readonly string[];
  /** Channels it asked for; empty means all. */
  readonly channels: readonly Channel[];
  readonly client: Client<typeof DetectorService>;
}

export interface DetectOutcome {
  readonly findings: Finding[];
  /** Paths some detector could not judge (timed out, failed, or said so). */
  readonly unjudged: string[];
  /** Detectors that failed or timed out, for the fail modes, logs and metrics. */
  readonly failed: DetectorHandle[];
}

/**
 * Consults every detector at once, each under its own deadline. A detector that fails or
 * times out costs only its own coverage: the segments it was shown go into `unjudged`
 * and the others' findings still count ("could not look" is not "found nothing").
 */
export async function detectAll(
  detectors: readonly DetectorHandle[],
  kind: EventKind,
  segments: readonly Segment[],
  deadlineMs: number,
): Promise<DetectOutcome> {
  const runs = detectors.map(async (detector) => {
    const shown = detector.channels.length === 0 ? segments : segments.filter((s) => detector.channels.includes(s.channel));
    if (shown.length === 0) return { detector, shown, response: undefined };
    const response = await detector.client.detect({ kind, segments: [...shown] }, { timeoutMs: deadlineMs });
    return { detector, shown, response };
  });
  const settled = await Promise.allSettled(runs);
  const findings: Finding[] = [];
  const unjudged: string[] = [];
  const failed: DetectorHandle[] = [];
  settled.forEach((result, i) => {
    if (result.status === "fulfilled") {
      if (result.value.response) {
        findings.push(...result.value.response.findings);
        unjudged.push(...result.value.response.unjudged);
      }
      return;
    }
    const detector = detectors[i];
    if (!detector) return;
    failed.push(detector);
    const shown = detector.channels.length === 0 ? segments : segments.filter((s) => detector.channels.includes(s.channel));
    unjudged.push(...shown.map((s) => s.path));
  });
  return { findings, unjudged, failed };
}
