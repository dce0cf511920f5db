import type { Client } from "@connectrpc/connect";
import type { DetectorService } from "../../gen/guard/v1/detector_pb.js";
import type { Channel, EventKind, Finding, Segment } from "../../gen/guard/v1/types_pb.js";
import { type DetectionMemo, type MemoSlot, type Unit, unitsOf } from "./detection-memo.js";

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
  // One lookup per unit, shared by every detector of this step.
  const slots = memo ? units.map((unit) => memo.memo.slot(memo.orgId, kind, unit)) : [];
  const all = units.map((unit, i) => ({ unit, slot: slots[i] }));
  const shown = detectors.map((detector) =>
    detector.channels.length === 0
      ? all
      : all.filter(({ unit }) => detector.channels.includes(unit.segments[0]?.channel ?? 0)),
  );
  const runs = detectors.map(async (detector, d) => {
    const detectorKey = `${detector.name}@${detector.version}`;
    const recalled: Finding[] = [];
    const pending: { unit: Unit; slot: MemoSlot | undefined }[] = [];
    for (const item of shown[d] ?? []) {
      const known = memo && item.slot ? memo.memo.recall(item.slot, detectorKey, item.unit) : undefined;
      if (known) recalled.push(...known);
      else pending.push(item);
    }
    if (pending.length === 0) return { findings: recalled, unjudged: [] as string[] };
    const response = await detector.client.detect(
      { kind, segments: pending.flatMap((p) => p.unit.segments) },
      { timeoutMs: deadlineMs },
    );
    if (memo) {
      const unjudged = new Set(response.unjudged);
      const byPath = new Map<string, Finding[]>();
      for (const finding of response.findings) {
        const list = byPath.get(finding.path);
        if (list) list.push(finding);
        else byPath.set(finding.path, [finding]);
      }
      for (const { unit, slot } of pending)
        if (slot && !unjudged.has(unit.path)) memo.memo.remember(memo.orgId, slot, detectorKey, byPath.get(unit.path) ?? []);
    }
    return { findings: [...recalled, ...response.findings], unjudged: response.unjudged };
  });
  const settled = await Promise.allSettled(runs);
  const findings: Finding[] = [];
  const unjudged: string[] = [];
  const failed: DetectorHandle[] = [];
  settled.forEach((result, d) => {
    if (result.status === "fulfilled") {
      findings.push(...result.value.findings);
      unjudged.push(...result.value.unjudged);
      return;
    }
    // Any failure, the detector's or ours, costs the coverage of what it was to judge:
    // nothing here may turn "could not look" into "found nothing".
    const detector = detectors[d];
    if (detector) failed.push(detector);
    unjudged.push(...(shown[d] ?? []).map(({ unit }) => unit.path));
  });
  return { findings, unjudged, failed };
}
