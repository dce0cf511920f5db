import { describe, expect, it } from "vitest";
import { keyRows } from "../../../src/cli/commands/keys.js";
import { currentWhitelist } from "../../../src/cli/commands/whitelist.js";
import { workspaceRows } from "../../../src/cli/commands/workspaces.js";
import { findingSummary, printableEvent } from "../../../src/cli/views/events.js";
import { describeSession, summarizeSessions } from "../../../src/cli/views/sessions.js";
import { parseConfig } from "../../../src/config/load.js";
import type { EventRecord } from "../../../src/store/records.js";

function event(id: string, at: string, overrides: Partial<EventRecord> = {}, session: Record<string, unknown> = {}): EventRecord {
  return {
    event_id: id,
    received_at: at,
    org_id: "acme",
    key_id: "main",
    kind: "step/request",
    step_id: `step-${id}`,
    agent_id: "a1",
    agent_id_derived: false,
    agent_type: "coder",
    agent_user: "",
    workspace: "default",
    llm_protocol: "vendor_a.chat",
    payload_sha256: "0".repeat(64),
    payload_bytes: 10,
    session: { session_id: "s1", turn_index: 0, step_index: 0, attach_method: "new", signals: [], ...session },
    verdict: { decision: "allow", findings: [] },
    ...overrides,
  };
}

describe("sessions from recorded events", () => {
  const events = [
    event("1", "2025-01-01T00:00:01.000Z"),
    event("2", "2025-01-01T00:00:02.000Z", { kind: "step/response", step_id: "step-1" }, { paired: true }),
    event("3", "2025-01-01T00:00:03.000Z", { verdict: { decision: "block", findings: [{ category: "x" }] } }, { turn_index: 1, step_index: 0, attach_method: "prefix", signals: ["shadow_agent"] }),
    event("4", "2025-01-01T00:00:04.000Z", { agent_id: "a2" }, { session_id: "s2" }),
    event("5", "2025-01-01T00:00:05.000Z", { session: undefined }),
  ];

  it("groups by session, most recently active first, skipping events without one", () => {
    const sessions = summarizeSessions(events);
    expect(sessions.map((s) => s.session_id)).toEqual(["s2", "s1"]);
    expect(sessions[1]).toMatchObject({ agent_id: "a1", turns: 2, steps: 2, events: 3, blocked: 1, signals: ["shadow_agent"] });
  });

  it("describes one session's steps in turn order with their halves", () => {
    const detail = describeSession(events.filter((e) => e.session?.["session_id"] === "s1"));
    expect(detail?.steps_detail.map((s) => [s.turn_index, s.step_id, s.kinds, s.paired, s.decision])).toEqual([
      [0, "step-1", ["step/request", "step/response"], true, "allow"],
      [1, "step-3", ["step/request"], false, "block"],
    ]);
    expect(describeSession([])).toBeUndefined();
  });

  it("summarizes findings and masks their subjects for printing", () => {
    const e = event("9", "2025-01-01T00:00:09.000Z", {
      verdict: { decision: "allow", findings: [{ category: "pii.email", subject: "a@b.c" }, { category: "pii.email", subject: "d@e.f" }] },
    });
    expect(findingSummary(e)).toBe("pii.email×2");
    expect(JSON.stringify(printableEvent(e))).not.toContain("a@b.c");
  });
});

describe("configuration views", () => {
  const config = parseConfig(`
orgs:
  - id: acme
    workspaces: [default, prod]
    keys:
      - {id: k1, sha256: ${"a".repeat(64)}}
      - {id: k2, sha256: ${"b".repeat(64)}, workspace: prod, bound: {agent_id: bot}, revoked: true}
      - {id: k3, sha256: ${"c".repeat(64)}, expires_at: "2020-01-01T00:00:00Z"}
  - id: other
    keys: []
`);

  it("lists keys with status and never a hash", () => {
    const rows = keyRows(config, Date.parse("2025-01-01T00:00:00Z"));
    expect(rows.map((r) => [r.org, r.id, r.workspace, r.bound, r.status])).toEqual([
      ["acme", "k1", "default", undefined, "active"],
      ["acme", "k2", "prod", "agent=bot", "revoked"],
      ["acme", "k3", "default", undefined, "expired"],
    ]);
    expect(JSON.stringify(rows)).not.toContain("a".repeat(64));
  });

  it("places agents in workspaces, including one no longer configured", () => {
    const rows = workspaceRows(config, [
      { org_id: "acme", agent_id: "z", workspace: "prod", agent_type: "", first_seen: "" },
      { org_id: "acme", agent_id: "y", workspace: "prod", agent_type: "", first_seen: "" },
      { org_id: "acme", agent_id: "old", workspace: "legacy", agent_type: "", first_seen: "" },
    ]);
    expect(rows.map((r) => [r.org, r.workspace, r.configured, r.keys, r.agents])).toEqual([
      ["acme", "default", true, 2, []],
      ["acme", "prod", true, 1, ["y", "z"]],
      ["acme", "legacy", false, 0, ["old"]],
      ["other", "default", true, 0, []],
    ]);
  });

  it("replays whitelist changes: the last word wins, per organization", () => {
    const entries = currentWhitelist(
      [
        { at: "t1", org_id: "acme", fp: "f1", op: "add", note: "first" },
        { at: "t2", org_id: "acme", fp: "f2", op: "add" },
        { at: "t3", org_id: "acme", fp: "f1", op: "remove" },
        { at: "t4", org_id: "other", fp: "f3", op: "add" },
        { at: "t5", org_id: "acme", fp: "f1", op: "add", note: "again" },
      ],
      "acme",
    );
    expect(entries).toEqual([
      { fp: "f1", added_at: "t5", note: "again" },
      { fp: "f2", added_at: "t2" },
    ]);
  });
});
