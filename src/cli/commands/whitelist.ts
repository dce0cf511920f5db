import type { WhitelistRecord } from "../../whitelist/whitelist.js";
import { expectPositionals, type ParsedArgs, parseArgs } from "../args.js";
import type { Command } from "../command.js";
import { configSource, environment, loadConfig, resolveOrg, withStore } from "../context.js";
import { UsageError } from "../errors.js";
import type { CliIo } from "../io.js";
import { printJson, printRows } from "../output.js";

/** Guard's fingerprints are 64 hex digits; base32 is allowed by DESIGN.md decision 4. */
const FINGERPRINT = /^(?:[0-9a-f]{64}|[A-Z2-7]{52}=*)$/i;

export interface WhitelistEntry {
  readonly fp: string;
  readonly added_at: string;
  readonly note?: string;
}

/** The fingerprints whitelisted for an organization now, replaying changes in order (last word wins). */
export function currentWhitelist(records: readonly WhitelistRecord[], orgId: string): WhitelistEntry[] {
  const entries = new Map<string, WhitelistEntry>();
  for (const record of records) {
    if (record.org_id !== orgId) continue;
    if (record.op === "add")
      entries.set(record.fp, { fp: record.fp, added_at: record.at, ...(record.note ? { note: record.note } : {}) });
    else entries.delete(record.fp);
  }
  return [...entries.values()].sort((a, b) => a.fp.localeCompare(b.fp));
}

const PICKUP = "running services apply it within their whitelist refresh (2 s by default)";

/** `guard whitelist`: changes go through the store, which every running replica reloads from. */
export const whitelistCommand: Command = {
  name: "whitelist",
  usage: [
    { synopsis: "whitelist add <fp> [--org ID] [--note TEXT]", summary: `whitelist a finding fingerprint for an organization; ${PICKUP}` },
    { synopsis: "whitelist remove <fp> [--org ID]", summary: "take a fingerprint off the whitelist" },
    { synopsis: "whitelist list [--org ID]", summary: "fingerprints whitelisted now, with when and why" },
  ],
  async run(argv, io) {
    const [sub, ...rest] = argv;
    const args = parseArgs(rest, { strings: ["org", "note"] });
    if (sub === "add" || sub === "remove") return change(sub, args, io);
    if (sub === "list") return list(args, io);
    throw new UsageError(sub === undefined ? "whitelist needs a subcommand" : `unknown whitelist subcommand ${sub}`);
  },
};

async function change(op: "add" | "remove", args: ParsedArgs, io: CliIo): Promise<number> {
  const [fp] = expectPositionals(args, ["fp"]) as [string];
  if (!FINGERPRINT.test(fp)) throw new UsageError(`<fp> must be a finding's fp (64 hex digits), got ${fp}`);
  if (op === "remove" && args.string("note") !== undefined) throw new UsageError("--note goes with whitelist add");
  const env = environment(io);
  const org = resolveOrg(loadConfig(configSource(env)), args.string("org"));
  const note = args.string("note");
  const changed = await withStore(env, async (store) => {
    const present = currentWhitelist(await store.loadWhitelist(), org.id).some((e) => e.fp === fp);
    // Removing what is not there changes nothing; re-adding records the new note.
    if (op === "remove" && !present) return false;
    await store.recordWhitelist({ at: new Date(io.now()).toISOString(), org_id: org.id, fp, op, ...(note ? { note } : {}) });
    return true;
  });
  if (args.flag("json")) printJson(io, { org: org.id, fp, op, changed });
  else if (!changed) io.out(`${fp} was not whitelisted for org ${org.id}; nothing changed\n`);
  else io.out(`${op === "add" ? "whitelisted" : "removed"} ${fp} for org ${org.id}; ${PICKUP}\n`);
  return 0;
}

async function list(args: ParsedArgs, io: CliIo): Promise<number> {
  expectPositionals(args, []);
  const env = environment(io);
  const org = resolveOrg(loadConfig(configSource(env)), args.string("org"));
  const entries = await withStore(env, async (store) => currentWhitelist(await store.loadWhitelist(), org.id));
  printRows(
    io,
    args.flag("json"),
    [
      { header: "FP", value: (e: WhitelistEntry) => e.fp },
      { header: "ADDED", value: (e) => e.added_at },
      { header: "NOTE", value: (e) => e.note },
    ],
    entries,
  );
  return 0;
}
