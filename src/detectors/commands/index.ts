import { Channel, Severity } from "../../../gen/guard/v1/types_pb.js";
import { boundSubject, type Detection, type Detector, type SegmentView } from "../detector.js";
import { cloud } from "./rules/cloud.js";
import { codeDeletePatterns } from "./rules/code-deletes.js";
import { credentialPatterns, credentials } from "./rules/credentials.js";
import { databasePatterns, databases } from "./rules/databases.js";
import { defenseEvasion } from "./rules/defense-evasion.js";
import { destructive } from "./rules/destructive.js";
import { downloadExec } from "./rules/download-exec.js";
import { infrastructure, minerPatterns } from "./rules/infrastructure.js";
import { indirectExecPatterns, indirectExecution } from "./rules/indirect-exec.js";
import { kubernetes, kubernetesPatterns } from "./rules/kubernetes.js";
import { packages } from "./rules/packages.js";
import { persistence, persistencePatterns } from "./rules/persistence.js";
import { powershell } from "./rules/powershell.js";
import { privilege } from "./rules/privilege.js";
import { remoteShellPatterns, remoteShells } from "./rules/remote-shell.js";
import { shellEscapePatterns, shellEscapes } from "./rules/shell-escape.js";
import { windows } from "./rules/windows.js";
import { dispatchTable, runRules } from "./rules/dispatch.js";
import { type Hit, hitOn } from "./rules/types.js";
import { type Analysis, analyzeCode, analyzeShell } from "./shell/analyze.js";
import { type CommandSource, commandSources } from "./sources.js";

/**
 * `security.malicious_command`: dangerous shell in tool-call arguments and in commands that
 * prose proposes. Text is parsed (quotes, pipes, substitutions, `bash -c` nesting, wrappers)
 * and rules judge the programs that would run; see rules/types.ts for the severity scale.
 */

export const MALICIOUS_COMMAND = "security.malicious_command";

/** The rule modules, in the order their hits are reported. */
export const commandRules = [
  destructive,
  remoteShells,
  downloadExec,
  privilege,
  persistence,
  defenseEvasion,
  credentials,
  shellEscapes,
  indirectExecution,
  packages,
  powershell,
  windows,
  kubernetes,
  infrastructure,
  databases,
  cloud,
] as const;

const TABLE = dispatchTable(commandRules);

/** Every rule's hits on one analysis. */
export function commandHits(analysis: Analysis): Hit[] {
  return runRules(commandRules, TABLE, analysis);
}

/**
 * Shell nested past the analysis's bounds (`eval` inside `eval` five deep, 25 levels of
 * `$(...)`): its innermost commands went unread. No honest command in the project's fixtures
 * or the public corpora comes near those bounds, so the nesting is itself the evasion; MEDIUM,
 * which blocks a tool call by default, since what it hides was not judged.
 */
function unreadNesting(length: number): Hit {
  return hitOn(
    { start: 0, end: length },
    "unread-nesting",
    Severity.MEDIUM,
    0.8,
    "shell nested deeper than Guard reads: the innermost commands were not judged",
  );
}

/**
 * Regular expressions the rules run over free text (interpreter code, option values), for the
 * linear-time check. Patterns run only over single command words or short paths are not listed.
 */
export const commandPatterns: readonly RegExp[] = [
  ...shellEscapePatterns,
  ...remoteShellPatterns,
  ...credentialPatterns,
  ...persistencePatterns,
  ...indirectExecPatterns,
  ...kubernetesPatterns,
  ...minerPatterns,
  ...databasePatterns,
  ...codeDeletePatterns,
];

/** Analyses one source: as shell, or as interpreter code whose strings may be shell. */
export function analyzeSource(source: CommandSource): Analysis {
  return source.kind === "shell" ? analyzeShell(source.text) : analyzeCode(source.text, "python");
}

/** Keeps the strongest hit per span, so one command yields one finding. */
function strongestPerSpan(hits: readonly Hit[]): Hit[] {
  const best = new Map<string, Hit>();
  for (const h of hits) {
    const key = `${h.start}:${h.end}`;
    const current = best.get(key);
    if (
      !current ||
      h.severity > current.severity ||
      (h.severity === current.severity && h.score > current.score)
    ) {
      best.set(key, h);
    }
  }
  return [...best.values()].sort((a, b) => a.start - b.start);
}

/** Turns hits on one source into detections with offsets in the segment. */
export function toDetections(
  segment: SegmentView,
  source: CommandSource,
  hits: readonly Hit[],
  category: string,
  placeholderKind: string,
): Detection[] {
  return strongestPerSpan(hits).map((h) => {
    const start = source.offset + h.start;
    const end = source.offset + Math.min(h.end, source.text.length);
    return {
      category,
      severity: h.severity,
      start,
      end,
      score: h.score,
      subject: boundSubject(segment.text.slice(start, end).trim()),
      placeholderKind,
      reason: h.reason,
    };
  });
}

export function findMaliciousCommands(segment: SegmentView): Detection[] {
  const out: Detection[] = [];
  const seen = new Set<string>();
  for (const source of commandSources(segment)) {
    const analysis = analyzeSource(source);
    const hits = commandHits(analysis);
    if (analysis.truncated) hits.push(unreadNesting(source.text.length));
    // A `code` argument is read both as shell and as code; report each span once.
    for (const d of toDetections(segment, source, hits, MALICIOUS_COMMAND, "COMMAND")) {
      const key = `${d.start}:${d.end}`;
      if (!seen.has(key)) out.push(d);
      seen.add(key);
    }
  }
  return out;
}

export const commandsDetector: Detector = {
  name: "commands",
  version: "6",
  categories: [MALICIOUS_COMMAND],
  channels: [Channel.TOOL_CALL_ARGUMENTS, Channel.PROSE],
  detect(segment) {
    return findMaliciousCommands(segment);
  },
};
