import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { DetectResponse } from "../../../gen/guard/v1/detector_pb.js";
import { type Finding, type SegmentSchema, Severity } from "../../../gen/guard/v1/types_pb.js";
import { categoryMatches } from "../../policy/policy.js";
import { MAX_SUBJECT_CHARS } from "../detector.js";
import type { RemoteDetectorConfig } from "./config.js";

type SegmentInit = MessageInitShape<typeof SegmentSchema>;

/** What Guard knows of the segments one path names (tool arguments share their string's path). */
interface Shown {
  readonly channel: SegmentInit["channel"];
  readonly callId: string;
  /** Text of the addressable segment at this path, when there is one. */
  readonly addressableText?: string;
}

function indexShown(segments: readonly SegmentInit[]): Map<string, Shown> {
  const byPath = new Map<string, Shown>();
  for (const s of segments) {
    const path = s.path ?? "";
    const known = byPath.get(path);
    const text = s.addressable ? (s.text ?? "") : known?.addressableText;
    byPath.set(path, {
      channel: known?.channel ?? s.channel,
      callId: known?.callId ?? s.callId ?? "",
      ...(text !== undefined ? { addressableText: text } : {}),
    });
  }
  return byPath;
}

function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Bounds a subject like the built-in detectors do, but never cuts a surrogate pair in half. */
function boundSubject(subject: string): string {
  if (subject.length <= MAX_SUBJECT_CHARS) return subject;
  const cut = subject.slice(0, MAX_SUBJECT_CHARS);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** Checks one finding and completes what Guard knows better than the detector; returns a problem or undefined. */
function settleFinding(
  finding: Finding,
  config: RemoteDetectorConfig,
  byPath: Map<string, Shown>,
): string | undefined {
  const shown = byPath.get(finding.path);
  if (!shown) return `a finding names path ${JSON.stringify(finding.path)}, which it was not shown`;
  if (!config.categories.some((pattern) => categoryMatches(pattern, finding.category)))
    return `category ${JSON.stringify(finding.category)} is not among its configured categories`;
  if (finding.severity < Severity.LOW || finding.severity > Severity.CRITICAL)
    return `a ${finding.category} finding has no severity (low to critical)`;
  if (!Number.isFinite(finding.score) || finding.score < 0 || finding.score > 1)
    return `a ${finding.category} finding has score ${finding.score}, outside 0 to 1`;
  if ((finding.start === undefined) !== (finding.end === undefined))
    return `a ${finding.category} finding has only one of start and end`;
  if (finding.start !== undefined && finding.end !== undefined) {
    if (shown.addressableText === undefined) {
      // Offsets into text that is not a verbatim leaf could never be applied: the finding
      // still counts, by path, exactly as the contract describes it.
      finding.start = undefined;
      finding.end = undefined;
    } else if (finding.start >= finding.end || finding.end > codePointLength(shown.addressableText)) {
      return `a ${finding.category} finding has offsets ${finding.start}..${finding.end} outside its segment`;
    }
  }
  // Attribution and placement come from Guard, so a detector can neither pose as another
  // nor move a finding to a channel or call it was not found in.
  finding.detector = config.name;
  finding.channel = shown.channel ?? finding.channel;
  finding.callId = shown.callId;
  finding.subject = boundSubject(finding.subject);
  return undefined;
}

/**
 * Holds a remote detector's answer to the DetectorService contract before the pipeline uses
 * it: offsets become redaction spans and categories meet fail modes, so an answer out of
 * contract must not be half-applied. It rejects instead (the detector then counts as failed
 * and its segments as unjudged): "answered wrongly" is treated like "did not answer".
 */
export function checkDetectResponse(
  config: RemoteDetectorConfig,
  segments: readonly SegmentInit[],
  response: DetectResponse,
): DetectResponse {
  const byPath = indexShown(segments);
  const problems: string[] = [];
  for (const finding of response.findings) {
    const problem = settleFinding(finding, config, byPath);
    if (problem) problems.push(problem);
  }
  for (const path of response.unjudged)
    if (!byPath.has(path))
      problems.push(`it calls path ${JSON.stringify(path)} unjudged, which it was not shown`);
  if (problems.length > 0)
    throw new ConnectError(
      `detector ${config.name} broke the DetectorService contract: ${problems.slice(0, 3).join("; ")}`,
      Code.Internal,
    );
  return response;
}
