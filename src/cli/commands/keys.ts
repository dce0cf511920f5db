import { readFileSync } from "node:fs";
import { stringify } from "yaml";
import { hashKey, mintKey } from "../../auth/keys.js";
import type { GuardConfig, KeyConfig, OrgConfig } from "../../config/types.js";
import { expectPositionals, type ParsedArgs, parseArgs } from "../args.js";
import type { Command } from "../command.js";
import { type ConfigSource, configSource, environment, loadConfig, resolveOrg } from "../context.js";
import { CliError, UsageError } from "../errors.js";
import type { CliIo } from "../io.js";
import { orgOf, readLocalOrg, writeLocalOrg } from "../local-org.js";
import { printJson, printRows } from "../output.js";
import { parseInstant } from "../time.js";

const RESTART =
  "a running service re-reads its configuration file within two seconds: the change holds from then on";

/** `guard keys`: keys are configuration (DESIGN.md decision 7); only their SHA-256 is ever stored. */
export const keysCommand: Command = {
  name: "keys",
  usage: [
    {
      synopsis:
        "keys create [--org ID] [--id ID] [--env live] [--workspace W] [--expires T] [--bound-agent A] [--bound-workspace W] [--add]",
      summary:
        "mint an API key: prints it once with its configuration entry (only the hash). --add puts the entry into the " +
        "embedded default's <data>/local-org.json; with GUARD_CONFIG, paste the entry into that file yourself",
    },
    {
      synopsis: "keys list [--org ID]",
      summary: "keys from the loaded configuration: id, org, workspace, binding, expiry, revoked (never a key)",
    },
    {
      synopsis: "keys revoke <id> [--org ID]",
      summary:
        "embedded default: marks the key revoked in <data>/local-org.json. With GUARD_CONFIG: changes nothing, " +
        "prints the file line to change. Either way the service applies it at its next start",
    },
    { synopsis: "keys hash <key>", summary: "the SHA-256 a configuration file stores for a key" },
  ],
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === "create") return create(parseArgs(rest, { strings: ["org", "id", "env", "workspace", "expires", "bound-agent", "bound-workspace"], flags: ["add"] }), io);
    if (sub === "list") return list(parseArgs(rest, { strings: ["org"] }), io);
    if (sub === "revoke") return revoke(parseArgs(rest, { strings: ["org"] }), io);
    if (sub === "hash") {
      const [key] = expectPositionals(parseArgs(rest), ["key"]);
      io.out(`${hashKey(key as string)}\n`);
      return 0;
    }
    throw new UsageError(sub === undefined ? "keys needs a subcommand" : `unknown keys subcommand ${sub}`);
  },
};

/** The configuration entry for a new key, as the configuration file spells it. */
export function keyEntry(args: ParsedArgs, id: string, sha256: string, org: OrgConfig, now: number): Record<string, unknown> {
  const workspace = args.string("workspace");
  if (workspace !== undefined && !org.workspaces.includes(workspace))
    throw new CliError(`workspace ${workspace} is not a workspace of org ${org.id} (have: ${org.workspaces.join(", ")})`);
  const expires = args.string("expires");
  const boundAgent = args.string("bound-agent");
  const boundWorkspace = args.string("bound-workspace");
  return {
    id,
    sha256,
    ...(workspace !== undefined ? { workspace } : {}),
    ...(boundAgent !== undefined || boundWorkspace !== undefined
      ? {
          bound: {
            ...(boundAgent !== undefined ? { agent_id: boundAgent } : {}),
            ...(boundWorkspace !== undefined ? { agent_workspace: boundWorkspace } : {}),
          },
        }
      : {}),
    // A relative `--expires 30d` means thirty days from now, not ago.
    ...(expires !== undefined ? { expires_at: expiryFrom(expires, now) } : {}),
  };
}

function expiryFrom(text: string, now: number): string {
  if (/^\d+[smhdw]$/.test(text)) return new Date(2 * now - Date.parse(parseInstant(text, now, "expires"))).toISOString();
  return parseInstant(text, now, "expires");
}

async function create(args: ParsedArgs, io: CliIo): Promise<number> {
  expectPositionals(args, []);
  const env = environment(io);
  const source = configSource(env);
  if (args.flag("add") && source.kind === "file")
    throw new CliError(`--add edits the embedded default's local-org.json; with GUARD_CONFIG add the entry to ${source.path} yourself`);
  const config = loadConfig(source);
  const org = resolveOrg(config, args.string("org"));
  const id = args.string("id") ?? `k-${io.now().toString(36)}`;
  if (org.keys.some((k) => k.id === id)) throw new CliError(`org ${org.id} already has a key ${id}`);
  const envName = args.string("env") ?? "live";
  if (!/^[a-z0-9]{1,16}$/.test(envName)) throw new UsageError(`--env must be 1 to 16 lower-case letters or digits, got ${envName}`);
  const key = mintKey(envName);
  const entry = keyEntry(args, id, hashKey(key), org, io.now());
  if (args.flag("add")) {
    const doc = readLocalOrg(source.path);
    const raw = orgOf(doc, org.id, source.path);
    raw.keys = [...(raw.keys ?? []), entry];
    writeLocalOrg(source.path, doc);
  }
  if (args.flag("json")) {
    printJson(io, { key, org: org.id, entry, added: args.flag("add") ? source.path : null });
    return 0;
  }
  const yaml = stringify([entry]).trimEnd().replace(/^/gm, "  ");
  io.out(
    `key (shown once; store it in your secret manager, Guard keeps only its hash):\n  ${key}\n\n` +
      `configuration entry (under the keys of org ${org.id}):\n${yaml}\n` +
      (args.flag("add") ? `\nadded to ${source.path}; ${RESTART}\n` : ""),
  );
  return 0;
}

type KeyStatus = "active" | "revoked" | "expired";

interface KeyRow {
  readonly org: string;
  readonly id: string;
  readonly workspace: string;
  readonly bound?: string;
  readonly expires_at?: string;
  readonly revoked: boolean;
  readonly status: KeyStatus;
}

export function keyRows(config: GuardConfig, now: number, orgId?: string): KeyRow[] {
  const rows: KeyRow[] = [];
  for (const org of config.orgs) {
    if (orgId !== undefined && org.id !== orgId) continue;
    for (const key of org.keys) rows.push(keyRow(org, key, now));
  }
  return rows;
}

function keyRow(org: OrgConfig, key: KeyConfig, now: number): KeyRow {
  const bound = key.bound
    ? [key.bound.agent_id && `agent=${key.bound.agent_id}`, key.bound.agent_workspace && `workspace=${key.bound.agent_workspace}`]
        .filter(Boolean)
        .join(",")
    : undefined;
  const expired = key.expires_at !== undefined && Date.parse(key.expires_at) <= now;
  return {
    org: org.id,
    id: key.id,
    workspace: key.workspace ?? org.default_workspace,
    ...(bound ? { bound } : {}),
    ...(key.expires_at !== undefined ? { expires_at: key.expires_at } : {}),
    revoked: key.revoked === true,
    status: key.revoked === true ? "revoked" : expired ? "expired" : "active",
  };
}

async function list(args: ParsedArgs, io: CliIo): Promise<number> {
  expectPositionals(args, []);
  const config = loadConfig(configSource(environment(io)));
  const orgId = args.string("org");
  if (orgId !== undefined) resolveOrg(config, orgId);
  printRows(
    io,
    args.flag("json"),
    [
      { header: "ORG", value: (r: KeyRow) => r.org },
      { header: "ID", value: (r) => r.id },
      { header: "WORKSPACE", value: (r) => r.workspace },
      { header: "BOUND", value: (r) => r.bound },
      { header: "EXPIRES", value: (r) => r.expires_at },
      { header: "STATUS", value: (r) => r.status },
    ],
    keyRows(config, io.now(), orgId),
  );
  return 0;
}

async function revoke(args: ParsedArgs, io: CliIo): Promise<number> {
  const [id] = expectPositionals(args, ["id"]) as [string];
  const source = configSource(environment(io));
  const config = loadConfig(source);
  const matches = config.orgs.filter((o) => (args.string("org") ?? o.id) === o.id && o.keys.some((k) => k.id === id));
  if (matches.length === 0) throw new CliError(`no key ${id}${args.string("org") ? ` in org ${args.string("org")}` : ""}`);
  if (matches.length > 1) throw new UsageError(`key id ${id} exists in orgs ${matches.map((o) => o.id).join(", ")}: name one with --org`);
  const org = matches[0] as OrgConfig;
  if (source.kind === "file") return revokeInFile(source, org.id, id, args.flag("json"), io);
  const doc = readLocalOrg(source.path);
  const key = (orgOf(doc, org.id, source.path).keys ?? []).find((k) => k.id === id);
  if (!key) throw new CliError(`no key ${id} in ${source.path}`);
  const already = key["revoked"] === true;
  if (!already) {
    key["revoked"] = true;
    writeLocalOrg(source.path, doc);
  }
  if (args.flag("json")) printJson(io, { org: org.id, id, revoked: true, changed: !already, file: source.path });
  else io.out(already ? `key ${id} of org ${org.id} was already revoked\n` : `revoked key ${id} of org ${org.id} in ${source.path}; ${RESTART}\n`);
  return 0;
}

/** The operator's file is theirs (often under version control): say exactly where, change nothing. */
function revokeInFile(source: ConfigSource, orgId: string, id: string, json: boolean, io: CliIo): number {
  const lines = readFileSync(source.path, "utf8").split("\n");
  const pattern = new RegExp(`(^|[\\s{,-])id:\\s*["']?${id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["']?\\s*([,}]|$)`);
  const line = lines.findIndex((l) => pattern.test(l)) + 1;
  const where = line > 0 ? `${source.path}:${line}` : source.path;
  if (json) printJson(io, { org: orgId, id, revoked: false, changed: false, file: source.path, line: line || null, set: { revoked: true } });
  else
    io.out(
      `GUARD_CONFIG is your file; nothing was changed. To revoke key ${id} of org ${orgId}:\n` +
        `  ${where}: add "revoked: true" to this key's entry\n` +
        `a running service re-reads the file within two seconds of the change.\n`,
    );
  return 0;
}
