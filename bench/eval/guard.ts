import { EventKind } from "../../gen/guard/v1/types_pb.js";
import type { Detector } from "../../src/detectors/detector.js";
import { builtinDetectors } from "../../src/detectors/registry.js";
import { detectSegment } from "../../src/detectors/service.js";
import type { Check, System } from "./system.js";

/** One built-in detector as a check, run through the same `detectSegment` path as the service. */
export function detectorCheck(detector: Detector): Check {
  return {
    name: detector.name,
    categories: detector.categories,
    run: ({ segment }) => detectSegment(detector, segment, EventKind.STEP_REQUEST).map((f) => f.category),
  };
}

/** Guard's built-in detectors, scored on every category. */
export const guardSystem: System = {
  name: "guard",
  version: builtinDetectors.map((d) => `${d.name} v${d.version}`).join(", "),
  how: "every built-in detector through `detectSegment` (src/detectors/service.ts), event kind STEP_REQUEST",
  scope: "all",
  checks: builtinDetectors.map(detectorCheck),
};
