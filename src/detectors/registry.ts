import { commandsDetector } from "./commands/index.js";
import type { Detector } from "./detector.js";
import { exfiltrationDetector } from "./exfiltration/index.js";
import { injectionDetector } from "./injection/index.js";
import { piiDetector } from "./pii/index.js";
import { secretsDetector } from "./secrets/index.js";

/** The built-in detectors, in the order their findings are reported. */
export const builtinDetectors: readonly Detector[] = [
  piiDetector,
  secretsDetector,
  commandsDetector,
  exfiltrationDetector,
  injectionDetector,
];
