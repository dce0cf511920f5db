import type { Channel, EventKind, Severity } from "../../gen/guard/v1/types_pb.js";

/** The part of a segment a built-in detector reads. */
export interface SegmentView {
  readonly path: string;
  readonly channel: Channel;
  readonly text: string;
  readonly addressable: boolean;
  readonly toolName: string;
  readonly callId: string;
  readonly argumentKey: string;
}

/** What a built-in detector reports for one segment; the service adds path and attribution. */
export interface Detection {
  /** Taxonomy id, e.g. `privacy.pii.email`. */
  readonly category: string;
  readonly severity: Severity;
  /** UTF-16 indexes into the segment text; the service converts them to code points. */
  readonly start?: number;
  readonly end?: number;
  /** Confidence, 0 to 1. */
  readonly score: number;
  /** The detected value, bounded (at most one per finding). */
  readonly subject: string;
  /** Placeholder kind for redaction (`EMAIL`, `AWS_KEY`, ...). */
  readonly placeholderKind: string;
  /** One short sentence for logs and notices. */
  readonly reason: string;
}

/**
 * A detector that runs in this process. It judges one segment at a time, which lets the
 * pipeline memoise results per (text, channel, detector version) across the steps of a
 * conversation that repeats its history. It must be pure and run in time linear in the text.
 */
export interface Detector {
  readonly name: string;
  /** Bumped whenever results can change for the same input; part of the memo key. */
  readonly version: string;
  /** Category ids or prefixes (`security.secret_leak.*`) it may report. */
  readonly categories: readonly string[];
  /** Channels it wants to see; absent means all. */
  readonly channels?: readonly Channel[];
  detect(segment: SegmentView, kind: EventKind): Detection[];
}

/** Longest subject kept on a finding: enough to whitelist, never a whole document. */
export const MAX_SUBJECT_CHARS = 256;

export function boundSubject(value: string): string {
  return value.length <= MAX_SUBJECT_CHARS ? value : value.slice(0, MAX_SUBJECT_CHARS);
}
