import { describe, expect, it } from "vitest";
import { validateVerdict } from "../../../src/contract/validate.js";
import { placeholder, TIMING, VERDICTS } from "./samples.js";

/** The Verdict schema (SPEC 2.3-2.8, 4.1 ?payload=true) that tests use to check the service's answers. */

const base = { event_id: "01J9Z8Y7X6W5V4T3S2R1Q0P9N8", provider: "guard", decision: "allow" };

function codesOf(v: unknown): string[] {
  const result = validateVerdict(v);
  if (result.ok) throw new Error("expected the verdict to be refused");
  return result.details.map((d) => `${d.code}@${d.path.join(".")}`);
}

describe("validateVerdict accepts", () => {
  for (const [name, verdict] of Object.entries(VERDICTS)) {
    it(name, () => {
      expect(validateVerdict(verdict)).toEqual({ ok: true, value: verdict });
    });
  }

  it("fractional seconds with an offset in timing", () => {
    const timing = {
      received_at: "2025-06-01T14:00:00.1+02:00",
      responded_at: "2025-06-01T14:00:00.123456+02:00",
    };
    expect(validateVerdict({ ...base, timing }).ok).toBe(true);
  });

  it("placeholders whose kind has several parts", () => {
    const spans = [{ path: "payload.text", start: 0, end: 20, replacement: placeholder("AWS_KEY", 12) }];
    expect(validateVerdict({ ...base, modifications: { spans } }).ok).toBe(true);
  });

  it("64 obligations", () => {
    const obligation = VERDICTS["allow with obligation and unjudged"]?.obligations?.[0];
    const obligations = Array.from({ length: 64 }, (_, i) => ({ ...obligation, id: `obl-${i}` }));
    expect(validateVerdict({ ...base, obligations }).ok).toBe(true);
  });
});

describe("validateVerdict refuses", () => {
  it("a missing event_id, provider or decision, or empty ones", () => {
    expect(codesOf({ decision: "allow" })).toEqual(["missing@event_id", "missing@provider"]);
    expect(codesOf({ ...base, event_id: "", provider: "" })).toEqual([
      "invalid_value@event_id",
      "invalid_value@provider",
    ]);
    expect(codesOf({ event_id: "e", provider: "p" })).toEqual(["missing@decision"]);
  });

  it("the removed decisions and the removed echo fields", () => {
    for (const decision of ["require_approval", "modify", "redact"]) {
      expect(codesOf({ ...base, decision })).toEqual(["invalid_enum_value@decision"]);
    }
    expect(codesOf({ ...base, session_id: "s", reasons: [], categories: [], output_mode: "x" })).toEqual([
      "unrecognized_keys@",
    ]);
  });

  it("a negative latency, a finding with a bad category, score or offsets", () => {
    expect(codesOf({ ...base, latency_ms: -1 })).toEqual(["invalid_value@latency_ms"]);
    const findings = [
      { category: "pii.email" },
      { category: "privacy.PII" },
      { category: "x.custom_rule", score: 1.5, start: -1, end: 2.5, severity: "severe" },
      { severity: "low" },
    ];
    expect(codesOf({ ...base, findings }).sort()).toEqual(
      [
        "invalid_value@findings.0.category",
        "invalid_value@findings.1.category",
        "invalid_value@findings.2.start",
        "invalid_type@findings.2.end",
        "invalid_value@findings.2.score",
        "invalid_enum_value@findings.2.severity",
        "missing@findings.3.category",
      ].sort(),
    );
  });

  it("spans that are incomplete or carry text instead of a placeholder", () => {
    const spans = [
      { path: "payload.messages.1.content", start: 0, end: 4 },
      { path: "payload.messages.1.content", start: 0, end: 4, replacement: "jane@example.com" },
      { path: "payload.messages.1.content", start: 0, end: 4, replacement: placeholder("EMAIL", 1, "Y") },
    ];
    expect(codesOf({ ...base, modifications: { spans } })).toEqual([
      "missing@modifications.spans.0.replacement",
      "invalid_value@modifications.spans.1.replacement",
      "invalid_value@modifications.spans.2.replacement",
    ]);
    expect(codesOf({ ...base, modifications: {} })).toEqual(["missing@modifications.spans"]);
  });

  it("a continuation on allow, and paths on an answer", () => {
    const continuation = { style: "answer", notice: "No." };
    expect(codesOf({ ...base, continuation })).toEqual(["invalid_value@"]);
    expect(
      codesOf({ ...base, decision: "block", continuation: { ...continuation, paths: ["payload.text"] } }),
    ).toEqual(["invalid_value@continuation.paths"]);
  });

  it("a continuation notice over 2000 characters or an unknown style", () => {
    const continuation = { style: "rewrite", notice: "n".repeat(2001) };
    expect(codesOf({ ...base, decision: "block", continuation })).toEqual([
      "invalid_enum_value@continuation.style",
      "invalid_value@continuation.notice",
    ]);
  });

  it("obligations beyond the limits of SPEC 8 and extra keys in closed obligation objects", () => {
    const obligation = VERDICTS["allow with obligation and unjudged"]?.obligations?.[0];
    const tooMany = Array.from({ length: 65 }, (_, i) => ({ ...obligation, id: `obl-${i}` }));
    expect(codesOf({ ...base, obligations: tooMany })).toEqual(["invalid_value@obligations"]);
    const bad = {
      ...obligation,
      id: "i".repeat(257),
      call_id: "c".repeat(257),
      artifact: { kind: "file", locator: "l".repeat(513), declared_type: "t".repeat(129), sha256: "x" },
      provider_hint: "https://scanner.example/?key=secret",
      action: "scan",
    };
    expect(codesOf({ ...base, obligations: [bad] }).sort()).toEqual(
      [
        "unrecognized_keys@obligations.0",
        "invalid_value@obligations.0.id",
        "invalid_value@obligations.0.call_id",
        "unrecognized_keys@obligations.0.artifact",
        "invalid_value@obligations.0.artifact.locator",
        "invalid_value@obligations.0.artifact.declared_type",
        "invalid_value@obligations.0.provider_hint",
      ].sort(),
    );
  });

  it("timing without sub-second precision, or not a date-time", () => {
    expect(codesOf({ ...base, timing: { ...TIMING, received_at: "2025-06-01T12:00:00Z" } })).toEqual([
      "invalid_value@timing.received_at",
    ]);
    expect(codesOf({ ...base, timing: { received_at: "yesterday.5Z" } })).toEqual([
      "missing@timing.responded_at",
      "invalid_value@timing.received_at",
    ]);
  });

  it("payload of the wrong type, a stream string without payload_stream, a stream flag on an object", () => {
    expect(codesOf({ ...base, payload: 3 })).toEqual(["invalid_type@payload"]);
    expect(codesOf({ ...base, decision: "block", payload: "data: x\n\n" })).toEqual([
      "missing@payload_stream",
    ]);
    expect(codesOf({ ...base, payload: {}, payload_stream: true })).toEqual(["invalid_type@payload"]);
    expect(codesOf({ ...base, payload: "unchanged", unresolved_spans: -2 })).toEqual([
      "invalid_value@unresolved_spans",
    ]);
  });

  it("a non-object verdict", () => {
    expect(codesOf([base])).toEqual(["invalid_type@"]);
  });
});
