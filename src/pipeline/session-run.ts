import type { ConversationEntry, Segment } from "../../gen/guard/v1/types_pb.js";
import { addressedTo, type JudgedUnit, type Unit, type UnitResults } from "./detection-memo.js";

/**
 * The session level of the detection memo (detection-memo.ts): what a session's last request
 * was judged as, message by message, so that the next request, which re-sends that history,
 * recalls it without reading its texts again.
 *
 * A message is recognised by its conversation digest. Decomposition already read every text of
 * the message to digest it, and the digest covers every text the message contributes
 * (test/unit/decompose/digest-coverage.test.ts); with the digests of every message before it
 * equal as well, the message's segments have the same texts, channels, tools, calls and argument
 * keys. What the digest leaves out is presentation (a string or a text part, arguments as an
 * object or as encoded JSON): it moves paths and may change addressability. Detector results
 * never depend on a path (the text level keys on the same facts), so a message's units need
 * only their channels and addressability checked, segment by segment, in one flat array; the
 * units that had findings are also checked for their grouping, and their findings re-addressed
 * when their path moved.
 */

/** A unit of a session's last request some detector found something in. */
export interface SpeakingUnit {
  /** The conversation entry (message) it belongs to. */
  readonly message: number;
  /** Index of its first segment in the body; its segments follow one another. */
  readonly at: number;
  readonly unit: Unit;
  /** Every detector's findings. */
  readonly results: UnitResults;
}

/** The messages of a session's last request. */
export interface SessionRun {
  /** Key of the detector set the results belong to. */
  readonly set: string;
  /** Per message, in order: its conversation digest. */
  readonly digests: readonly string[];
  /** Per message, index of its first segment; one more entry marks the end of the last. */
  readonly starts: Int32Array;
  /** Per segment of those messages: its channel, and whether it is addressable (see factOf). */
  readonly facts: Int32Array;
  /** Units with findings, in body order. */
  readonly speaking: readonly SpeakingUnit[];
  readonly bytes: number;
}

/** What `match` found: the first `count` messages repeat the run's, and their units with findings. */
export interface RunMatch {
  readonly count: number;
  /** Where the next segment starts (the first not recalled). */
  readonly at: number;
  /** The recalled units with findings, addressed to this body, in body order. */
  readonly speaking: SpeakingUnit[];
}

/** What a message of the run costs beyond its segments' facts (digest, array slots). */
const MESSAGE_BYTES = 160;
/** What a unit with findings costs beyond its texts (path, arrays, objects, findings). */
const UNIT_BYTES = 256;

/** One segment's facts as one number: channel, and addressability in the lowest bit. */
function factOf(segment: Segment): number {
  return (segment.channel << 1) | (segment.addressable ? 1 : 0);
}

/**
 * The longest run of the body's first messages that repeats the run's first messages: same
 * digest, same number of segments with the same facts, and every unit with findings still one
 * unit of the same segments.
 */
export function matchRun(
  run: SessionRun,
  conversation: readonly ConversationEntry[],
  segments: readonly Segment[],
): RunMatch {
  const limit = Math.min(run.digests.length, conversation.length);
  const speaking: SpeakingUnit[] = [];
  let next = 0; // the next unit with findings to check
  let count = 0;
  for (; count < limit; count++) {
    const entry = conversation[count]!;
    const start = run.starts[count]!;
    const end = run.starts[count + 1]!;
    if (entry.digest !== run.digests[count] || entry.segments !== end - start || end > segments.length) break;
    let same = true;
    for (let k = start; k < end && same; k++) same = factOf(segments[k]!) === run.facts[k];
    if (!same) break;
    // Message `count` recalled only if each of its units with findings is still one unit.
    const mark = speaking.length;
    while (next < run.speaking.length && run.speaking[next]!.message === count) {
      const addressed = readdressed(run.speaking[next]!, segments, end);
      if (!addressed) break;
      speaking.push(addressed);
      next++;
    }
    if (next < run.speaking.length && run.speaking[next]!.message === count) {
      speaking.length = mark;
      break;
    }
  }
  return { count, at: count === 0 ? 0 : run.starts[count]!, speaking };
}

/**
 * A unit with findings as it sits in this body (same segments from the same place, one path
 * among them and none beyond them within the message), its findings carrying this body's path;
 * undefined when the body groups those segments otherwise.
 */
function readdressed(
  stored: SpeakingUnit,
  segments: readonly Segment[],
  messageEnd: number,
): SpeakingUnit | undefined {
  const n = stored.unit.segments.length;
  const head = segments[stored.at]!;
  for (let k = 1; k < n; k++) if (segments[stored.at + k]!.path !== head.path) return undefined;
  const after = stored.at + n;
  if (after < messageEnd && segments[after]!.path === head.path) return undefined;
  if (head.path === stored.unit.path) return stored;
  const unit = { path: head.path, segments: segments.slice(stored.at, after) };
  return { ...stored, unit, results: addressedTo(stored.results, unit) };
}

/**
 * The run for this body: the recalled messages as they were (their units with findings as
 * addressed to this body), then each following message whose units every detector has answered
 * for, up to the first that is not. `units` are the body's units after the recalled ones, in
 * body order.
 */
export function nextRun(
  set: string,
  previous: SessionRun | undefined,
  match: RunMatch | undefined,
  conversation: readonly ConversationEntry[],
  segments: readonly Segment[],
  units: readonly JudgedUnit[],
): SessionRun {
  const kept = match?.count ?? 0;
  const digests = previous ? previous.digests.slice(0, kept) : [];
  const speaking: SpeakingUnit[] = match ? match.speaking.slice() : [];
  let bytes = 0;
  for (const s of speaking) bytes += unitBytes(s.unit);
  // The messages this body adds, as far as they are fully judged.
  let end = match?.at ?? 0;
  const ends: number[] = [];
  let u = 0;
  for (let m = kept; m < conversation.length; m++) {
    const entry = conversation[m]!;
    const stop = end + entry.segments;
    if (stop > segments.length) break;
    const found: SpeakingUnit[] = [];
    let left = entry.segments;
    let whole = true;
    while (left > 0 && u < units.length && whole) {
      const judged = units[u++]!;
      left -= judged.unit.segments.length;
      whole = judged.results.every((r) => r !== undefined);
      if (whole && judged.results.some((r) => r !== undefined && r.length > 0)) {
        const at = segments.indexOf(judged.unit.segments[0]!, end);
        // Its segments must follow one another for a later body to find them by place.
        whole = at >= 0 && at + judged.unit.segments.length <= stop && contiguous(segments, at, judged.unit);
        found.push({ message: m, at, unit: judged.unit, results: judged.results });
      }
    }
    if (left !== 0 || !whole) break;
    for (const s of found) bytes += unitBytes(s.unit);
    speaking.push(...found);
    digests.push(entry.digest);
    ends.push(stop);
    end = stop;
  }
  const count = digests.length;
  const starts = new Int32Array(count + 1);
  if (previous) starts.set(previous.starts.subarray(0, kept + 1));
  for (let i = 0; i < ends.length; i++) starts[kept + 1 + i] = ends[i]!;
  const facts = new Int32Array(starts[count]!);
  const reused = kept > 0 && previous ? previous.starts[kept]! : 0;
  if (previous && reused > 0) facts.set(previous.facts.subarray(0, reused));
  for (let k = reused; k < facts.length; k++) facts[k] = factOf(segments[k]!);
  bytes += count * MESSAGE_BYTES + facts.byteLength + starts.byteLength;
  return { set, digests, starts, facts, speaking, bytes };
}

/** Whether the unit's segments are the body's segments from `at`, in order. */
function contiguous(segments: readonly Segment[], at: number, unit: Unit): boolean {
  for (let k = 0; k < unit.segments.length; k++) if (segments[at + k] !== unit.segments[k]) return false;
  return true;
}

/** What a unit with findings holds: its texts, and the path, arrays, objects and findings around them. */
function unitBytes(unit: Unit): number {
  let bytes = UNIT_BYTES + unit.path.length * 2;
  for (const s of unit.segments)
    bytes += s.text.length * 2 + s.argumentKey.length * 2 + s.toolName.length * 2;
  return bytes;
}
