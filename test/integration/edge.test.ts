import { request as httpRequest } from "node:http";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatRequestEvent, get, KEYS, post, type RunningGuard, startGuard } from "../helpers/guard-server.js";

/** Sends a body in chunks without Content-Length, as a streaming client would. */
function postChunked(base: string, path: string, key: string, chunks: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${base}${path}`);
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}`, "transfer-encoding": "chunked" },
      },
      (res) => {
        let body = "";
        res.on("data", (c: Buffer) => {
          body += c.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      // The server may answer 413 and close before the upload finishes.
      if (error.code === "EPIPE" || error.code === "ECONNRESET") resolve({ status: 413, body: "" });
      else reject(error);
    });
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe("authentication (spec 5)", () => {
  let guard: RunningGuard;
  beforeAll(async () => {
    guard = await startGuard();
  });
  afterAll(async () => {
    await guard.stop();
  });

  it.each([
    ["missing", null, 401],
    ["unknown", "gk_test_nobody_0123456789", 401],
    ["revoked", KEYS.revoked, 401],
    ["expired", KEYS.expired, 401],
  ])("answers a %s key with 401 unauthorized", async (_why, key, status) => {
    const answer = await post(guard.url, "/v1/evaluate", chatRequestEvent("x"), key);
    expect(answer.status).toBe(status);
    expect(answer.body).toMatchObject({ error: "unauthorized" });
  });

  it("answers a malformed Authorization header with 401", async () => {
    for (const header of ["Basic abc", "Bearer", "Bearer two words", "gk_test_main_0123456789abcdef"]) {
      const answer = await post(guard.url, "/v1/evaluate", chatRequestEvent("x"), null, { authorization: header });
      expect(answer.status).toBe(401);
      expect(answer.body["error"]).toBe("unauthorized");
    }
  });

  it("answers an organization without an active subscription with 402", async () => {
    const answer = await post(guard.url, "/v1/evaluate", chatRequestEvent("x"), KEYS.unpaid);
    expect(answer).toEqual({ status: 402, body: expect.objectContaining({ error: "payment_required" }) });
  });

  it("requires a key on heartbeat and limits, but not on health", async () => {
    expect((await post(guard.url, "/v1/heartbeat", { integration: "x/1" }, null)).status).toBe(401);
    expect((await get(guard.url, "/v1/limits")).status).toBe(401);
    const health = await get(guard.url, "/v1/health");
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: "ok" });
  });
});

describe("limits and heartbeat (spec 4.2, 4.4, 8)", () => {
  let guard: RunningGuard;
  beforeAll(async () => {
    guard = await startGuard();
  });
  afterAll(async () => {
    await guard.stop();
  });

  const acmeLimits = {
    max_request_bytes: 1048576,
    media: { image: 1000, audio: 0, document: 0, file: 0, video: 0 },
    media_parts_max: 4,
  };

  it("GET /v1/limits answers the organization's limits object", async () => {
    const answer = await get(guard.url, "/v1/limits", KEYS.main);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ limits: acmeLimits });
  });

  it("a heartbeat answers ok with the limits, and needs an integration or an agent_id", async () => {
    const beat = await post(guard.url, "/v1/heartbeat", {
      integration: "agent-sdk/2.0",
      interval_s: 30,
      counters: { events_sent: 10, evaluate_errors: 0, unresolved_spans: 0 },
    });
    expect(beat).toEqual({ status: 200, body: { ok: true, limits: acmeLimits } });
    expect((await post(guard.url, "/v1/heartbeat", { agent_id: "a1" })).status).toBe(200);
    const neither = await post(guard.url, "/v1/heartbeat", { interval_s: 30 });
    expect(neither.status).toBe(400);
    expect(neither.body["error"]).toBe("invalid_body");
    expect((await post(guard.url, "/v1/heartbeat", "not json")).body["error"]).toBe("invalid_body");
  });

  it("refuses a declared Content-Length over the limit with 413 before reading the body", async () => {
    const big = chatRequestEvent("y".repeat(4000));
    const answer = await post(guard.url, "/v1/evaluate", big, KEYS.small);
    expect(answer).toEqual({ status: 413, body: { error: "payload_too_large", limit_bytes: 2048 } });
  });

  it("refuses a chunked upload without Content-Length once it passes the limit", async () => {
    const body = JSON.stringify(chatRequestEvent("z".repeat(5000)));
    const answer = await postChunked(guard.url, "/v1/evaluate", KEYS.small, [body.slice(0, 1000), body.slice(1000)]);
    expect(answer.status).toBe(413);
    if (answer.body) expect(JSON.parse(answer.body)).toEqual({ error: "payload_too_large", limit_bytes: 2048 });
  });

  it("answers 429 with limit and scope key once a key's window is spent", async () => {
    // The tiny org allows 3 requests a minute per key; the two 413s above spent two.
    const statuses: number[] = [];
    let last: Record<string, unknown> = {};
    for (let i = 0; i < 3; i++) {
      const answer = await post(guard.url, "/v1/evaluate", chatRequestEvent("x"), KEYS.small);
      statuses.push(answer.status);
      last = answer.body;
    }
    expect(statuses).toContain(429);
    expect(last).toEqual({ error: "rate_limited", limit: 3, scope: "key" });
  });

  it("answers 429 with scope org once the organization's budget is spent across its keys", async () => {
    const keys = [KEYS.orgBudget, KEYS.orgBudget2];
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await post(guard.url, "/v1/evaluate", chatRequestEvent("x"), keys[i % 2]));
    expect(answers.slice(0, 4).map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers[4]).toEqual({ status: 429, body: { error: "rate_limited", limit: 4, scope: "org" } });
  });
});

describe("routes, prefix mount and the published contract", () => {
  let guard: RunningGuard;
  let prefixed: RunningGuard;
  beforeAll(async () => {
    guard = await startGuard();
    prefixed = await startGuard({ basePath: "/guard" });
  });
  afterAll(async () => {
    await guard.stop();
    await prefixed.stop();
  });

  it("serves every route under the deployment prefix and nothing at the bare path", async () => {
    const evaluated = await post(prefixed.url, "/guard/v1/evaluate", chatRequestEvent("mail me at a@b.io"));
    expect(evaluated.status).toBe(200);
    expect(evaluated.body["decision"]).toBe("allow");
    expect((await get(prefixed.url, "/guard/v1/health")).status).toBe(200);
    expect((await get(prefixed.url, "/guard/v1/limits", KEYS.main)).status).toBe(200);
    expect((await post(prefixed.url, "/guard/v1/heartbeat", { agent_id: "a" })).status).toBe(200);
    expect((await get(prefixed.url, "/guard/openapi.json")).status).toBe(200);
    expect((await get(prefixed.url, "/guard/schema/v1/verdict.json")).status).toBe(200);
    const bare = await post(prefixed.url, "/v1/evaluate", chatRequestEvent("x"));
    expect(bare.status).toBe(404);
    expect(bare.body["error"]).toBe("not_found");
  });

  it("answers unknown routes with JSON 404 and wrong methods with JSON 405, never HTML", async () => {
    const missing = await get(guard.url, "/nowhere");
    expect(missing.status).toBe(404);
    expect(missing.contentType).toContain("application/json");
    expect(missing.body["error"]).toBe("not_found");
    const wrong = await get(guard.url, "/v1/evaluate", KEYS.main);
    expect(wrong.status).toBe(405);
    expect(wrong.body["error"]).toBe("method_not_allowed");
    const removed = await post(guard.url, "/v1/ingest", chatRequestEvent("x"));
    expect(removed.status).toBe(404);
  });

  it("answers a body that is not JSON with 415 in the error shape", async () => {
    const response = await fetch(`${guard.url}/v1/evaluate`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEYS.main}`, "content-type": "text/plain" },
      body: "hello",
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: "unsupported_media_type" });
  });

  it("publishes the OpenAPI description and schemas that validate sample events", async () => {
    const openapi = await get(guard.url, "/openapi.json");
    expect(openapi.body["openapi"]).toMatch(/^3\.1\./);
    const names = ["guard-event", "verdict", "finding", "span", "obligation", "continuation", "verdict-timing", "limits"];
    // A fresh validator built only from what the service served, not from the repo files.
    const ajv = new Ajv2020Module.default({ strict: false, allErrors: true });
    addFormatsModule.default(ajv);
    for (const name of names) {
      const served = await get(guard.url, `/schema/v1/${name}.json`);
      expect(served.status).toBe(200);
      ajv.addSchema(served.body);
    }
    const validateEvent = ajv.getSchema("https://guard.invalid/schema/v1/guard-event.json");
    expect(validateEvent?.(chatRequestEvent("hello"))).toBe(true);
    expect(validateEvent?.(chatRequestEvent("hello", { session_id: "s" }))).toBe(false);
    const verdict = await post(guard.url, "/v1/evaluate", chatRequestEvent("write to x@y.com"));
    const validateVerdict = ajv.getSchema("https://guard.invalid/schema/v1/verdict.json");
    expect(validateVerdict?.(verdict.body)).toBe(true);
    expect((await get(guard.url, "/schema/v1/nope.json")).status).toBe(404);
  });
});
