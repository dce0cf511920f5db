import { setTimeout as sleep } from "node:timers/promises";
import type { EventFilter } from "../../store/queries.js";
import type { EventRecord } from "../../store/records.js";
import type { Store } from "../../store/store.js";
import { expectPositionals, oneOf, type ParsedArgs, parseArgs } from "../args.js";
import type { Command } from "../command.js";
import { environment, withStore } from "../context.js";
import { UsageError } from "../errors.js";
import type { CliIo } from "../io.js";
import { renderTable } from "../table.js";
import { parseInstant } from "../time.js";
import { EVENT_COLUMNS, printableEvent } from "../views/events.js";

/**
 * How far behind the newest event a follower looks again: replicas write behind, and their clocks
 * differ a little, so an event can land with a received_at just before one already printed.
 */
const FOLLOW_OVERLAP_MS = 5_000;

export function eventFilter(args: ParsedArgs, now: number): EventFilter {
  const since = args.string("since");
  const until = args.string("until");
  const filter: EventFilter = {
    ...(args.string("org") !== undefined ? { orgId: args.string("org") } : {}),
    ...(args.string("agent") !== undefined ? { agentId: args.string("agent") } : {}),
    ...(args.string("integration") !== undefined ? { integration: args.string("integration") } : {}),
    ...(args.string("session") !== undefined ? { sessionId: args.string("session") } : {}),
    ...optional("kind", oneOf(args, "kind", ["step/request", "step/response"])),
    ...optional("decision", oneOf(args, "decision", ["allow", "block"])),
    ...(since !== undefined ? { from: parseInstant(since, now, "since") } : {}),
    ...(until !== undefined ? { to: parseInstant(until, now, "until") } : {}),
  };
  if (filter.from !== undefined && filter.to !== undefined && filter.from >= filter.to)
    throw new UsageError("--since must be before --until");
  return filter;
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

/** `guard events tail`: recorded events, oldest of the selection first, as `tail` prints lines. */
export const eventsCommand: Command = {
  name: "events",
  usage: [
    {
      synopsis:
        "events tail [--org ID] [--agent ID] [--kind K] [--decision D] [--integration I] [--session S] [--since T] [--until T] [--limit N] [--follow]",
      summary:
        "the latest recorded events (default 20), filtered; T is a duration back (15m, 2h, 7d) or an RFC 3339 time. " +
        "--follow keeps printing new ones until Ctrl-C. --json prints one JSON record per line (finding subjects masked)",
    },
  ],
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub !== "tail") throw new UsageError(sub === undefined ? "events needs a subcommand" : `unknown events subcommand ${sub}`);
    const args = parseArgs(rest, {
      strings: ["org", "agent", "kind", "decision", "integration", "session", "since", "until", "limit", "interval-ms"],
      flags: ["follow"],
    });
    expectPositionals(args, []);
    const filter = eventFilter(args, io.now());
    const limit = args.int("limit", 20, 1, 100_000);
    const intervalMs = args.int("interval-ms", 1_000, 50, 60_000);
    if (args.flag("follow") && filter.to !== undefined) throw new UsageError("--follow cannot be combined with --until");
    const print = printer(io, args.flag("json"));
    return withStore(environment(io), async (store) => {
      const latest = (await store.queryEvents({ ...filter, limit })).reverse();
      print(latest);
      if (args.flag("follow")) await follow(store, filter, latest, intervalMs, io, print);
      return 0;
    });
  },
};

function printer(io: CliIo, json: boolean): (events: readonly EventRecord[]) => void {
  let header = true;
  return (events) => {
    if (json) {
      for (const e of events) io.out(`${JSON.stringify(printableEvent(e))}\n`);
      return;
    }
    if (events.length === 0 && !header) return;
    io.out(renderTable(EVENT_COLUMNS, events, header));
    header = false;
  };
}

/** Polls forward from the newest event printed, printing each event once, until the signal aborts. */
async function follow(
  store: Store,
  filter: EventFilter,
  printed: readonly EventRecord[],
  intervalMs: number,
  io: CliIo,
  print: (events: readonly EventRecord[]) => void,
): Promise<void> {
  const seen = new Map<string, number>(printed.map((e) => [e.event_id, Date.parse(e.received_at)]));
  let cursor = printed.length > 0 ? Math.max(...seen.values()) : (filter.from ? Date.parse(filter.from) : io.now());
  while (!io.signal.aborted) {
    try {
      await sleep(intervalMs, undefined, { signal: io.signal });
    } catch {
      break;
    }
    const floor = filter.from ? Date.parse(filter.from) : 0;
    const from = new Date(Math.max(floor, cursor - FOLLOW_OVERLAP_MS)).toISOString();
    const batch = await store.queryEvents({ ...filter, from, order: "oldest", limit: 10_000 });
    const fresh = batch.filter((e) => !seen.has(e.event_id));
    for (const e of fresh) {
      const at = Date.parse(e.received_at);
      seen.set(e.event_id, at);
      cursor = Math.max(cursor, at);
    }
    for (const [id, at] of seen) if (at < cursor - 2 * FOLLOW_OVERLAP_MS) seen.delete(id);
    if (fresh.length > 0) print(fresh);
  }
}
