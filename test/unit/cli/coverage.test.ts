import { describe, expect, it } from "vitest";
import { coverageNotes, coverageRows } from "../../../src/cli/views/coverage.js";
import { findCoverageGaps } from "../../../src/coverage/gaps.js";
import { AlertLedger } from "../../../src/coverage/ledger.js";
import { reconcile, reconciliationFilter } from "../../../src/coverage/reconcile.js";
import { HeartbeatIndex } from "../../../src/store/embedded/heartbeat-index.js";
import type { HeartbeatSource } from "../../../src/store/queries.js";

const NOW = Date.parse("2025-06-01T12:00:00.000Z");
const ago = (s: number) => new Date(NOW - s * 1000).toISOString();

function source(integration: string, lastAgoS: number, interval_s?: number, counters?: Record<string, number>): HeartbeatSource {
  return {
    org_id: "acme",
    integration,
    first_at: ago(3600),
    beats: 10,
    last: { at: ago(lastAgoS), org_id: "acme", key_id: "k", integration, ...(interval_s ? { interval_s } : {}), ...(counters ? { counters } : {}) },
  };
}

describe("findCoverageGaps (pure: beats, now -> gaps)", () => {
  it("flags a source silent beyond 3 x interval_s, and only that", () => {
    const gaps = findCoverageGaps(
      [source("ok", 89, 30), source("edge", 90, 30), source("lost", 91, 30), source("silent-no-interval", 99_999)],
      NOW,
    );
    expect(gaps.map((g) => [g.integration, g.missed_beats])).toEqual([["lost", 3]]);
    expect(gaps[0]).toMatchObject({ org_id: "acme", interval_s: 30, last_beat_at: ago(91) });
  });

  it("identifies a gap by its source and its last beat", () => {
    const [a] = findCoverageGaps([source("x", 100, 10)], NOW);
    const [b] = findCoverageGaps([source("x", 100, 10)], NOW + 60_000);
    const [c] = findCoverageGaps([source("x", 50, 10)], NOW);
    expect(a?.id).toBe(b?.id);
    expect(a?.id).not.toBe(c?.id);
  });
});

describe("AlertLedger", () => {
  it("alerts once per gap, reports recovery, and alerts again for a new gap", () => {
    const ledger = new AlertLedger();
    const first = findCoverageGaps([source("x", 100, 10)], NOW);
    expect(ledger.update(first).opened).toHaveLength(1);
    // The same silence, checked a minute later: the last beat is the same one, so no second alert.
    const later = findCoverageGaps([source("x", 100, 10)], NOW + 60_000);
    expect(ledger.update(later).opened).toHaveLength(0);
    const recovered = ledger.update([]);
    expect(recovered.closed.map((g) => g.integration)).toEqual(["x"]);
    expect(ledger.size).toBe(0);
    expect(ledger.update(findCoverageGaps([source("x", 40, 10)], NOW)).opened).toHaveLength(1);
  });
});

describe("reconciliation", () => {
  it("compares events_sent with events recorded since the run began", () => {
    const s = { ...source("sdk/1", 10, 30, { events_sent: 12 }), run_since: ago(600) };
    const filter = reconciliationFilter(s);
    expect(filter).toMatchObject({ orgId: "acme", integration: "sdk/1" });
    expect(Date.parse(filter?.from as string)).toBe(NOW - 600_000 + 1);
    expect(Date.parse(filter?.to as string)).toBe(NOW - 10_000 + 1);
    expect(reconcile(s, 9)).toMatchObject({ events_sent: 12, events_recorded: 9, gap: 3 });
    expect(reconcile(source("quiet", 10, 30), 4)).toBeUndefined();
  });

  it("marks a restart when events_sent falls, and ignores beats older than the latest", () => {
    const index = new HeartbeatIndex();
    const beat = (at: string, sent: number) => ({ at, org_id: "acme", key_id: "k", integration: "i", counters: { events_sent: sent } });
    index.add(beat(ago(300), 50));
    index.add(beat(ago(200), 80));
    index.add(beat(ago(100), 3));
    index.add(beat(ago(150), 90));
    const [s] = index.sources();
    expect(s).toMatchObject({ beats: 4, run_since: ago(200), first_at: ago(300) });
    expect(s?.last.counters).toEqual({ events_sent: 3 });
  });
});

describe("coverage rows", () => {
  it("shows state, missed beats and the reconciled gap, with the notes that must not be misread", () => {
    const lost = source("lost", 600, 60, { events_sent: 7 });
    const fine = source("fine", 5, 60);
    const rows = coverageRows([fine, lost], new Map([[lost, 4]]), NOW);
    expect(rows.map((r) => [r.integration, r.state, r.missed_beats, r.reconciliation?.gap])).toEqual([
      ["lost", "missed", 10, 3],
      ["fine", "ok", 0, undefined],
    ]);
    const notes = coverageNotes(rows).join("\n");
    expect(notes).toContain('not "no risk"');
    expect(notes).toContain("selectively suppressed");
  });
});
