import type { Client } from "@connectrpc/connect";
import type { DetectorService } from "../../gen/guard/v1/detector_pb.js";
import type { Channel, ConversationEntry, EventKind, Finding, Segment } from "../../gen/guard/v1/types_pb.js";
import {
  type DetectionMemo,
  type DetectorSet,
  type JudgedUnit,
  type MemoScope,
  type Recall,
  unitsOf,
} from "./detection-memo.js";

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
  /** Per detector, in the body order of the units they name. */
  readonly findings: Finding[];
  /** Paths some detector could not judge (timed out, failed, or said so). */
  readonly unjudged: string[];
  /** Detectors that failed or timed out, for the fail modes, logs and metrics. */
  readonly failed: DetectorHandle[];
}

/** Where detection results may be recalled from and kept (see detection-memo.ts). */
export interface DetectMemoOptions {
  readonly memo: DetectionMemo;
  readonly orgId: string;
  /** The session the event was attached to: a request's repeated history is then recalled in one pass. */
  readonly sessionId?: string;
  /** The body's conversation with its digests (decomposition's): how repeated messages are recognised. */
  readonly conversation?: readonly ConversationEntry[];
}

const EMPTY: readonly Finding[] = Object.freeze([]);
const sets = new WeakMap<readonly DetectorHandle[], DetectorSet>();

/** The detector set's memo key and channel filter, built once per list of handles. */
function detectorSet(detectors: readonly DetectorHandle[]): DetectorSet {
  let set = sets.get(detectors);
  if (!set) {
    const channels = detectors.map((d) => d.channels);
    set = {
      key: detectors.map((d) => `${d.name}@${d.version}#${d.channels.join(",")}`).join("|"),
      size: detectors.length,
      applies: (d, channel) => {
        const wanted = channels[d];
        return !wanted || wanted.length === 0 || wanted.includes(channel);
      },
    };
    sets.set(detectors, set);
  }
  return set;
}

/**
 * Consults every detector at once, each under its own deadline, showing it only the units
 * the memo does not know its answer for (see detection-memo.ts). A detector that fails or
 * times out costs only its own coverage: the units it was to judge go into `unjudged` and
 * the others' findings still count ("could not look" is not "found nothing"); what it had
 * judged before still counts too.
 */
export async function detectAll(
  detectors: readonly DetectorHandle[],
  kind: EventKind,
  segments: readonly Segment[],
  deadlineMs: number,
  memo?: DetectMemoOptions,
): Promise<DetectOutcome> {
  const set = detectorSet(detectors);
  const scope: MemoScope | undefined = memo && {
    orgId: memo.orgId,
    kind,
    set,
    ...(memo.sessionId ? { sessionId: memo.sessionId } : {}),
    ...(memo.conversation ? { conversation: memo.conversation } : {}),
  };
  const recall: Recall =
    memo && scope
      ? memo.memo.recall(scope, segments)
      : {
          session: undefined,
          segments,
          speaking: [],
          units: unitsOf(segments).map((unit) => ({ unit, results: new Array(set.size).fill(undefined) })),
          slots: [],
        };

  // What each detector still has to judge; units with a gap are the only ones worth a second look.
  const pending: JudgedUnit[][] = detectors.map(() => []);
  const open: JudgedUnit[] = [];
  for (const judged of recall.units) {
    let gap = false;
    const channel = judged.unit.segments[0]?.channel ?? 0;
    for (let d = 0; d < detectors.length; d++) {
      if (judged.results[d] !== undefined) continue;
      if (set.applies(d, channel)) {
        pending[d]!.push(judged);
        gap = true;
      } else judged.results[d] = EMPTY;
    }
    if (gap) open.push(judged);
  }

  const runs = detectors.map(async (detector, d) => {
    const shown = pending[d] ?? [];
    if (shown.length === 0) return { unjudged: [] as string[], orphans: EMPTY };
    const response = await detector.client.detect(
      { kind, segments: shown.flatMap((p) => p.unit.segments) },
      { timeoutMs: deadlineMs },
    );
    const unjudged = new Set(response.unjudged);
    const byPath = new Map<string, Finding[]>();
    for (const finding of response.findings) {
      const list = byPath.get(finding.path);
      if (list) list.push(finding);
      else byPath.set(finding.path, [finding]);
    }
    // Findings naming no unit it was shown, or a unit it could not judge: reported, never kept.
    const orphans: Finding[] = [];
    for (const judged of shown) {
      const path = judged.unit.path;
      const found = byPath.get(path);
      byPath.delete(path);
      if (!unjudged.has(path)) judged.results[d] = found ?? EMPTY;
      else if (found) orphans.push(...found);
    }
    for (const list of byPath.values()) orphans.push(...list);
    return { unjudged: response.unjudged, orphans };
  });
  const settled = await Promise.allSettled(runs);

  const unjudged: string[] = [];
  const failed: DetectorHandle[] = [];
  const orphans: (readonly Finding[])[] = [];
  settled.forEach((result, d) => {
    if (result.status === "fulfilled") {
      unjudged.push(...result.value.unjudged);
      orphans[d] = result.value.orphans;
      return;
    }
    // Any failure, the detector's or ours, costs the coverage of what it was to judge:
    // nothing here may turn "could not look" into "found nothing".
    const detector = detectors[d];
    if (detector) failed.push(detector);
    for (const judged of pending[d] ?? []) {
      judged.results[d] = undefined;
      unjudged.push(judged.unit.path);
    }
  });

  // Per detector, in body order: only units with something to say are visited.
  const speaking = [
    ...recall.speaking,
    ...recall.units.filter((j) => j.results.some((r) => r !== undefined && r.length > 0)),
  ];
  const findings: Finding[] = [];
  for (let d = 0; d < detectors.length; d++) {
    for (const judged of speaking) {
      const list = judged.results[d];
      if (list) for (const f of list) findings.push(f);
    }
    for (const f of orphans[d] ?? EMPTY) findings.push(f);
  }
  if (memo && scope) memo.memo.remember(scope, recall);
  return { findings, unjudged, failed };
}
