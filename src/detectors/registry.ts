import type { Detector } from "./detector.js";
import { piiDetector } from "./pii/index.js";

/** The built-in detectors, in the order their findings are reported. */
export const builtinDetectors: readonly Detector[] = [piiDetector];
