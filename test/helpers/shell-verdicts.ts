import { expect } from "vitest";
import { EventKind, Severity } from "../../gen/guard/v1/types_pb.js";
import type { Detector } from "../../src/detectors/detector.js";
import { toolSegment } from "./segments.js";

/** A finding as the shell rule tests compare it. */
export type Verdict = [Severity, string];

/** `detector`'s findings on `text` as a tool call (a bash `command` unless named), as `[severity, reason]`. */
export function verdictsOf(
  detector: Detector,
  text: string,
  tool = "bash",
  argumentKey = "command",
): Verdict[] {
  return detector
    .detect(toolSegment(text, tool, argumentKey), EventKind.STEP_RESPONSE)
    .map((f) => [f.severity, f.reason]);
}

/** The strongest severity of `verdicts`, UNSPECIFIED when there are none. */
export function strongestOf(verdicts: readonly Verdict[]): Severity {
  return Math.max(Severity.UNSPECIFIED, ...verdicts.map(([s]) => s));
}

/** A HIGH verdict among `verdicts` (found on `text`), and `reason` among their reasons. */
export function expectHighWith(verdicts: readonly Verdict[], text: string, reason: string): void {
  expect(
    verdicts.some(([severity]) => severity === Severity.HIGH),
    text,
  ).toBe(true);
  expect(verdicts.map(([, r]) => r).join(" | ")).toContain(reason);
}
