import { reconciliationFilter } from "../../coverage/reconcile.js";
import type { HeartbeatSource } from "../../store/queries.js";
import { expectPositionals, parseArgs } from "../args.js";
import type { Command } from "../command.js";
import { environment, withStore } from "../context.js";
import { printRows } from "../output.js";
import { formatAge } from "../time.js";
import { type CoverageRow, coverageNotes, coverageRows } from "../views/coverage.js";

const counter = (row: CoverageRow, name: string) => row.counters[name];

/** `guard coverage`: heartbeat sources, missed beats, and counters reconciled against recorded events. */
export const coverageCommand: Command = {
  name: "coverage",
  usage: [
    {
      synopsis: "coverage [--org ID]",
      summary:
        "integrations and agents with their last heartbeat, declared interval, missed beats (silent > 3 x interval_s), " +
        "counters, and events_sent reconciled against the events recorded (a gap means lost or suppressed events)",
    },
  ],
  async run(argv, io) {
    const args = parseArgs(argv, { strings: ["org"] });
    expectPositionals(args, []);
    const orgId = args.string("org");
    const { sources, recorded } = await withStore(environment(io), async (store) => {
      const sources = await store.heartbeatSources(orgId);
      const recorded = new Map<HeartbeatSource, number>();
      for (const source of sources) {
        const filter = reconciliationFilter(source);
        if (filter && source.last.counters?.["events_sent"] !== undefined) recorded.set(source, await store.countEvents(filter));
      }
      return { sources, recorded };
    });
    const rows = coverageRows(sources, recorded, io.now());
    printRows(
      io,
      args.flag("json"),
      [
        { header: "ORG", value: (r: CoverageRow) => r.org_id },
        { header: "INTEGRATION", value: (r) => r.integration },
        { header: "AGENT", value: (r) => r.agent_id },
        { header: "LAST_BEAT", value: (r) => r.last_beat_at },
        { header: "AGE", value: (r) => formatAge(r.age_ms), align: "right" },
        { header: "INTERVAL_S", value: (r) => r.interval_s, align: "right" },
        { header: "STATUS", value: (r) => (r.state === "missed" ? "MISSED" : r.state) },
        { header: "MISSED_BEATS", value: (r) => r.missed_beats, align: "right" },
        { header: "EVENTS_SENT", value: (r) => counter(r, "events_sent"), align: "right" },
        { header: "RECORDED", value: (r) => r.reconciliation?.events_recorded, align: "right" },
        { header: "GAP", value: (r) => r.reconciliation?.gap, align: "right" },
        { header: "EVAL_ERRORS", value: (r) => counter(r, "evaluate_errors"), align: "right" },
        { header: "UNRESOLVED", value: (r) => counter(r, "unresolved_spans"), align: "right" },
      ],
      rows,
    );
    if (!args.flag("json")) for (const note of coverageNotes(rows)) io.out(`\n${note}`);
    if (!args.flag("json") && coverageNotes(rows).length > 0) io.out("\n");
    return 0;
  },
};
