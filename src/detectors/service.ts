import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import type { DetectorService } from "../../gen/guard/v1/detector_pb.js";
import { DescribeResponseSchema, DetectResponseSchema } from "../../gen/guard/v1/detector_pb.js";
import { type EventKind, type Finding, FindingSchema, type Segment } from "../../gen/guard/v1/types_pb.js";
import { codePointRange, isBmpOnly } from "../text/code-points.js";
import type { Detector } from "./detector.js";

/** Runs a built-in detector over one segment and turns its detections into findings. */
export function detectSegment(detector: Detector, segment: Segment, kind: EventKind): Finding[] {
  if (detector.channels && !detector.channels.includes(segment.channel)) return [];
  const detections = detector.detect(segment, kind);
  if (detections.length === 0) return [];
  const bmpOnly = isBmpOnly(segment.text);
  return detections.map((d) => {
    const finding = create(FindingSchema, {
      category: d.category,
      severity: d.severity,
      path: segment.path,
      score: d.score,
      detector: detector.name,
      subject: d.subject,
      placeholderKind: d.placeholderKind,
      reason: d.reason,
      channel: segment.channel,
      callId: segment.callId,
    });
    // Offsets only where the text is a verbatim leaf of the body (spec 2.4 rule 2).
    if (segment.addressable && d.start !== undefined && d.end !== undefined) {
      const range = codePointRange(segment.text, bmpOnly, d.start, d.end);
      finding.start = range.start;
      finding.end = range.end;
    }
    return finding;
  });
}

/** Serves a built-in detector as a DetectorService, in process or over the network. */
export function detectorServiceImpl(detector: Detector): ServiceImpl<typeof DetectorService> {
  return {
    describe() {
      return create(DescribeResponseSchema, {
        name: detector.name,
        version: detector.version,
        categories: [...detector.categories],
        channels: detector.channels ? [...detector.channels] : [],
      });
    },
    detect(request) {
      const findings: Finding[] = [];
      for (const segment of request.segments)
        findings.push(...detectSegment(detector, segment, request.kind));
      return create(DetectResponseSchema, { findings, unjudged: [] });
    },
  };
}
