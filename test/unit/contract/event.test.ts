import { describe, expect, it } from "vitest";
import { validateEvent } from "../../../src/contract/validate.js";
import { event, eventWithout, PAYLOADS } from "./samples.js";

/** The closed GuardEvent (SPEC 2.1, 9.5) as the bridge will enforce it on POST /v1/evaluate. */

const REMOVED = [
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
const IDENTITY = ["agent_id", "agent_type", "agent_workspace", "agent_user"];

function refusal(body: unknown) {
  const result = validateEvent(body);
  if (result.ok) throw new Error("expected the event to be refused");
  return result.details;
}

describe("validateEvent accepts", () => {
  for (const [name, sample] of Object.entries(PAYLOADS)) {
    it(`a ${name}`, () => {
      const body = event({ kind: sample.kind, llm_protocol: sample.protocol, payload: sample.payload });
      const result = validateEvent(body);
      expect(result).toEqual({ ok: true, value: body });
    });
  }

  it("four empty identity strings (the key is the identity floor)", () => {
    expect(
      validateEvent(event({ agent_id: "", agent_type: "", agent_workspace: "", agent_user: "" })).ok,
    ).toBe(true);
  });

  it("every optional field, the unspecified ones with any shape", () => {
    const body = event({
      integration: "litellm-guard/1.4.2",
      connection: "conn-7",
      session_hint: "conv-42",
      obligation_results: [{ id: "obl-1", status: "clean" }],
      redaction: { mode: "spans" },
      initiator: "user",
      llm_endpoint: "https://llm.internal/v1/chat/completions",
      transport: null,
    });
    expect(validateEvent(body).ok).toBe(true);
  });

  it("an empty payload object", () => {
    expect(validateEvent(event({ payload: {} })).ok).toBe(true);
  });
});

describe("validateEvent refuses", () => {
  for (const key of REMOVED) {
    it(`the removed pre-1.0 field ${key} as an unrecognized key, saying it was removed`, () => {
      const details = refusal(event({ [key]: key === "turn" ? 3 : "x" }));
      expect(details).toHaveLength(1);
      expect(details[0]).toMatchObject({ code: "unrecognized_keys", keys: [key], path: [] });
      expect(details[0]?.message).toContain(`\`${key}\` was removed in 1.0`);
    });
  }

  it("session_id with a message naming who derives sessions", () => {
    const [detail] = refusal(event({ session_id: "s-1" }));
    expect(detail?.message).toContain("`session_id` was removed in 1.0: sessions are derived by the service");
  });

  it("the removed event kind turn/end as an enum value, saying it was removed", () => {
    const details = refusal(event({ kind: "turn/end" }));
    expect(details).toEqual([expect.objectContaining({ code: "invalid_enum_value", path: ["kind"] })]);
    expect(details[0]?.message).toContain("`turn/end` was removed in 1.0");
  });

  it("all extra keys of the object in one item", () => {
    const details = refusal(event({ foo: 1, bar: 2, session_id: "s" }));
    expect(details).toEqual([
      expect.objectContaining({ code: "unrecognized_keys", keys: ["foo", "bar", "session_id"], path: [] }),
    ]);
    expect(details[0]?.message).toMatch(/unrecognized keys `foo`, `bar`, `session_id`/);
  });

  for (const key of IDENTITY) {
    it(`a missing ${key}, with the path to the field`, () => {
      const details = refusal(eventWithout(key));
      expect(details).toEqual([expect.objectContaining({ code: "missing", path: [key] })]);
      expect(details[0]?.message).toContain('send "" to assert nothing');
    });
  }

  for (const key of ["kind", "step_id", "llm_protocol", "payload"]) {
    it(`a missing ${key}`, () => {
      expect(refusal(eventWithout(key))).toEqual([expect.objectContaining({ code: "missing", path: [key] })]);
    });
  }

  it("an unlisted llm_protocol as invalid_enum_value", () => {
    const details = refusal(event({ llm_protocol: "vendor_c.generate" }));
    expect(details).toEqual([
      expect.objectContaining({ code: "invalid_enum_value", path: ["llm_protocol"] }),
    ]);
    expect(details[0]?.message).toContain("`canonical`");
  });

  it("an identity field of the wrong type as invalid_type", () => {
    expect(refusal(event({ agent_id: 7 }))).toEqual([
      expect.objectContaining({
        code: "invalid_type",
        path: ["agent_id"],
        message: "`agent_id` must be a string",
      }),
    ]);
  });

  it("a payload that is not an object (a string dump, an array, null)", () => {
    for (const payload of ['{"messages":[]}', [{ role: "user", content: "hi" }], null]) {
      expect(refusal(event({ payload }))).toEqual([
        expect.objectContaining({ code: "invalid_type", path: ["payload"] }),
      ]);
    }
  });

  it("an empty step_id and over-long short strings as invalid_value", () => {
    expect(refusal(event({ step_id: "" }))).toEqual([
      expect.objectContaining({ code: "invalid_value", path: ["step_id"] }),
    ]);
    const long = "a".repeat(1025);
    for (const key of ["step_id", "agent_id", "integration", "connection", "session_hint"]) {
      expect(refusal(event({ [key]: long }))).toEqual([
        expect.objectContaining({ code: "invalid_value", path: [key] }),
      ]);
    }
  });

  it("a batch (an array of events) with invalid_type at the root", () => {
    expect(refusal([event(), event()])).toEqual([
      { code: "invalid_type", path: [], message: expect.stringContaining("not an array") },
    ]);
  });

  it("non-objects with invalid_type at the root", () => {
    for (const body of [null, "event", 42, true, undefined]) {
      expect(refusal(body)).toEqual([expect.objectContaining({ code: "invalid_type", path: [] })]);
    }
  });

  it("several problems at once, each reported", () => {
    const body = eventWithout("agent_user");
    body["llm_protocol"] = "grpc";
    body["timestamp"] = "2025-06-01T12:00:00Z";
    const codes = refusal(body)
      .map((d) => d.code)
      .sort();
    expect(codes).toEqual(["invalid_enum_value", "missing", "unrecognized_keys"]);
  });
});

describe("hostile keys", () => {
  it("__proto__ and constructor from JSON.parse are unrecognized keys and pollute nothing", () => {
    const text = JSON.stringify(event()).replace(
      /^\{/,
      '{"__proto__":{"polluted":true,"kind":"step/request"},"constructor":{"prototype":{"polluted":true}},',
    );
    const body: unknown = JSON.parse(text);
    const details = refusal(body);
    expect(details).toEqual([
      expect.objectContaining({ code: "unrecognized_keys", keys: ["__proto__", "constructor"], path: [] }),
    ]);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("a required field supplied only through __proto__ still counts as missing", () => {
    const body = eventWithout("kind");
    const text = JSON.stringify(body).replace(/^\{/, '{"__proto__":{"kind":"step/request"},');
    const details = refusal(JSON.parse(text));
    expect(details).toContainEqual(expect.objectContaining({ code: "missing", path: ["kind"] }));
    expect(details).toContainEqual(
      expect.objectContaining({ code: "unrecognized_keys", keys: ["__proto__"] }),
    );
  });

  it("an object whose prototype carries the fields is refused (own properties only)", () => {
    const body = Object.create(event()) as object;
    const details = refusal(body);
    expect(details.filter((d) => d.code === "missing")).toHaveLength(8);
  });
});
