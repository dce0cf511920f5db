import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatRequestEvent, post, type RunningGuard, startGuard } from "../helpers/guard-server.js";

interface Detail {
  code: string;
  keys?: string[];
  path: (string | number)[];
  message: string;
}

describe("the closed GuardEvent schema (spec 2.1, 9.5)", () => {
  let guard: RunningGuard;
  beforeAll(async () => {
    guard = await startGuard();
  });
  afterAll(async () => {
    await guard.stop();
  });

  const removed = [
    "timestamp",
    "session_id",
    "turn",
    "step",
    "version",
    "protocol_version",
    "agent_owner",
    "parent_session_id",
    "event_id",
  ];
  it.each(removed)("refuses the removed pre-1.0 field %s as unrecognized_keys", async (field) => {
    const { status, body } = await post(guard.url, "/v1/evaluate", chatRequestEvent("x", { [field]: "v" }));
    expect(status).toBe(400);
    expect(body["error"]).toBe("invalid_event");
    const details = body["details"] as Detail[];
    expect(details).toContainEqual(expect.objectContaining({ code: "unrecognized_keys", keys: [field], path: [] }));
  });

  it.each(["agent_id", "agent_type", "agent_workspace", "agent_user", "kind", "step_id", "llm_protocol", "payload"])(
    "refuses an event missing %s",
    async (field) => {
      const event = chatRequestEvent("x");
      delete event[field];
      const { status, body } = await post(guard.url, "/v1/evaluate", event);
      expect(status).toBe(400);
      expect(body["error"]).toBe("invalid_event");
      expect(body["details"]).toContainEqual(expect.objectContaining({ code: "missing", path: [field] }));
    },
  );

  it("refuses an unlisted llm_protocol and the removed kind turn/end as invalid_enum_value", async () => {
    const protocol = await post(guard.url, "/v1/evaluate", chatRequestEvent("x", { llm_protocol: "vendor_c.chat" }));
    expect(protocol.status).toBe(400);
    expect(protocol.body["details"]).toContainEqual(expect.objectContaining({ code: "invalid_enum_value", path: ["llm_protocol"] }));
    const kind = await post(guard.url, "/v1/evaluate", chatRequestEvent("x", { kind: "turn/end" }));
    expect(kind.body["details"]).toContainEqual(expect.objectContaining({ code: "invalid_enum_value", path: ["kind"] }));
  });

  it("refuses a batch, a non-object, wrong types and malformed JSON with invalid_event", async () => {
    const batch = await post(guard.url, "/v1/evaluate", [chatRequestEvent("a"), chatRequestEvent("b")]);
    expect(batch.status).toBe(400);
    expect(batch.body["details"]).toContainEqual(expect.objectContaining({ code: "invalid_type", path: [] }));
    const wrongType = await post(guard.url, "/v1/evaluate", chatRequestEvent("x", { agent_id: 42, payload: "text" }));
    expect(wrongType.status).toBe(400);
    expect(wrongType.body["details"]).toContainEqual(expect.objectContaining({ code: "invalid_type", path: ["agent_id"] }));
    expect(wrongType.body["details"]).toContainEqual(expect.objectContaining({ code: "invalid_type", path: ["payload"] }));
    const broken = await post(guard.url, "/v1/evaluate", '{"kind": "step/request",');
    expect(broken.status).toBe(400);
    expect(broken.body["error"]).toBe("invalid_event");
    const empty = await post(guard.url, "/v1/evaluate", "");
    expect(empty.status).toBe(400);
  });

  it("refuses prototype-pollution keys as unrecognized and pollutes nothing", async () => {
    const raw = `{"__proto__":{"polluted":true},"constructor":{"x":1},${JSON.stringify(chatRequestEvent("x")).slice(1)}`;
    const { status, body } = await post(guard.url, "/v1/evaluate", raw);
    expect(status).toBe(400);
    const detail = (body["details"] as Detail[]).find((d) => d.code === "unrecognized_keys");
    expect(detail?.keys).toEqual(expect.arrayContaining(["__proto__", "constructor"]));
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("accepts every optional field the specification lists", async () => {
    const event = chatRequestEvent("x", {
      integration: "my-agent/1.2.3",
      connection: "conn-1",
      session_hint: "s-1",
      obligation_results: [],
      redaction: {},
      initiator: "user",
      llm_endpoint: "https://api.example/v1/chat/completions",
      transport: "http",
    });
    expect((await post(guard.url, "/v1/evaluate", event)).status).toBe(200);
  });
});
