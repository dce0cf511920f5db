import { describe, expect, it } from "vitest";
import { validateAs, validateHeartbeat } from "../../../src/contract/validate.js";

/** Heartbeat (SPEC 2.9, 4.2), limits (2.10, 4.4), error bodies (7) and health (4.3). */

const LIMITS = {
  max_request_bytes: 1_048_576,
  media: { image: 5_000_000, audio: 0, document: 0, file: 0, video: 0 },
  media_parts_max: 8,
};

function codes(result: ReturnType<typeof validateAs>): string[] {
  return result.ok ? [] : result.details.map((d) => `${d.code}@${d.path.join(".")}`);
}

describe("validateHeartbeat", () => {
  it("accepts integration alone, agent_id alone, and both with counters", () => {
    expect(validateHeartbeat({ integration: "litellm-guard/1.4.2" }).ok).toBe(true);
    expect(validateHeartbeat({ agent_id: "support-bot" }).ok).toBe(true);
    const full = {
      integration: "litellm-guard/1.4.2",
      agent_id: "support-bot",
      interval_s: 30,
      counters: { events_sent: 1200, evaluate_errors: 3, unresolved_spans: 0, cache_hits: 0.5 },
    };
    expect(validateHeartbeat(full)).toEqual({ ok: true, value: full });
  });

  it("refuses a beat with neither integration nor agent_id as one missing item naming both", () => {
    const result = validateHeartbeat({ interval_s: 30 });
    expect(result).toEqual({
      ok: false,
      details: [
        {
          code: "missing",
          keys: ["integration", "agent_id"],
          path: [],
          message: "the heartbeat needs at least one of `integration`, `agent_id`",
        },
      ],
    });
  });

  it("refuses an empty integration, counters that are not numbers, a non-positive interval", () => {
    expect(codes(validateHeartbeat({ integration: "" }))).toEqual(["invalid_value@integration"]);
    const counters = { events_sent: 1.5, evaluate_errors: -1, custom: "many" };
    expect(codes(validateHeartbeat({ agent_id: "a", counters, interval_s: 0 })).sort()).toEqual(
      [
        "invalid_type@counters.events_sent",
        "invalid_value@counters.evaluate_errors",
        "invalid_type@counters.custom",
        "invalid_value@interval_s",
      ].sort(),
    );
  });

  it("refuses non-objects at the root", () => {
    for (const body of [null, [], "beat", 1]) {
      expect(codes(validateHeartbeat(body))).toEqual(["invalid_type@"]);
    }
  });

  it("keeps numeric-looking object keys as strings in paths", () => {
    const result = validateHeartbeat({ agent_id: "a", counters: { "0": "x" } });
    expect(result.ok ? [] : result.details[0]?.path).toEqual(["counters", "0"]);
  });
});

describe("response bodies", () => {
  it("heartbeat and limits responses carry the limits object", () => {
    expect(validateAs("heartbeat-response", { ok: true, limits: LIMITS }).ok).toBe(true);
    expect(validateAs("limits-response", { limits: LIMITS }).ok).toBe(true);
    expect(codes(validateAs("heartbeat-response", { ok: false, limits: LIMITS }))).toEqual([
      "invalid_enum_value@ok",
    ]);
    const noVideo = { ...LIMITS, media: { ...LIMITS.media, video: undefined } };
    delete noVideo.media.video;
    expect(codes(validateAs("limits-response", { limits: noVideo }))).toEqual(["missing@limits.media.video"]);
    expect(codes(validateAs("limits", { ...LIMITS, media: { ...LIMITS.media, image: true } }))).toEqual([
      "invalid_type@media.image",
    ]);
  });

  it("health", () => {
    expect(validateAs("health", { status: "ok", version: "0.1.0", uptime_s: 12.5 }).ok).toBe(true);
    expect(codes(validateAs("health", { status: "degraded", version: "0.1.0", uptime_s: 1 }))).toEqual([
      "invalid_enum_value@status",
    ]);
  });

  it("every error body of SPEC 7", () => {
    const bodies = [
      {
        error: "invalid_event",
        details: [{ code: "unrecognized_keys", keys: ["session_id"], path: [], message: "removed in 1.0" }],
      },
      { error: "identity_refused", field: "agent_workspace", expected: "prod" },
      { error: "invalid_body" },
      {
        error: "invalid_body",
        details: [{ code: "missing", keys: ["integration", "agent_id"], path: [], message: "m" }],
      },
      { error: "unauthorized" },
      { error: "payment_required" },
      { error: "payload_too_large", limit_bytes: 1_048_576 },
      { error: "rate_limited", limit: 600, scope: "key" },
      { error: "rate_limited", limit: 6000, scope: "org" },
      { error: "not_found", message: "no route GET /v2/evaluate" },
    ];
    for (const body of bodies) expect(validateAs("error", body)).toEqual({ ok: true, value: body });
  });

  it("error bodies missing the fields their code carries", () => {
    expect(codes(validateAs("error", { error: "invalid_event" }))).toEqual(["missing@details"]);
    expect(codes(validateAs("error", { error: "identity_refused", field: "agent_user" })).sort()).toEqual(
      ["invalid_enum_value@field", "missing@expected"].sort(),
    );
    expect(codes(validateAs("error", { error: "payload_too_large" }))).toEqual(["missing@limit_bytes"]);
    expect(codes(validateAs("error", { error: "rate_limited", limit: 600, scope: "ip" }))).toEqual([
      "invalid_enum_value@scope",
    ]);
    expect(codes(validateAs("error", { error: "teapot" }))).toEqual(["invalid_enum_value@error"]);
    const badDetail = { error: "invalid_event", details: [{ code: "bogus", path: ["a", -1] }] };
    expect(codes(validateAs("error", badDetail)).sort()).toEqual(
      [
        "missing@details.0.message",
        "invalid_enum_value@details.0.code",
        "invalid_value@details.0.path.1",
      ].sort(),
    );
  });
});
