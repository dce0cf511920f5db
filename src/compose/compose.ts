import { Channel, EventKind, type Finding, type Segment, type ToolCall } from "../../gen/guard/v1/types_pb.js";
import { type FailModes, failModeFor } from "../policy/fail-modes.js";
import { actionFor, type PolicySet } from "../policy/policy.js";
import { isBmpOnly, sliceCodePoints } from "../text/code-points.js";
import type { Composition, Redaction, WireContinuation, WireFinding } from "./wire.js";
import { severityName } from "./severity.js";

export interface ComposeInput {
  readonly kind: EventKind;
  readonly segments: readonly Segment[];
  readonly toolCalls: readonly ToolCall[];
  readonly findings: readonly Finding[];
  readonly unjudged: readonly string[];
  readonly policy: PolicySet;
  /** Keyed, irreversible fingerprint of a finding's subject (DESIGN.md decision 4). */
  readonly fingerprint: (category: string, subject: string) => string;
  readonly isWhitelisted: (fp: string) => boolean;
  /** Detectors that failed or overran their deadline, with the categories they cover. */
  readonly silent?: readonly { readonly name: string; readonly categories: readonly string[] }[];
  readonly failModes?: FailModes;
}

const MAX_NOTICE = 2000;

/**
 * The only place findings become a decision (spec 2.3, 2.4): block when a rule says block,
 * or when it says redact and the text cannot be addressed (rule 3); redact as redactions
 * (the caller turns them into spans with the agent's placeholders); flag as findings only. Whitelisted findings stay visible and weigh nothing.
 */
export function compose(input: ComposeInput): { composition: Composition; redactions: Redaction[] } {
  // Built on the first redaction only: most findings of a step never need their segment.
  let segmentsByPath: Map<string, Segment> | undefined;
  const segmentAt = (path: string) => {
    segmentsByPath ??= new Map(input.segments.map((s) => [s.path, s] as const));
    return segmentsByPath.get(path);
  };
  const findings: WireFinding[] = [];
  const redactions: Redaction[] = [];
  const blocking: Finding[] = [];
  // Whether a text has astral characters, asked once per text however many findings it has.
  const bmp = new Map<string, boolean>();
  const bmpOnly = (text: string) => {
    let known = bmp.get(text);
    if (known === undefined) {
      known = isBmpOnly(text);
      bmp.set(text, known);
    }
    return known;
  };

  for (const finding of input.findings) {
    const fp = input.fingerprint(finding.category, finding.subject);
    const whitelisted = input.isWhitelisted(fp);
    findings.push(toWire(finding, fp, whitelisted));
    if (whitelisted) continue;
    const action = actionFor(input.policy, finding, input.kind);
    if (action === "block") blocking.push(finding);
    if (action !== "redact") continue;
    const segment = segmentAt(finding.path);
    if (segment?.addressable && finding.start !== undefined && finding.end !== undefined) {
      const value = sliceCodePoints(segment.text, finding.start, finding.end, bmpOnly(segment.text));
      redactions.push({ path: finding.path, start: finding.start, end: finding.end, kind: finding.placeholderKind || "VALUE", value });
    } else {
      // Redaction wanted where no span can be addressed: the action may not proceed.
      blocking.push(finding);
    }
  }

  // "Could not look" costs a block only where the deployment fails closed (spec 4.1).
  const failModes = input.failModes ?? { default: "open" };
  const closed = (input.silent ?? []).filter((d) => failModeFor(failModes, d.categories) === "closed");
  const decision = blocking.length > 0 || closed.length > 0 ? "block" : "allow";
  const composition: Composition = {
    decision,
    findings,
    spans: [],
    unjudged: [...new Set(input.unjudged)],
  };
  if (decision === "block")
    composition.continuation =
      blocking.length > 0
        ? continuationFor(input, blocking)
        : {
            style: "answer",
            paths: [],
            notice: `Guard could not judge this step (${closed.map((d) => d.name).join(", ")} did not answer in time) and this deployment does not proceed unjudged. Try again shortly.`.slice(
              0,
              MAX_NOTICE,
            ),
          };
  return { composition, redactions: disjoint(redactions) };
}

function toWire(finding: Finding, fp: string, whitelisted: boolean): WireFinding {
  const wire: WireFinding = {
    category: finding.category,
    severity: severityName(finding.severity),
    path: finding.path,
    score: Math.min(1, Math.max(0, finding.score)),
    detector: finding.detector,
    fp,
    subject: finding.subject,
  };
  if (finding.start !== undefined && finding.end !== undefined) {
    wire.start = finding.start;
    wire.end = finding.end;
  }
  if (whitelisted) wire.whitelisted = true;
  return wire;
}

/** Redactions sorted by path and start, with overlaps resolved in favour of the earlier, longer one. */
function disjoint(spans: Redaction[]): Redaction[] {
  const sorted = [...spans].sort((a, b) =>
    a.path === b.path ? a.start - b.start || b.end - a.end : a.path < b.path ? -1 : 1,
  );
  const kept: Redaction[] = [];
  for (const span of sorted) {
    const last = kept[kept.length - 1];
    if (last && last.path === span.path && span.start < last.end) continue;
    kept.push(span);
  }
  return kept;
}

function notice(blocking: readonly Finding[], instead: string): string {
  const reasons = [...new Set(blocking.map((f) => f.reason || f.category))].slice(0, 8).join("; ");
  return `Guard refused this step (${reasons}). ${instead}`.slice(0, MAX_NOTICE);
}

/**
 * The refusal form that keeps the session alive (spec 2.7): drop only the offending tool
 * calls of a response; withhold only the offending tool results of a request; otherwise
 * answer with the notice.
 */
function continuationFor(input: ComposeInput, blocking: readonly Finding[]): WireContinuation {
  if (input.kind === EventKind.STEP_RESPONSE) {
    const callIds = new Set(blocking.map((f) => f.callId));
    const onlyCalls = blocking.every((f) => f.channel === Channel.TOOL_CALL_ARGUMENTS && f.callId !== "");
    const calls = input.toolCalls.filter((c) => callIds.has(c.id));
    if (onlyCalls && calls.length > 0)
      return {
        style: "drop_calls",
        paths: calls.map((c) => c.path),
        notice: notice(blocking, "The named tool calls were not run; continue without them or choose a safer action."),
      };
  } else {
    const onlyResults = blocking.every((f) => f.channel === Channel.TOOL_RESULT);
    if (onlyResults)
      return {
        style: "withhold",
        paths: [...new Set(blocking.map((f) => f.path))],
        notice: notice(
          blocking,
          "This tool result was withheld because it contained content Guard will not pass to the model; do not retry the same source.",
        ),
      };
  }
  return { style: "answer", paths: [], notice: notice(blocking, "Ask for something else or rephrase the request.") };
}
