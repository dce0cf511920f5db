import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createContextValues } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DecomposeService } from "../../gen/guard/v1/decompose_pb.js";
import { DetectorService, DetectResponseSchema } from "../../gen/guard/v1/detector_pb.js";
import {
  Channel,
  EventKind,
  type Finding,
  FindingSchema,
  LlmProtocol,
  Severity,
} from "../../gen/guard/v1/types_pb.js";
import { type App, createApp } from "../../src/app.js";
import { hashKey } from "../../src/auth/keys.js";
import { parseConfig } from "../../src/config/load.js";
import { SecretBox } from "../../src/crypto/secret-box.js";
import { decomposeServiceImpl } from "../../src/decompose/service.js";
import { builtinDetectors } from "../../src/detectors/registry.js";
import { parseRemoteDetectors, type RemoteDetectorConfig } from "../../src/detectors/remote/config.js";
import { checkDetectResponse } from "../../src/detectors/remote/contract.js";
import {
  createRemoteDetector,
  describeRemote,
  type RemoteDetector,
} from "../../src/detectors/remote/remote-detector.js";
import { detectorServiceImpl } from "../../src/detectors/service.js";
import { inProcessClient } from "../../src/rpc/in-process.js";
import { parsedPayloadKey } from "../../src/rpc/context.js";
import {
  chatRequestEvent,
  KEYS,
  post,
  type RunningGuard,
  startGuard,
  TEST_CONFIG,
} from "../helpers/guard-server.js";

const EXAMPLE = resolve(dirname(fileURLToPath(import.meta.url)), "../../examples/python-detector");
/** What .ci/run must install for this file; python3-protobuf comes with python3-grpcio. */
const APT_PACKAGES = "python3-grpcio protobuf-compiler protobuf-compiler-grpc";

/**
 * Debian's python3-grpcio lives in /usr/lib/python3/dist-packages, which only the system
 * interpreter sees; a pyenv or venv `python3` earlier on PATH would not find it.
 */
function pythonPath(): string {
  return process.env["GUARD_PYTHON"] ?? (existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3");
}

/** Generates the stubs once for every detector process; says what is missing when it cannot. */
function prepareStubs(): { ok: true; python: string; stubs: string } | { ok: false; why: string } {
  const python = pythonPath();
  const grpc = spawnSync(python, ["-c", "import grpc, google.protobuf"], { encoding: "utf8" });
  if (grpc.status !== 0)
    return { ok: false, why: `${python} cannot import grpc: ${(grpc.stderr || String(grpc.error)).trim()}` };
  const stubs = mkdtempSync(join(tmpdir(), "guard-py-stubs-"));
  const generated = spawnSync("sh", [join(EXAMPLE, "generate.sh"), stubs], {
    encoding: "utf8",
    env: { ...process.env, PYTHON: python },
  });
  if (generated.status !== 0) {
    rmSync(stubs, { recursive: true, force: true });
    return { ok: false, why: `generate.sh failed: ${generated.stderr.trim()}` };
  }
  return { ok: true, python, stubs };
}

const toolchain = prepareStubs();
const onCi = Boolean(process.env["CI"]);
const missing = toolchain.ok
  ? ""
  : `the Python example detector cannot run (${toolchain.why}). .ci/run must install: apt-get install -y ${APT_PACKAGES}`;
if (!toolchain.ok && !onCi) console.warn(`skipping the Python detector tests: ${missing}`);

interface PythonDetector {
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts examples/python-detector on 127.0.0.1 and a port the kernel picks; resolves once it listens. */
function startPythonDetector(python: string, stubs: string, delayMs = 0): Promise<PythonDetector> {
  const child: ChildProcess = spawn(
    python,
    [
      join(EXAMPLE, "detector.py"),
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--stubs",
      stubs,
      "--delay-ms",
      String(delayMs),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
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
      rejectStart(new Error(`the Python detector did not start within 20 s: ${err}`));
    }, 20_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on ([\d.]+):(\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolveStart({ url: `http://${match[1]}:${match[2]}`, stop });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      rejectStart(new Error(`the Python detector exited with ${code}: ${err}`));
    });
  });
}

function remoteConfig(name: string, url: string, deadlineMs: number): RemoteDetectorConfig {
  return { name, url, protocol: "grpc", deadline_ms: deadlineMs, categories: ["x.example.*"], channels: [] };
}

/** The test organisation, failing closed for what the example detector covers. */
const FAIL_CLOSED_CONFIG = `
orgs:
  - id: acme
    subscription: active
    fail_modes: {default: open, "x.example.*": closed}
    keys:
      - {id: main, sha256: ${hashKey(KEYS.main)}}
`;

const HOST_TEXT = "😀 deploy to build-07.corp.internal tonight, then mail jane.doe@example.com";
/** Offsets on the wire count code points: the emoji is one, though two UTF-16 units. */
const HOST_START = Array.from(HOST_TEXT.slice(0, HOST_TEXT.indexOf("build-07"))).length;
const HOST_END = HOST_START + "build-07.corp.internal".length;

type Verdict = Record<string, unknown> & { findings?: Record<string, unknown>[]; unjudged?: string[] };

it.runIf(!toolchain.ok && onCi)("has the Python gRPC toolchain that .ci/run installs", () => {
  throw new Error(missing);
});

describe.runIf(toolchain.ok)("a detector written in Python, called over gRPC", () => {
  const { python, stubs } = toolchain as { python: string; stubs: string };
  const processes: PythonDetector[] = [];
  const remotes: RemoteDetector[] = [];
  const guards: RunningGuard[] = [];
  let fast: RemoteDetector;
  let slow: RemoteDetector;

  beforeAll(async () => {
    const [fastProcess, slowProcess] = await Promise.all([
      startPythonDetector(python, stubs),
      startPythonDetector(python, stubs, 3000),
    ]);
    processes.push(fastProcess, slowProcess);
    fast = createRemoteDetector(remoteConfig("py-hosts", fastProcess.url, 5000));
    slow = createRemoteDetector(remoteConfig("py-hosts-slow", slowProcess.url, 150));
    remotes.push(fast, slow);
  });

  afterAll(async () => {
    await Promise.all(guards.map((g) => g.stop()));
    for (const remote of remotes) remote.close();
    await Promise.all(processes.map((p) => p.stop()));
    rmSync(stubs, { recursive: true, force: true });
  });

  async function guardWith(remote: RemoteDetector, config?: string): Promise<RunningGuard> {
    const guard = await startGuard({ ...(config ? { config } : {}), extraDetectors: [remote.handle] });
    guards.push(guard);
    return guard;
  }

  it("describes itself within the categories configured for it, and a narrower configuration is refused", async () => {
    const described = await describeRemote(fast.handle);
    expect(described).toMatchObject({
      name: "example-hostnames",
      categories: ["x.example.internal_hostname"],
    });
    const misconfigured = createRemoteDetector({
      ...remoteConfig("py-narrow", processes[0]?.url ?? "", 500),
      categories: ["x.other.*"],
    });
    const unreachable = createRemoteDetector(remoteConfig("py-unreachable", "http://127.0.0.1:1", 500));
    remotes.push(misconfigured, unreachable);
    await expect(describeRemote(misconfigured.handle)).rejects.toThrow(
      /x\.example\.internal_hostname, outside/,
    );
    await expect(describeRemote(unreachable.handle)).rejects.toThrow(/did not answer Describe/);
  });

  it("shows its findings in the verdict, next to the built-in ones, with code-point offsets", async () => {
    const guard = await guardWith(fast);
    const { status, body } = await post(guard.url, "/v1/evaluate", chatRequestEvent(HOST_TEXT));
    expect(status).toBe(200);
    const verdict = body as Verdict;
    expect(verdict["decision"]).toBe("allow");
    expect(verdict.unjudged).toEqual([]);
    const host = verdict.findings?.find((f) => f["detector"] === "py-hosts");
    expect(host).toMatchObject({
      category: "x.example.internal_hostname",
      severity: "medium",
      path: "payload.messages.1.content",
      start: HOST_START,
      end: HOST_END,
      subject: "build-07.corp.internal",
    });
    expect(Array.from(HOST_TEXT).slice(HOST_START, HOST_END).join("")).toBe("build-07.corp.internal");
    expect(verdict.findings?.some((f) => f["category"] === "privacy.pii.email")).toBe(true);
  });

  it("reports a host inside JSON-encoded tool arguments by path, without offsets", async () => {
    const guard = await guardWith(fast);
    const event = chatRequestEvent("check the database", {});
    const payload = event["payload"] as { messages: unknown[] };
    payload.messages.push(
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "ssh", arguments: JSON.stringify({ host: "db-1.corp.internal" }) },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "ok" },
    );
    const { body } = await post(guard.url, "/v1/evaluate", event);
    const host = (body as Verdict).findings?.find((f) => f["detector"] === "py-hosts");
    expect(host).toMatchObject({
      path: "payload.messages.2.tool_calls.0.function.arguments",
      subject: "db-1.corp.internal",
    });
    expect(host).not.toHaveProperty("start");
  });

  it("rejects a Detect call that overruns its configured deadline", async () => {
    const started = performance.now();
    const call = slow.handle.client.detect({
      kind: EventKind.STEP_REQUEST,
      segments: [{ path: "p", text: "x", addressable: true }],
    });
    await expect(call).rejects.toSatisfy(
      (e) => e instanceof ConnectError && e.code === Code.DeadlineExceeded,
    );
    expect(performance.now() - started).toBeLessThan(2500);
  });

  it("lands a slow detector's segments in unjudged and still allows under the default fail-open", async () => {
    const guard = await guardWith(slow);
    const started = performance.now();
    const { status, body } = await post(guard.url, "/v1/evaluate", chatRequestEvent(HOST_TEXT));
    expect(status).toBe(200);
    expect(performance.now() - started).toBeLessThan(2500);
    const verdict = body as Verdict;
    expect(verdict["decision"]).toBe("allow");
    expect(verdict.unjudged).toEqual(
      expect.arrayContaining(["payload.messages.0.content", "payload.messages.1.content"]),
    );
    expect(verdict.findings?.some((f) => f["detector"] === "py-hosts-slow")).toBe(false);
    // The built-in detectors still judged the same text.
    expect(verdict.findings?.some((f) => f["category"] === "privacy.pii.email")).toBe(true);
  });

  it("blocks when the slow detector's categories fail closed", async () => {
    const guard = await guardWith(slow, FAIL_CLOSED_CONFIG);
    const { status, body } = await post(guard.url, "/v1/evaluate", chatRequestEvent(HOST_TEXT));
    expect(status).toBe(200);
    const verdict = body as Verdict;
    expect(verdict["decision"]).toBe("block");
    expect(verdict.unjudged).toContain("payload.messages.1.content");
    expect((verdict["continuation"] as Record<string, unknown>)["notice"]).toMatch(/py-hosts-slow/);
  });

  it("lands an unreachable detector's segments in unjudged too", async () => {
    const gone = createRemoteDetector(remoteConfig("py-gone", "http://127.0.0.1:1", 1000));
    remotes.push(gone);
    const guard = await guardWith(gone);
    const { body } = await post(guard.url, "/v1/evaluate", chatRequestEvent(HOST_TEXT));
    const verdict = body as Verdict;
    expect(verdict["decision"]).toBe("allow");
    expect(verdict.unjudged).toContain("payload.messages.1.content");
  });
});

describe("decomposition and the built-in detectors served over HTTP/2", () => {
  let app: App;
  let dataDir: string;
  let sessions: Http2SessionManager;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "guard-rpc-"));
    app = await createApp({
      config: parseConfig(TEST_CONFIG),
      dataDir,
      box: new SecretBox(Buffer.alloc(32, 7)),
      whitelistRefreshMs: 60_000,
      rpcPort: 0,
    });
  });

  afterAll(async () => {
    sessions?.abort();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const payload = chatRequestEvent("Mail jane.doe@example.com the key AKIAIOSFODNN7EXAMPLE, 😀 thanks")[
    "payload"
  ] as Record<string, unknown>;

  it("answers DecomposeService and DetectorService over gRPC exactly as in process", async () => {
    const baseUrl = `http://127.0.0.1:${app.rpcPort}`;
    sessions = new Http2SessionManager(baseUrl);
    const transport = createGrpcTransport({ baseUrl, sessionManager: sessions });
    const request = {
      kind: EventKind.STEP_REQUEST,
      llmProtocol: LlmProtocol.VENDOR_A_CHAT,
      payloadJson: Buffer.from(JSON.stringify(payload)),
    };

    const remote = await createClient(DecomposeService, transport).decompose(request);
    const local = await inProcessClient(DecomposeService, decomposeServiceImpl).decompose(
      { ...request, payloadJson: new Uint8Array() },
      { contextValues: createContextValues().set(parsedPayloadKey, payload) },
    );
    expect(remote.segments.length).toBeGreaterThan(0);
    expect(remote.segments).toEqual(local.segments);
    expect(remote.toolCalls).toEqual(local.toolCalls);
    expect(remote.unjudged).toEqual(local.unjudged);

    const detectRequest = { kind: EventKind.STEP_REQUEST, segments: remote.segments };
    const remoteFindings = (await createClient(DetectorService, transport).detect(detectRequest)).findings;
    const localFindings: unknown[] = [];
    for (const detector of builtinDetectors)
      localFindings.push(
        ...(await inProcessClient(DetectorService, detectorServiceImpl(detector)).detect(detectRequest))
          .findings,
      );
    expect(remoteFindings.map((f) => f.category)).toEqual(expect.arrayContaining(["privacy.pii.email"]));
    expect(remoteFindings).toEqual(localFindings);
  });

  it("serves the built-in detectors as a remote detector over Connect, attributed to its configured name", async () => {
    const remote = createRemoteDetector({
      name: "builtin-remote",
      url: `http://127.0.0.1:${app.rpcPort}`,
      protocol: "connect",
      deadline_ms: 5000,
      categories: ["safety.*", "security.*", "privacy.*"],
      channels: [],
    });
    try {
      const described = await describeRemote(remote.handle);
      expect(described.name).toBe("builtin");
      const text = "write to jane.doe@example.com";
      const response = await remote.handle.client.detect({
        kind: EventKind.STEP_REQUEST,
        segments: [{ path: "payload.messages.1.content", text, addressable: true, messageIndex: 1 }],
      });
      expect(response.findings).toEqual([
        expect.objectContaining({
          category: "privacy.pii.email",
          detector: "builtin-remote",
          start: text.indexOf("jane"),
          end: text.length,
        }),
      ]);
    } finally {
      remote.close();
    }
  });
});

type FindingFields = Partial<Omit<Finding, "$typeName" | "$unknown">>;

describe("remote detector configuration and the contract held against answers", () => {
  const entry = {
    name: "py-hosts",
    url: "http://127.0.0.1:50071/",
    protocol: "grpc",
    deadline_ms: 200,
    categories: ["x.example.*"],
    channels: ["user", "tool_result"],
  };

  it("parses a list and names the entry of every mistake", () => {
    expect(parseRemoteDetectors(undefined, "detectors")).toEqual([]);
    expect(parseRemoteDetectors([entry], "detectors")).toEqual([
      { ...entry, url: "http://127.0.0.1:50071", channels: [Channel.USER, Channel.TOOL_RESULT] },
    ]);
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ url: "ftp://host" }, /detectors\[1\]\.url must start with http:\/\/ or https:\/\//],
      [{ url: "not a url" }, /detectors\[1\]\.url is not a URL/],
      [{ protocol: "grpc-web" }, /detectors\[1\]\.protocol must be grpc or connect/],
      [{ deadline_ms: 0 }, /detectors\[1\]\.deadline_ms must be an integer/],
      [{ categories: [] }, /detectors\[1\]\.categories must be a non-empty list/],
      [{ categories: ["*"] }, /detectors\[1\]\.categories\[0\] must be a category/],
      [{ channels: ["shell"] }, /detectors\[1\]\.channels\[0\]: unknown channel shell/],
      [{ timeout: 5 }, /detectors\[1\]: unknown key timeout/],
      [{ name: "py-hosts" }, /detectors\[1\]\.name py-hosts is used by an earlier detector/],
    ];
    for (const [change, message] of bad)
      expect(() =>
        parseRemoteDetectors([entry, { ...entry, name: "other", ...change }], "detectors"),
      ).toThrow(message);
  });

  it("refuses an answer out of contract, and completes attribution from what Guard showed", () => {
    const config = parseRemoteDetectors([entry], "detectors")[0]!;
    const segments = [
      { path: "a", text: "😀 host.corp.internal", addressable: true, channel: Channel.USER, callId: "" },
      {
        path: "b",
        text: '{"h":"x.corp.internal"}',
        addressable: false,
        channel: Channel.TOOL_RESULT,
        callId: "call_1",
      },
    ];
    const finding = (fields: FindingFields) =>
      create(FindingSchema, {
        category: "x.example.internal_hostname",
        severity: Severity.MEDIUM,
        score: 0.9,
        path: "a",
        ...fields,
      });
    const answer = (...findings: Finding[]) => create(DetectResponseSchema, { findings });

    const settled = checkDetectResponse(
      config,
      segments,
      answer(finding({ start: 2, end: 20, detector: "pii" }), finding({ path: "b", start: 0, end: 3 })),
    );
    expect(settled.findings[0]).toMatchObject({
      detector: "py-hosts",
      channel: Channel.USER,
      start: 2,
      end: 20,
    });
    expect(settled.findings[1]).toMatchObject({
      detector: "py-hosts",
      channel: Channel.TOOL_RESULT,
      callId: "call_1",
    });
    expect(settled.findings[1]?.start).toBeUndefined();

    const broken: [FindingFields, RegExp][] = [
      [{ path: "c" }, /names path "c"/],
      [{ category: "security.malicious_command" }, /not among its configured categories/],
      [{ severity: Severity.UNSPECIFIED }, /has no severity/],
      [{ score: 1.5 }, /outside 0 to 1/],
      [{ start: 2 }, /only one of start and end/],
      [{ start: 2, end: 21 }, /outside its segment/],
    ];
    for (const [fields, message] of broken)
      expect(() => checkDetectResponse(config, segments, answer(finding(fields)))).toThrow(message);
    expect(() =>
      checkDetectResponse(config, segments, create(DetectResponseSchema, { unjudged: ["z"] })),
    ).toThrow(/unjudged/);
  });
});
