import { expectPositionals, parseArgs } from "../args.js";
import type { Command } from "../command.js";
import { configSource, environment, loadConfig } from "../context.js";
import { printRows } from "../output.js";

/** `guard orgs`: the organizations of the loaded configuration, with their limits at a glance. */
export const orgsCommand: Command = {
  name: "orgs",
  usage: [{ synopsis: "orgs", summary: "organizations from the configuration: subscription, workspaces, keys, limits" }],
  async run(argv, io) {
    const args = parseArgs(argv);
    expectPositionals(args, []);
    const config = loadConfig(configSource(environment(io)));
    const rows = config.orgs.map((org) => ({
      id: org.id,
      subscription: org.subscription,
      default_workspace: org.default_workspace,
      workspaces: org.workspaces,
      keys: org.keys.length,
      revoked_keys: org.keys.filter((k) => k.revoked === true).length,
      rate_per_minute: org.limits.rate_per_minute,
      org_rate_per_minute: org.limits.org_rate_per_minute,
      max_request_bytes: org.limits.max_request_bytes,
      policy_sets: org.policies.map((p) => p.name),
    }));
    type Row = (typeof rows)[number];
    printRows(
      io,
      args.flag("json"),
      [
        { header: "ORG", value: (r: Row) => r.id },
        { header: "SUBSCRIPTION", value: (r) => r.subscription },
        { header: "DEFAULT_WS", value: (r) => r.default_workspace },
        { header: "WORKSPACES", value: (r) => r.workspaces.join(",") },
        { header: "KEYS", value: (r) => r.keys, align: "right" },
        { header: "REVOKED", value: (r) => r.revoked_keys, align: "right" },
        { header: "RATE/MIN", value: (r) => r.rate_per_minute, align: "right" },
        { header: "ORG_RATE/MIN", value: (r) => r.org_rate_per_minute || undefined, align: "right" },
        { header: "MAX_BYTES", value: (r) => r.max_request_bytes, align: "right" },
        { header: "POLICIES", value: (r) => r.policy_sets.join(",") },
      ],
      rows,
    );
    return 0;
  },
};
