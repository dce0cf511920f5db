import { Channel, EventKind, Severity } from "../../gen/guard/v1/types_pb.js";

/** What a finding does to the verdict. Decisions stay allow/block; these are policy actions. */
export type PolicyAction = "block" | "redact" | "flag";

/** One rule: a category (exact or `prefix.*`), where it applies, and what it does. */
export interface PolicyRule {
  readonly category: string;
  readonly action: PolicyAction;
  /** Channels it applies on; absent means all. */
  readonly channels?: readonly Channel[];
  /** Event kinds it applies on; absent means both. */
  readonly kinds?: readonly EventKind[];
  /** Lowest severity it applies to; absent means any. */
  readonly minSeverity?: Severity;
  /** Lowest score it applies to; absent means any. */
  readonly minScore?: number;
}

/** An ordered rule list: the first rule that matches a finding decides its action. */
export interface PolicySet {
  readonly name: string;
  readonly rules: readonly PolicyRule[];
}

/** True when `category` is `pattern`, or lies under a `prefix.*` pattern. */
export function categoryMatches(pattern: string, category: string): boolean {
  if (pattern === "*") return true;
  if (pattern.endsWith(".*")) {
    const prefix = pattern.slice(0, -2);
    return category === prefix || category.startsWith(`${prefix}.`);
  }
  return pattern === category;
}

export interface FindingFacts {
  readonly category: string;
  readonly severity: Severity;
  readonly score: number;
  readonly channel: Channel;
}

/** The action of the first matching rule; a finding no rule covers is only flagged. */
export function actionFor(policy: PolicySet, finding: FindingFacts, kind: EventKind): PolicyAction {
  for (const rule of policy.rules) {
    if (!categoryMatches(rule.category, finding.category)) continue;
    if (rule.channels && !rule.channels.includes(finding.channel)) continue;
    if (rule.kinds && !rule.kinds.includes(kind)) continue;
    if (rule.minSeverity !== undefined && finding.severity < rule.minSeverity) continue;
    if (rule.minScore !== undefined && finding.score < rule.minScore) continue;
    return rule.action;
  }
  return "flag";
}

const ARGS = [Channel.TOOL_CALL_ARGUMENTS];
const RESPONSE = [EventKind.STEP_RESPONSE];

/**
 * The defaults that ship: secrets leaving in requests are redacted and in tool-call
 * arguments blocked; malicious commands and exfiltration in tool calls blocked from MEDIUM up; prompt
 * injection in tool results blocked; personal data redacted where it can be addressed.
 */
export const DEFAULT_POLICY: PolicySet = {
  name: "default",
  rules: [
    { category: "security.secret_leak.*", action: "block", channels: ARGS, kinds: RESPONSE },
    { category: "security.secret_leak.*", action: "redact" },
    // LOW is a weak signal (an interactive shell opened, a file from outside the working
    // tree uploaded, an interpreter one-liner that runs a command): shown, never blocking,
    // since a false block costs the agent its step. MEDIUM and above block.
    {
      category: "security.malicious_command",
      action: "block",
      channels: ARGS,
      kinds: RESPONSE,
      minSeverity: Severity.MEDIUM,
    },
    { category: "security.malicious_command", action: "flag" },
    {
      category: "security.data_exfiltration",
      action: "block",
      channels: ARGS,
      kinds: RESPONSE,
      minSeverity: Severity.MEDIUM,
    },
    { category: "security.data_exfiltration", action: "flag" },
    {
      category: "security.prompt_injection",
      action: "block",
      channels: [Channel.TOOL_RESULT, Channel.TOOL_INVENTORY],
      minSeverity: Severity.HIGH,
    },
    { category: "security.prompt_injection", action: "flag" },
    { category: "security.jailbreak", action: "flag" },
    // Obligations (spec 2.6): a malicious scan result, or a blocking scan never reported.
    { category: "security.malicious_artifact", action: "block" },
    { category: "security.unverified_artifact", action: "block", minSeverity: Severity.HIGH },
    { category: "security.unverified_artifact", action: "flag" },
    // Personal data in tool-call arguments is usually the task itself (send this email):
    // flag it there, since redaction inside encoded arguments would force a block.
    { category: "privacy.pii.*", action: "flag", channels: ARGS },
    { category: "privacy.pii.*", action: "redact" },
  ],
};
