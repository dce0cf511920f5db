import type { MediaPart } from "../../gen/guard/v1/types_pb.js";
import type { OrgLimits } from "../config/types.js";

export interface MediaOutcome {
  /** Parts over their kind's cap (0: kind not accepted) or beyond `media_parts_max`. */
  readonly declined: string[];
  /** Every media path: no built-in detector reads images, audio, documents or video. */
  readonly unjudged: string[];
}

/**
 * Spec 8: a media part over its cap is declined while the event is accepted, and its path
 * goes into `unjudged`. Parts within their cap are accepted and recorded, but no built-in
 * detector reads media, so they are reported as unjudged too: "could not look" must never
 * read as "found nothing".
 */
export function judgeMedia(parts: readonly MediaPart[], limits: OrgLimits): MediaOutcome {
  const declined: string[] = [];
  parts.forEach((part, index) => {
    const cap = limits.media[part.kind as keyof OrgLimits["media"]] ?? 0;
    if (index >= limits.media_parts_max || cap === 0 || Number(part.bytes) > cap) declined.push(part.path);
  });
  return { declined, unjudged: parts.map((p) => p.path) };
}
