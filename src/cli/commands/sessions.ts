import { expectPositionals, type ParsedArgs, parseArgs } from "../args.js";
import type { Command } from "../command.js";
import { configSource, environment, loadConfig, resolveOrg, withStore } from "../context.js";
import { CliError, UsageError } from "../errors.js";
import type { CliIo } from "../io.js";
import { printJson, printRows } from "../output.js";
import { renderTable } from "../table.js";
import { parseInstant } from "../time.js";
import { describeSession, type SessionSummary, type StepSummary, summarizeSessions } from "../views/sessions.js";

const SESSION_COLUMNS = [
  { header: "SESSION", value: (s: SessionSummary) => s.session_id },
  { header: "ORG", value: (s: SessionSummary) => s.org_id },
  { header: "AGENT", value: (s: SessionSummary) => s.agent_id },
  { header: "TYPE", value: (s: SessionSummary) => s.agent_type },
  { header: "TURNS", value: (s: SessionSummary) => s.turns, align: "right" as const },
  { header: "STEPS", value: (s: SessionSummary) => s.steps, align: "right" as const },
  { header: "EVENTS", value: (s: SessionSummary) => s.events, align: "right" as const },
  { header: "BLOCKED", value: (s: SessionSummary) => s.blocked, align: "right" as const },
  { header: "SIGNALS", value: (s: SessionSummary) => s.signals.join(",") },
  { header: "LAST", value: (s: SessionSummary) => s.last_at },
];

const STEP_COLUMNS = [
  { header: "TURN", value: (s: StepSummary) => s.turn_index, align: "right" as const },
  { header: "STEP", value: (s: StepSummary) => s.step_index, align: "right" as const },
  { header: "STEP_ID", value: (s: StepSummary) => s.step_id },
  { header: "KINDS", value: (s: StepSummary) => s.kinds.map((k) => k.replace("step/", "")).join(",") },
  { header: "ATTACH", value: (s: StepSummary) => s.attach_method },
  { header: "PAIRED", value: (s: StepSummary) => (s.paired ? "yes" : "no") },
  { header: "DECISION", value: (s: StepSummary) => s.decision },
  { header: "FINDINGS", value: (s: StepSummary) => s.findings, align: "right" as const },
  { header: "SIGNALS", value: (s: StepSummary) => s.signals.join(",") },
  { header: "FIRST", value: (s: StepSummary) => s.first_at },
];

/** `guard sessions`: sessions reconstructed from recorded events (see views/sessions.ts for why). */
export const sessionsCommand: Command = {
  name: "sessions",
  usage: [
    {
      synopsis: "sessions [--org ID] [--agent ID] [--since T] [--limit N] [--scan N]",
      summary:
        "sessions most recently active first (default 20), from the session each recorded event carries " +
        "(the latest --scan events, default 10000)",
    },
  ],
  async run(argv, io) {
    const args = parseArgs(argv, { strings: ["org", "agent", "since", "limit", "scan"] });
    expectPositionals(args, []);
    const limit = args.int("limit", 20, 1, 100_000);
    const scan = args.int("scan", 10_000, 1, 1_000_000);
    const since = args.string("since");
    const env = environment(io);
    const events = await withStore(env, (store) =>
      store.queryEvents({
        ...(args.string("org") !== undefined ? { orgId: args.string("org") } : {}),
        ...(args.string("agent") !== undefined ? { agentId: args.string("agent") } : {}),
        ...(since !== undefined ? { from: parseInstant(since, io.now(), "since") } : {}),
        limit: scan,
      }),
    );
    printRows(io, args.flag("json"), SESSION_COLUMNS, summarizeSessions(events).slice(0, limit));
    return 0;
  },
};

/** `guard session <id>`: one session's turns and steps, every event of it read back from the store. */
export const sessionCommand: Command = {
  name: "session",
  usage: [{ synopsis: "session <id> [--org ID]", summary: "one session: its turns and steps, attach methods, decisions, signals" }],
  async run(argv, io) {
    return showSession(parseArgs(argv, { strings: ["org"] }), io);
  },
};

async function showSession(args: ParsedArgs, io: CliIo): Promise<number> {
  const [id] = expectPositionals(args, ["id"]) as [string];
  const env = environment(io);
  const org = resolveOrg(loadConfig(configSource(env)), args.string("org"));
  if (!id) throw new UsageError("missing <id>");
  const events = await withStore(env, (store) =>
    store.queryEvents({ orgId: org.id, sessionId: id, order: "oldest", limit: 100_000 }),
  );
  const detail = describeSession(events);
  if (!detail) throw new CliError(`no session ${id} in org ${org.id}`);
  if (args.flag("json")) {
    printJson(io, detail);
    return 0;
  }
  io.out(
    `session  ${detail.session_id}\norg      ${detail.org_id}\nagent    ${detail.agent_id}${detail.agent_type ? ` (${detail.agent_type})` : ""}\n` +
      `active   ${detail.first_at} .. ${detail.last_at}\n` +
      `counts   ${detail.turns} turns, ${detail.steps} steps, ${detail.events} events, ${detail.blocked} blocked\n` +
      `signals  ${detail.signals.join(", ") || "-"}\n\n`,
  );
  io.out(renderTable(STEP_COLUMNS, detail.steps_detail));
  return 0;
}
