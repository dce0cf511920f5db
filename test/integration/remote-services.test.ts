import { type ChildProcess, spawn } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/load.js";
import { parseServices } from "../../src/config/services.js";
import { parseServiceList, type ServedServices, serveServices } from "../../src/rpc/serve-services.js";
import { chatRequestEvent, post, type RunningGuard, startGuard, TEST_CONFIG } from "../helpers/guard-server.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const TEXT = "Mail jane.doe@example.com the key AKIAIOSFODNN7EXAMPLE, 😀 thanks";

/** What two instances must agree on: everything but identifiers and timing. */
function judged(body: Record<string, unknown>) {
  return {
    decision: body["decision"],
    findings: body["findings"],
    modifications: body["modifications"],
    unjudged: body["unjudged"],
  };
}

function servicesConfig(url: string, protocol: "grpc" | "connect", session: boolean): string {
  return `${TEST_CONFIG}
services:
  decompose: {url: "${url}", protocol: ${protocol}, deadline_ms: 5000}
${session ? `  session: {url: "${url}", protocol: ${protocol}, deadline_ms: 5000}\n` : ""}`;
}

/** `guard serve --services ...` as its own process; resolves with its URL once it listens. */
function startServicesProcess(services: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", "src/cli/main.ts", "serve", "--services", services],
    { cwd: ROOT, env: { ...process.env, GUARD_RPC_PORT: "0", HOST: "127.0.0.1" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(killer);
    }
  };
  return new Promise((resolveStart, rejectStart) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      void stop();
      rejectStart(new Error(`guard serve --services did not start within 20 s: ${err}`));
    }, 20_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /over HTTP\/2 on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveStart({ url: match[1], stop });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      rejectStart(new Error(`guard serve --services exited with ${code}: ${err}`));
    });
  });
}

describe("decomposition, sessions and a detector served by another instance", () => {
  let served: ServedServices;
  let url: string;
  const guards: RunningGuard[] = [];

  beforeAll(async () => {
    served = await serveServices({ services: ["decompose", "session", "detectors"], host: "127.0.0.1", port: 0 });
    url = `http://127.0.0.1:${served.port}`;
  });

  afterAll(async () => {
    // Closing the instances aborts their HTTP/2 sessions, which lets the server close.
    await Promise.all(guards.map((g) => g.stop()));
    await served?.close();
  });

  async function guard(config?: string): Promise<RunningGuard> {
    const running = await startGuard(config ? { config } : {});
    guards.push(running);
    return running;
  }

  it("answers the same findings and spans as an instance doing everything in process", async () => {
    const [plain, grpc, connect] = await Promise.all([
      guard(),
      guard(servicesConfig(url, "grpc", true)),
      guard(servicesConfig(url, "connect", true)),
    ]);
    expect(grpc.app.rpcPort).toBeUndefined();
    const event = chatRequestEvent(TEXT);
    const local = await post(plain.url, "/v1/evaluate", event);
    expect(local.status).toBe(200);
    expect((local.body["findings"] as unknown[]).length).toBeGreaterThan(0);
    expect((local.body["modifications"] as { spans: unknown[] }).spans.length).toBeGreaterThan(0);
    for (const remote of [grpc, connect]) {
      const answer = await post(remote.url, "/v1/evaluate", { ...event, step_id: `${event["step_id"]}-r` });
      expect(answer.status).toBe(200);
      expect(judged(answer.body)).toEqual(judged(local.body));
    }
  });

  it("consults a detector configured at the same instance beside its own, with the same spans", async () => {
    const config = `${servicesConfig(url, "grpc", false)}detectors:
  - {name: builtin-remote, url: "${url}", protocol: connect, deadline_ms: 5000,
     categories: ["safety.*", "security.*", "privacy.*"]}
`;
    const [plain, remote] = await Promise.all([guard(), guard(config)]);
    const event = chatRequestEvent(TEXT);
    const local = await post(plain.url, "/v1/evaluate", event);
    const answer = await post(remote.url, "/v1/evaluate", event);
    expect(answer.status).toBe(200);
    type F = Record<string, unknown>;
    const findings = answer.body["findings"] as F[];
    const own = findings.filter((f) => f["detector"] !== "builtin-remote");
    const theirs = findings.filter((f) => f["detector"] === "builtin-remote");
    expect(own).toEqual(local.body["findings"]);
    const where = (f: F) => [f["category"], f["path"], f["start"], f["end"]];
    expect(theirs.map(where)).toEqual((local.body["findings"] as F[]).map(where));
    expect(answer.body["decision"]).toBe(local.body["decision"]);
    expect(answer.body["modifications"]).toEqual(local.body["modifications"]);
    expect(answer.body["unjudged"]).toEqual([]);
  });

  it("fails an evaluate instead of judging without decomposition when the service is gone", async () => {
    const gone = await guard(servicesConfig("http://127.0.0.1:1", "grpc", false));
    const answer = await post(gone.url, "/v1/evaluate", chatRequestEvent(TEXT));
    expect(answer.status).toBeGreaterThanOrEqual(500);
  });
});

describe("guard serve --services", () => {
  let child: { url: string; stop: () => Promise<void> } | undefined;
  let running: RunningGuard | undefined;

  afterAll(async () => {
    await running?.stop();
    await child?.stop();
  });

  it("serves decomposition alone to another instance", async () => {
    child = await startServicesProcess("decompose");
    running = await startGuard({ config: servicesConfig(child.url, "grpc", false) });
    const plain = await startGuard();
    try {
      const event = chatRequestEvent(TEXT);
      const local = await post(plain.url, "/v1/evaluate", event);
      const answer = await post(running.url, "/v1/evaluate", event);
      expect(answer.status).toBe(200);
      expect(judged(answer.body)).toEqual(judged(local.body));
    } finally {
      await plain.stop();
    }
  }, 30_000);
});

describe("the services configuration and --services list", () => {
  it("parses both services and names every mistake", () => {
    const entry = { url: "http://127.0.0.1:50080/", protocol: "grpc", deadline_ms: 300 };
    expect(parseServices(undefined)).toBeUndefined();
    expect(parseServices({ decompose: entry })).toEqual({
      decompose: { url: "http://127.0.0.1:50080", protocol: "grpc", deadline_ms: 300 },
    });
    expect(parseConfig(`${TEST_CONFIG}\nservices: {session: {url: "http://h:1", protocol: connect, deadline_ms: 9}}\n`).services).toEqual({
      session: { url: "http://h:1", protocol: "connect", deadline_ms: 9 },
    });
    expect(() => parseServices({ detectors: entry })).toThrow(/services: unknown service detectors/);
    expect(() => parseServices({ decompose: { ...entry, timeout: 1 } })).toThrow(/services\.decompose: unknown key timeout/);
    expect(() => parseServices({ session: { ...entry, protocol: "h3" } })).toThrow(/services\.session\.protocol must be grpc or connect/);
    expect(() => parseServices({ session: { ...entry, url: "ftp://x" } })).toThrow(/services\.session\.url must start with/);
    expect(() => parseServices([])).toThrow(/services must be a mapping/);
    expect(() => parseConfig(`${TEST_CONFIG}\nservices: {decompose: {url: "http://h:1", protocol: grpc}}\n`)).toThrow(
      /services\.decompose\.deadline_ms/,
    );
    expect(parseServiceList("decompose, session,decompose")).toEqual(["decompose", "session"]);
    expect(() => parseServiceList("decompose,bridge")).toThrow(/unknown service bridge/);
    expect(() => parseServiceList(",")).toThrow(/at least one/);
  });
});
