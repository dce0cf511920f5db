import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { parseConfig } from "../../src/config/load.js";
import { SecretBox } from "../../src/crypto/secret-box.js";
import { chatRequestEvent, KEYS, post, TEST_CONFIG } from "../helpers/guard-server.js";

/** A GitHub classic token, assembled so the source holds no scannable secret. */
const TOKEN = ["ghp_", "Zq7Kx2Lm9Pw4Rt6Yv8Bn3Cd5Fg1Hj0Ks2Xa7"].join("");

/** Every structured log line the service writes, parsed. */
const logLines: Record<string, unknown>[] = [];
const rawLog: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (!line) continue;
      rawLog.push(line);
      logLines.push(JSON.parse(line) as Record<string, unknown>);
    }
    done();
  },
});

let app: App;
let url: string;
let dataDir: string;

async function scrape(base = url): Promise<{ text: string; contentType: string }> {
  const response = await fetch(`${base}/metrics`);
  expect(response.status).toBe(200);
  return { text: await response.text(), contentType: response.headers.get("content-type") ?? "" };
}

/** The value of one sample line, by its exact name and labels as exposed. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "guard-metrics-"));
  app = await createApp({
    config: parseConfig(TEST_CONFIG),
    dataDir,
    box: new SecretBox(Buffer.alloc(32, 3)),
    logger: { level: "debug", stream: sink },
    coverageCheckMs: 60_000,
  });
  url = await app.bridge.listen({ host: "127.0.0.1", port: 0 });
  for (let i = 0; i < 3; i++) expect((await post(url, "/v1/evaluate", chatRequestEvent(`question ${i}`))).status).toBe(200);
  const secret = await post(url, "/v1/evaluate", chatRequestEvent(`deploy with ${TOKEN} please`), KEYS.main, {
    "x-extra": "1",
  });
  expect(secret.status).toBe(200);
  // A shadow agent: the same agent_id with a second agent_type.
  await post(url, "/v1/evaluate", chatRequestEvent("who am i", { agent_type: "reviewer" }));
  expect((await post(url, "/v1/evaluate", { not: "an event" })).status).toBe(400);
  expect((await post(url, "/v1/evaluate", chatRequestEvent("x"), null)).status).toBe(401);
  expect((await post(url, "/v1/heartbeat", { integration: "sdk/1", interval_s: 30 })).status).toBe(200);
});

afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("GET /metrics", () => {
  it("serves the text exposition format without a key", async () => {
    const { text, contentType } = await scrape();
    expect(contentType).toBe("text/plain; version=0.0.4; charset=utf-8");
    for (const family of [
      "guard_http_requests_total",
      "guard_http_request_duration_seconds",
      "guard_decisions_total",
      "guard_findings_total",
      "guard_evaluate_duration_seconds",
      "guard_detector_calls_total",
      "guard_detector_failures_total",
      "guard_store_queue_depth",
      "guard_store_write_errors",
      "guard_shadow_agent_signals_total",
      "guard_heartbeats_total",
      "guard_coverage_alerts_total",
      "guard_coverage_gaps",
    ]) {
      expect(text).toContain(`# TYPE ${family} `);
    }
    expect(text.endsWith("\n")).toBe(true);
  });

  it("counts requests by route and status, decisions, findings and latency", async () => {
    const { text } = await scrape();
    expect(sample(text, 'guard_http_requests_total{method="POST",route="/v1/evaluate",status="200"}')).toBe(5);
    expect(sample(text, 'guard_http_requests_total{method="POST",route="/v1/evaluate",status="400"}')).toBe(1);
    expect(sample(text, 'guard_http_requests_total{method="POST",route="/v1/evaluate",status="401"}')).toBe(1);
    expect(sample(text, 'guard_http_requests_total{method="POST",route="/v1/heartbeat",status="200"}')).toBe(1);
    expect(sample(text, 'guard_decisions_total{decision="allow",llm_protocol="vendor_a.chat"}')).toBe(5);
    expect(sample(text, 'guard_findings_total{category="security.secret_leak.github_token"}')).toBe(1);
    expect(sample(text, 'guard_evaluate_duration_seconds_count{kind="step/request"}')).toBe(5);
    expect(sample(text, 'guard_evaluate_duration_seconds_bucket{kind="step/request",le="+Inf"}')).toBe(5);
    expect(sample(text, 'guard_heartbeats_total{org="acme"}')).toBe(1);
    expect(sample(text, "guard_shadow_agent_signals_total")).toBe(1);
    expect(sample(text, "guard_store_queue_depth")).toBeGreaterThanOrEqual(0);
    expect(sample(text, "guard_store_write_errors")).toBe(0);
    expect(sample(text, 'guard_detector_calls_total{detector="secrets"}')).toBe(5);
  });

  it("logs no key and no detected secret", async () => {
    await app.store.flush();
    expect(logLines.length).toBeGreaterThan(0);
    const all = rawLog.join("\n");
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(KEYS.main);
    expect(all).not.toContain("Bearer");
    // The request log still says which request it was.
    expect(logLines.some((l) => (l["req"] as { url?: string } | undefined)?.url === "/v1/evaluate")).toBe(true);
  });

  it("can be served on a port of its own instead", async () => {
    const separate = await createApp({
      config: parseConfig(TEST_CONFIG),
      dataDir: mkdtempSync(join(tmpdir(), "guard-metrics-port-")),
      box: new SecretBox(Buffer.alloc(32, 3)),
      metricsPort: 0,
    });
    try {
      const bridgeUrl = await separate.bridge.listen({ host: "127.0.0.1", port: 0 });
      expect((await fetch(`${bridgeUrl}/metrics`)).status).toBe(404);
      const { text } = await scrape(`http://127.0.0.1:${separate.metricsPort}`);
      expect(text).toContain("# TYPE guard_decisions_total counter");
    } finally {
      await separate.close();
    }
  });
});

describe("coverage alerts", () => {
  it("raises one alert per gap: a warn log line, the metric and the webhook", async () => {
    const received: Record<string, unknown>[] = [];
    const hook = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      request.on("end", () => {
        received.push(JSON.parse(body) as Record<string, unknown>);
        response.end("ok");
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, "127.0.0.1", resolve));
    const lines: Record<string, unknown>[] = [];
    const watched = await createApp({
      config: parseConfig(TEST_CONFIG),
      dataDir: mkdtempSync(join(tmpdir(), "guard-coverage-")),
      box: new SecretBox(Buffer.alloc(32, 3)),
      logger: {
        level: "info",
        stream: new Writable({
          write(chunk: Buffer, _encoding, done) {
            for (const line of chunk.toString("utf8").split("\n")) if (line) lines.push(JSON.parse(line));
            done();
          },
        }),
      },
      coverageCheckMs: 100,
      alertWebhookUrl: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/alerts`,
    });
    try {
      const base = await watched.bridge.listen({ host: "127.0.0.1", port: 0 });
      expect((await post(base, "/v1/heartbeat", { integration: "flaky/1", interval_s: 0.1 })).status).toBe(200);
      expect((await post(base, "/v1/heartbeat", { integration: "steady/1", interval_s: 3600 })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const alerts = lines.filter((l) => l["alert"] === "coverage_lost");
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatchObject({ level: 40, org_id: "acme", integration: "flaky/1", interval_s: 0.1 });
      expect(String(alerts[0]?.["meaning"])).toContain("not an absence of risk");
      expect(received).toEqual([expect.objectContaining({ alert: "coverage_lost", integration: "flaky/1" })]);
      const { text } = await scrape(base);
      expect(sample(text, 'guard_coverage_alerts_total{org="acme"}')).toBe(1);
      expect(sample(text, "guard_coverage_gaps")).toBe(1);

      // A beat closes the gap; the next silence is a new gap and a new alert.
      expect((await post(base, "/v1/heartbeat", { integration: "flaky/1", interval_s: 0.1 })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(lines.filter((l) => l["alert"] === "coverage_lost")).toHaveLength(2);
      expect(received).toHaveLength(2);
    } finally {
      await watched.close();
      hook.close();
    }
  });

  it("logs a webhook that cannot be reached and keeps going", async () => {
    const lines: Record<string, unknown>[] = [];
    const watched = await createApp({
      config: parseConfig(TEST_CONFIG),
      dataDir: mkdtempSync(join(tmpdir(), "guard-coverage-")),
      box: new SecretBox(Buffer.alloc(32, 3)),
      logger: {
        level: "info",
        stream: new Writable({
          write(chunk: Buffer, _encoding, done) {
            for (const line of chunk.toString("utf8").split("\n")) if (line) lines.push(JSON.parse(line));
            done();
          },
        }),
      },
      coverageCheckMs: 100,
      alertWebhookUrl: "http://127.0.0.1:9/unreachable",
    });
    try {
      const base = await watched.bridge.listen({ host: "127.0.0.1", port: 0 });
      await post(base, "/v1/heartbeat", { agent_id: "lonely", interval_s: 0.05 });
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(lines.some((l) => l["alert"] === "coverage_lost" && l["agent_id"] === "lonely")).toBe(true);
      expect(lines.some((l) => String(l["msg"]).includes("webhook unreachable"))).toBe(true);
    } finally {
      await watched.close();
    }
  });
});
