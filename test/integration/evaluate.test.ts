import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateVerdict } from "../../src/contract/validate.js";
import { chatRequestEvent, KEYS, post, type RunningGuard, startGuard } from "../helpers/guard-server.js";

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const SUBSECOND_RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/;

describe("POST /v1/evaluate: the decision path end to end", () => {
  let guard: RunningGuard;
  beforeAll(async () => {
    guard = await startGuard();
  });
  afterAll(async () => {
    await guard.stop();
  });

  it("answers allow with a finding and a redaction span for an email in the user message", async () => {
    const text = "Please write to jane.doe@example.com about the invoice.";
    const { status, body } = await post(guard.url, "/v1/evaluate", chatRequestEvent(text));
    expect(status).toBe(200);
    expect(validateVerdict(body).ok).toBe(true);
    expect(body["decision"]).toBe("allow");
    expect(body["event_id"]).toMatch(ULID);
    expect(body["provider"]).toMatch(/^guard\//);
    expect(body["latency_ms"]).toBeGreaterThanOrEqual(0);
    const timing = body["timing"] as Record<string, string>;
    expect(timing["received_at"]).toMatch(SUBSECOND_RFC3339);
    expect(timing["responded_at"]).toMatch(SUBSECOND_RFC3339);
    expect(Date.parse(timing["responded_at"] ?? "")).toBeGreaterThanOrEqual(Date.parse(timing["received_at"] ?? ""));

    const start = text.indexOf("jane");
    const end = start + "jane.doe@example.com".length;
    const findings = body["findings"] as Record<string, unknown>[];
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      category: "privacy.pii.email",
      path: "payload.messages.1.content",
      start,
      end,
      detector: "pii",
      subject: "jane.doe@example.com",
    });
    expect(findings[0]?.["fp"]).toMatch(/^[0-9a-f]{64}$/);
    const spans = (body["modifications"] as { spans: Record<string, unknown>[] }).spans;
    expect(spans).toEqual([{ path: "payload.messages.1.content", start, end, replacement: "${X_EMAIL_1}" }]);
  });

  it("gives the same value the same placeholder across steps of one agent, and a new one to a new value", async () => {
    const again = await post(guard.url, "/v1/evaluate", chatRequestEvent("cc jane.doe@example.com and bob@example.org"));
    const spans = (again.body["modifications"] as { spans: { replacement: string }[] }).spans;
    expect(spans.map((s) => s.replacement)).toEqual(["${X_EMAIL_1}", "${X_EMAIL_2}"]);
  });

  it("answers allow with nothing found for clean text, and every event id is unique and time-ordered", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { status, body } = await post(guard.url, "/v1/evaluate", chatRequestEvent(`clean text ${i}`));
      expect(status).toBe(200);
      expect(body["decision"]).toBe("allow");
      expect(body["findings"]).toEqual([]);
      ids.push(body["event_id"] as string);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("derives the agent from the key when the event asserts no identity", async () => {
    const event = chatRequestEvent("hello", { agent_id: "", agent_type: "", agent_workspace: "", agent_user: "" });
    const { status, body } = await post(guard.url, "/v1/evaluate", event);
    expect(status).toBe(200);
    const [recorded] = await guard.app.store.recentEvents("acme", 1);
    expect(recorded?.event_id).toBe(body["event_id"]);
    expect(recorded).toMatchObject({ agent_id: "key:main", agent_id_derived: true, workspace: "default" });
  });

  it("keeps an agent in the workspace it was first placed in", async () => {
    await post(guard.url, "/v1/evaluate", chatRequestEvent("a", { agent_id: "placed-bot", agent_workspace: "prod" }));
    await post(guard.url, "/v1/evaluate", chatRequestEvent("b", { agent_id: "placed-bot", agent_workspace: "default" }));
    const [latest] = await guard.app.store.recentEvents("acme", 1);
    expect(latest).toMatchObject({ agent_id: "placed-bot", workspace: "prod" });
  });

  it("refuses a bound key asserting another agent with identity_refused, and audits the refusal", async () => {
    const event = chatRequestEvent("hi", { agent_id: "someone-else" });
    const { status, body } = await post(guard.url, "/v1/evaluate", event, KEYS.bound);
    expect(status).toBe(400);
    expect(body).toEqual({ error: "identity_refused", field: "agent_id", expected: "billing-bot" });
    const workspace = await post(guard.url, "/v1/evaluate", chatRequestEvent("hi", { agent_id: "", agent_workspace: "default" }), KEYS.bound);
    expect(workspace.body).toEqual({ error: "identity_refused", field: "agent_workspace", expected: "prod" });
    const audits = await guard.app.store.recentAudits("acme", 5);
    expect(audits.map((a) => a.field)).toEqual(["agent_workspace", "agent_id"]);
    expect(audits[1]).toMatchObject({ asserted: "someone-else", expected: "billing-bot", key_id: "bound" });
  });

  it("places a bound key asserting nothing as its bound agent and workspace", async () => {
    const event = chatRequestEvent("hi", { agent_id: "", agent_workspace: "" });
    expect((await post(guard.url, "/v1/evaluate", event, KEYS.bound)).status).toBe(200);
    const [recorded] = await guard.app.store.recentEvents("acme", 1);
    expect(recorded).toMatchObject({ agent_id: "billing-bot", agent_id_derived: false, workspace: "prod" });
  });

  it("records every accepted event, and a graceful stop loses none of them", async () => {
    const dataDir = guard.dataDir;
    const other = await startGuard();
    const sent: string[] = [];
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => post(other.url, "/v1/evaluate", chatRequestEvent(`message ${i}`))),
    );
    for (const a of answers) sent.push(a.body["event_id"] as string);
    const otherDir = other.dataDir;
    await other.app.close();
    const lines = readFileSync(join(otherDir, "events.jsonl"), "utf8").trim().split("\n");
    const recorded = new Set(lines.map((l) => (JSON.parse(l) as { event_id: string }).event_id));
    for (const id of sent) expect(recorded.has(id)).toBe(true);
    expect(other.app.store.stats()).toMatchObject({ accepted: 40, written: 40, queued: 0 });
    expect(dataDir).not.toBe(otherDir);
  });
});
