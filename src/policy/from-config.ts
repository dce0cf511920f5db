import { Channel, EventKind, Severity } from "../../gen/guard/v1/types_pb.js";
import type { PolicyAction, PolicyRule, PolicySet } from "./policy.js";

/** Channel names as written in configuration files. */
export const CHANNEL_NAMES: Readonly<Record<string, Channel>> = {
  system: Channel.SYSTEM,
  user: Channel.USER,
  tool_result: Channel.TOOL_RESULT,
  assistant_history: Channel.ASSISTANT_HISTORY,
  prose: Channel.PROSE,
  reasoning: Channel.REASONING,
  tool_call_arguments: Channel.TOOL_CALL_ARGUMENTS,
  tool_inventory: Channel.TOOL_INVENTORY,
};

const KIND_NAMES: Readonly<Record<string, EventKind>> = {
  "step/request": EventKind.STEP_REQUEST,
  "step/response": EventKind.STEP_RESPONSE,
};

const SEVERITY_NAMES: Readonly<Record<string, Severity>> = {
  low: Severity.LOW,
  medium: Severity.MEDIUM,
  high: Severity.HIGH,
  critical: Severity.CRITICAL,
};

const ACTIONS: readonly PolicyAction[] = ["block", "redact", "flag"];
const CATEGORY = /^(\*|(safety|security|privacy|x)(\.[a-z0-9_]+)*(\.\*)?)$/;

/** A policy set as configured, before its names are resolved. */
export interface PolicySetConfig {
  readonly name: string;
  /** Agents this set judges (wins over workspaces). */
  readonly agents: readonly string[];
  readonly workspaces: readonly string[];
  readonly rules: readonly PolicyRule[];
  /** When true (the default) the shipped rules follow this set's own. */
  readonly inheritDefaults: boolean;
}

function names<T>(value: unknown, table: Readonly<Record<string, T>>, where: string): T[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new Error(`${where} must be a list`);
  return value.map((v) => {
    const resolved = typeof v === "string" ? table[v] : undefined;
    if (resolved === undefined) throw new Error(`${where}: unknown value ${String(v)} (one of ${Object.keys(table).join(", ")})`);
    return resolved;
  });
}

/** Parses one configured rule; throws with the rule's location on any mistake. */
export function parseRule(raw: unknown, where: string): PolicyRule {
  if (typeof raw !== "object" || raw === null) throw new Error(`${where} must be a mapping`);
  const r = raw as Record<string, unknown>;
  const category = r["category"];
  if (typeof category !== "string" || !CATEGORY.test(category))
    throw new Error(`${where}.category must be a category id or prefix.* (got ${String(category)})`);
  const action = r["action"];
  if (typeof action !== "string" || !ACTIONS.includes(action as PolicyAction))
    throw new Error(`${where}.action must be block, redact or flag`);
  const channels = names(r["channels"], CHANNEL_NAMES, `${where}.channels`);
  const kinds = names(r["kinds"], KIND_NAMES, `${where}.kinds`);
  const minSeverity = r["min_severity"] === undefined ? undefined : names([r["min_severity"]], SEVERITY_NAMES, `${where}.min_severity`)?.[0];
  const minScore = r["min_score"];
  if (minScore !== undefined && (typeof minScore !== "number" || minScore < 0 || minScore > 1))
    throw new Error(`${where}.min_score must be a number from 0 to 1`);
  return {
    category,
    action: action as PolicyAction,
    ...(channels ? { channels } : {}),
    ...(kinds ? { kinds } : {}),
    ...(minSeverity !== undefined ? { minSeverity } : {}),
    ...(typeof minScore === "number" ? { minScore } : {}),
  };
}

/**
 * Chooses the policy set for an event (spec 5: `agent_id` and `agent_workspace` choose it;
 * integration, connection and session_hint never do): a set naming the agent wins, then a
 * set naming the workspace, then the shipped defaults.
 */
export function selectPolicy(
  sets: readonly PolicySetConfig[],
  defaults: PolicySet,
  agentId: string,
  workspace: string,
): PolicySet {
  const chosen = sets.find((s) => s.agents.includes(agentId)) ?? sets.find((s) => s.workspaces.includes(workspace));
  if (!chosen) return defaults;
  return { name: chosen.name, rules: chosen.inheritDefaults ? [...chosen.rules, ...defaults.rules] : chosen.rules };
}
