import { Severity } from "../../gen/guard/v1/types_pb.js";

const NAMES: Record<Severity, "low" | "medium" | "high" | "critical"> = {
  [Severity.UNSPECIFIED]: "medium",
  [Severity.LOW]: "low",
  [Severity.MEDIUM]: "medium",
  [Severity.HIGH]: "high",
  [Severity.CRITICAL]: "critical",
};

/** The wire name of a severity (spec 2.4). */
export function severityName(severity: Severity): "low" | "medium" | "high" | "critical" {
  return NAMES[severity];
}
