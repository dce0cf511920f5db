import type { Client } from "@connectrpc/connect";
import type { DetectorService } from "../../gen/guard/v1/detector_pb.js";
import type { Channel, EventKind, Finding, Segment } from "../../gen/guard/v1/types_pb.js";
import { type DetectionMemo, type Unit, unitsOf } from "./detection-memo.js";

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
 * Consults every detector at once, each under its own deadline, showing it only the units
 * the memo has not judged for this organization yet (see detection-memo.ts). A detector
 * that fails or times out costs only its own coverage: the segments it was to judge go into
 * `unjudged` and the others' findings still count ("could not look" is not "found nothing").
 */
export async function detectAll(
  detectors: readonly DetectorHandle[],
  kind: EventKind,
  segments: readonly Segment[],
  deadlineMs: number,
  memo?: { readonly memo: DetectionMemo; readonly orgId: string },
): Promise<DetectOutcome> {
  const units = unitsOf(segments);
  const runs = detectors.map(async (detector) => {
    const wanted = detector.channels.length === 0 ? units : units.filter((u) => detector.channels.includes(u.segments[0]?.channel ?? 0));
    const detectorKey = `${detector.name}@${detector.version}`;
    const recalled: Finding[] = [];
    const pending: { unit: Unit; key: string }[] = [];
    for (const unit of wanted) {
      const key = memo ? memo.memo.key(memo.orgId, detectorKey, kind, unit) : "";
      const known = memo ? memo.memo.recall(key, unit) : undefined;
      if (known) recalled.push(...known);
      else pending.push({ unit, key });
    }
    if (pending.length === 0) return { findings: recalled, unjudged: [] as string[] };
    let response: Awaited<ReturnType<DetectorHandle["client"]["detect"]>>;
    try {
      response = await detector.client.detect(
        { kind, segments: pending.flatMap((p) => p.unit.segments) },
        { timeoutMs: deadlineMs },
      );
    } catch (error) {
      throw new DetectorFailure(detector, pending.map((p) => p.unit.path), error);
    }
    if (memo) {
      const unjudged = new Set(response.unjudged);
      const byPath = new Map<string, Finding[]>();
      for (const finding of response.findings) {
        const list = byPath.get(finding.path);
        if (list) list.push(finding);
        else byPath.set(finding.path, [finding]);
      }
      for (const { unit, key } of pending)
        if (!unjudged.has(unit.path)) memo.memo.remember(key, byPath.get(unit.path) ?? []);
    }
    return { findings: [...recalled, ...response.findings], unjudged: response.unjudged };
  });
  const settled = await Promise.allSettled(runs);
  const findings: Finding[] = [];
  const unjudged: string[] = [];
  const failed: DetectorHandle[] = [];
  for (const result of settled) {
    if (result.status === "fulfilled") {
      findings.push(...result.value.findings);
      unjudged.push(...result.value.unjudged);
    } else if (result.reason instanceof DetectorFailure) {
      failed.push(result.reason.detector);
      unjudged.push(...result.reason.paths);
    }
  }
  return { findings, unjudged, failed };
}

/** A detector call that failed or overran, with the paths it left unjudged. */
class DetectorFailure extends Error {
  constructor(
    readonly detector: DetectorHandle,
    readonly paths: string[],
    cause: unknown,
  ) {
    super(`detector ${detector.name} failed`, { cause });
  }
}
