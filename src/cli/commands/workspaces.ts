import type { GuardConfig } from "../../config/types.js";
import type { AgentRecord } from "../../store/records.js";
import { expectPositionals, parseArgs } from "../args.js";
import type { Command } from "../command.js";
import { configSource, environment, loadConfig, resolveOrg, withStore } from "../context.js";
import { printRows } from "../output.js";

export interface WorkspaceRow {
  readonly org: string;
  readonly workspace: string;
  readonly default: boolean;
  /** False for a workspace agents were placed in that the configuration no longer lists. */
  readonly configured: boolean;
  readonly keys: number;
  readonly agents: string[];
}

/** Configured workspaces with the agents the store placed in each (spec 5.3: first placement wins). */
export function workspaceRows(config: GuardConfig, agents: readonly AgentRecord[], orgId?: string): WorkspaceRow[] {
  const rows: WorkspaceRow[] = [];
  for (const org of config.orgs) {
    if (orgId !== undefined && org.id !== orgId) continue;
    const placed = new Map<string, string[]>();
    for (const agent of agents) {
      if (agent.org_id !== org.id) continue;
      placed.set(agent.workspace, [...(placed.get(agent.workspace) ?? []), agent.agent_id]);
    }
    const names = [...org.workspaces, ...[...placed.keys()].filter((w) => !org.workspaces.includes(w))];
    for (const workspace of names) {
      rows.push({
        org: org.id,
        workspace,
        default: workspace === org.default_workspace,
        configured: org.workspaces.includes(workspace),
        keys: org.keys.filter((k) => (k.workspace ?? org.default_workspace) === workspace).length,
        agents: (placed.get(workspace) ?? []).sort(),
      });
    }
  }
  return rows;
}

function agentList(agents: readonly string[]): string {
  const shown = agents.slice(0, 5).join(",");
  return agents.length > 5 ? `${shown} (+${agents.length - 5})` : shown;
}

/** `guard workspaces`: configuration plus store, so an operator sees where each agent landed. */
export const workspacesCommand: Command = {
  name: "workspaces",
  usage: [{ synopsis: "workspaces [--org ID]", summary: "workspaces from the configuration with the agents placed in each (from the store)" }],
  async run(argv, io) {
    const args = parseArgs(argv, { strings: ["org"] });
    expectPositionals(args, []);
    const env = environment(io);
    const config = loadConfig(configSource(env));
    const orgId = args.string("org");
    if (orgId !== undefined) resolveOrg(config, orgId);
    const agents = await withStore(env, (store) => store.loadAgents());
    printRows(
      io,
      args.flag("json"),
      [
        { header: "ORG", value: (r: WorkspaceRow) => r.org },
        { header: "WORKSPACE", value: (r) => (r.configured ? r.workspace : `${r.workspace} (not configured)`) },
        { header: "DEFAULT", value: (r) => (r.default ? "yes" : "") },
        { header: "KEYS", value: (r) => r.keys, align: "right" },
        { header: "AGENTS", value: (r) => r.agents.length, align: "right" },
        { header: "AGENT_IDS", value: (r) => agentList(r.agents) },
      ],
      workspaceRows(config, agents, orgId),
    );
    return 0;
  },
};
