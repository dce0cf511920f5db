import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import type { DetectorService } from "../../gen/guard/v1/detector_pb.js";
import { DescribeResponseSchema, DetectResponseSchema } from "../../gen/guard/v1/detector_pb.js";
import type { Finding } from "../../gen/guard/v1/types_pb.js";
import type { Detector } from "./detector.js";
import { detectSegment } from "./service.js";

/**
 * All built-in detectors behind one DetectorService, for serving them over the network
 * (one service name per server): `builtin`, reporting the union of their categories.
 */
export function combinedDetectorServiceImpl(
  detectors: readonly Detector[],
  version: string,
): ServiceImpl<typeof DetectorService> {
  return {
    describe() {
      return create(DescribeResponseSchema, {
        name: "builtin",
        version: `${version}+${detectors.map((d) => `${d.name}.${d.version}`).join(",")}`,
        categories: [...new Set(detectors.flatMap((d) => d.categories))],
        channels: [],
      });
    },
    detect(request) {
      const findings: Finding[] = [];
      for (const detector of detectors)
        for (const segment of request.segments)
          findings.push(...detectSegment(detector, segment, request.kind));
      return create(DetectResponseSchema, { findings, unjudged: [] });
    },
  };
}
