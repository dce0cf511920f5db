import { readdirSync, readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashKey } from "../../src/auth/keys.js";
import { validateVerdict } from "../../src/contract/validate.js";
import { createReassembler, type SseFrame, SseParser, type StreamProtocol } from "../../src/stream/index.js";
import { post, type RunningGuard, startGuard } from "../helpers/guard-server.js";
import { markerDetector, slowDetector } from "../helpers/test-detectors.js";

/** The streamed transport of spec 4.1 over real HTTP: SSE in, a Verdict or SSE out. */

const KEY = "gk_test_stream_0123456789abcdef";
const SMALL_KEY = "gk_test_stream_small_0123456789abcdef";
const CONFIG = `
orgs:
  - id: acme
    detector_deadline_ms: 2000
    limits: {max_request_bytes: 1048576, rate_per_minute: 100000}
    keys: [{id: main, sha256: ${hashKey(KEY)}}]
  - id: small
    limits: {max_request_bytes: 4096, rate_per_minute: 100000}
    keys: [{id: small, sha256: ${hashKey(SMALL_KEY)}}]
`;

const WIRE = join(import.meta.dirname, "../fixtures/wire");
const SAMPLES: [string, StreamProtocol][] = [
  ...readdirSync(join(WIRE, "openai-chat"))
    .filter((f) => f.endsWith(".sse"))
    .map((f): [string, StreamProtocol] => [`openai-chat/${f}`, "vendor_a.chat"]),
  ...readdirSync(join(WIRE, "anthropic"))
    .filter((f) => f.endsWith(".sse"))
    .map((f): [string, StreamProtocol] => [`anthropic/${f}`, "vendor_b.messages"]),
];

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** Streams `chunks` as a chunked upload, `delayMs` apart (a slow writer). */
function send(url: string, headers: Record<string, string>, chunks: (string | Buffer)[], delayMs = 0, key = KEY): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: "POST",
        // No keep-alive pool: every exchange owns its connection, so open connections can be counted.
        agent: false,
        headers: { "content-type": "text/event-stream", authorization: `Bearer ${key}`, "transfer-encoding": "chunked", ...headers },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on("data", (c: Buffer) => parts.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), body: Buffer.concat(parts).toString("utf8") }),
        );
      },
    );
    req.on("error", reject);
    void (async () => {
      for (const chunk of chunks) {
        if (req.destroyed) return;
        req.write(chunk);
        if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      }
      req.end();
    })();
  });
}

/** Splits bytes into three pieces at awkward places (possibly inside a UTF-8 character). */
function pieces(bytes: Buffer): Buffer[] {
  const a = Math.floor(bytes.length / 3) + 1;
  const b = Math.floor((2 * bytes.length) / 3) + 1;
  return [bytes.subarray(0, a), bytes.subarray(a, b), bytes.subarray(b)].filter((p) => p.length > 0);
}

function framesOf(text: string): SseFrame[] {
  const parser = new SseParser();
  return [...parser.push(Buffer.from(text)), ...parser.end()];
}

function reassemble(protocol: StreamProtocol, text: string): Record<string, unknown> {
  const reassembler = createReassembler(protocol);
  for (const frame of framesOf(text)) reassembler.push(frame);
  return reassembler.finish().body;
}

function streamHeaders(protocol: StreamProtocol, extra: Record<string, string> = {}): Record<string, string> {
  return {
    "guard-kind": "step/response",
    "guard-step-id": `s-${Math.random().toString(36).slice(2)}`,
    "guard-llm-protocol": protocol,
    "guard-agent-id": "stream-agent",
    ...extra,
  };
}

/** The verdict comment (the last non-empty line) and the text before it. */
function splitVerdict(body: string): { frames: string; verdict: Record<string, unknown> } {
  const lines = body.split("\n");
  while (lines.at(-1) === "") lines.pop();
  const last = lines.pop() ?? "";
  expect(last.startsWith(": {")).toBe(true);
  return { frames: `${lines.join("\n")}\n`, verdict: JSON.parse(last.slice(2)) as Record<string, unknown> };
}

const sse = (event: string | undefined, data: unknown) =>
  `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  sse(undefined, { id: "chatcmpl-x", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] });

/** A chat stream: opening, 2 bytes of text, a tool call announced, then BLOCKME in its arguments. */
const CHAT_BLOCK = [
  chunk({ role: "assistant", content: "" }),
  chunk({ content: "Hi" }),
  chunk({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "bash", arguments: "" } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"command":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"BLOCKME now"}' } }] }),
  chunk({}, "tool_calls"),
  sse(undefined, "[DONE]"),
];

const MESSAGE = { id: "msg_1", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } };
/** The same for messages: message_start, an empty text block, "Hi", a tool_use with BLOCKME. */
const MESSAGES_BLOCK = [
  sse("message_start", { type: "message_start", message: MESSAGE }),
  sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
  sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } }),
  sse("content_block_stop", { type: "content_block_stop", index: 0 }),
  sse("content_block_start", { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_1", name: "bash", input: {} } }),
  sse("content_block_delta", { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"command":"BLOCKME now"}' } }),
  sse("content_block_stop", { type: "content_block_stop", index: 1 }),
  sse("message_delta", { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 5 } }),
  sse("message_stop", { type: "message_stop" }),
];

describe("streamed transport (spec 4.1)", () => {
  let guard: RunningGuard;
  beforeAll(async () => {
    guard = await startGuard({ config: CONFIG, extraDetectors: [markerDetector()] });
  });
  afterAll(async () => {
    await guard.stop();
  });

  const evaluateUrl = (payload: boolean) => `${guard.url}/v1/evaluate${payload ? "?payload=true" : ""}`;

  describe.each(SAMPLES)("sample %s", (file, protocol) => {
    const bytes = readFileSync(join(WIRE, file));
    const expected = reassemble(protocol, bytes.toString("utf8"));

    it("answers an allow Verdict with the findings of the JSON evaluate of the reassembled body", async () => {
      const answer = await send(evaluateUrl(false), streamHeaders(protocol), pieces(bytes), 2);
      expect(answer.status).toBe(200);
      const verdict = JSON.parse(answer.body) as Record<string, unknown>;
      expect(validateVerdict(verdict)).toMatchObject({ ok: true });
      expect(verdict["decision"]).toBe("allow");
      const json = await post(guard.url, "/v1/evaluate", {
        kind: "step/response",
        step_id: "json-twin",
        agent_id: "stream-agent",
        agent_type: "",
        agent_workspace: "",
        agent_user: "",
        llm_protocol: protocol,
        payload: expected,
      }, KEY);
      expect(json.status).toBe(200);
      expect(verdict["findings"]).toEqual(json.body["findings"]);
    });

    it.each([0, 32, 1_000_000])("with ?payload=true and head %i re-releases a stream that reassembles to the same body", async (headBytes) => {
      const answer = await send(evaluateUrl(true), streamHeaders(protocol, { "guard-head-release-bytes": String(headBytes) }), pieces(bytes));
      expect(answer.status).toBe(200);
      expect(answer.contentType).toMatch(/^text\/event-stream/);
      const { frames, verdict } = splitVerdict(answer.body);
      expect(verdict).toMatchObject({ decision: "allow", llm_protocol: protocol });
      expect(typeof verdict["event_id"]).toBe("string");
      expect(reassemble(protocol, frames)).toEqual(expected);
    });
  });

  describe.each([
    ["vendor_a.chat", CHAT_BLOCK],
    ["vendor_b.messages", MESSAGES_BLOCK],
  ] as [StreamProtocol, string[]][])("block on %s", (protocol, stream) => {
    const run = async (headBytes: number) => {
      const answer = await send(evaluateUrl(true), streamHeaders(protocol, { "guard-head-release-bytes": String(headBytes) }), stream);
      expect(answer.status).toBe(200);
      const { frames, verdict } = splitVerdict(answer.body);
      expect(verdict).toMatchObject({ decision: "block", llm_protocol: protocol });
      expect(frames).not.toContain("BLOCKME");
      return { frames, body: reassemble(protocol, frames) };
    };
    const textOf = (body: Record<string, unknown>): string =>
      protocol === "vendor_a.chat"
        ? String((body["choices"] as { message: { content: string } }[])[0]?.message.content ?? "")
        : (body["content"] as { type: string; text?: string }[]).map((b) => b.text ?? "").join("");

    it("ends cleanly when nothing went out (head 0): the whole refusal stream", async () => {
      const { frames, body } = await run(0);
      expect(frames).toContain("guard");
      expect(textOf(body).length).toBeGreaterThan(0);
      expect(textOf(body)).not.toContain("Hi");
    });

    it("appends the notice inside the open message when only opening frames went out (head 1)", async () => {
      const { body, frames } = await run(1);
      expect(frames).not.toContain('"Hi"');
      expect(textOf(body).length).toBeGreaterThan(0);
      if (protocol === "vendor_a.chat") {
        expect(body).toMatchObject({ id: "chatcmpl-x", choices: [{ finish_reason: "stop" }] });
      } else {
        expect(body).toMatchObject({ id: "msg_1", stop_reason: "end_turn", content: [{ type: "text" }] });
        expect(body["content"]).toHaveLength(1);
      }
    });

    it("ends softly with the notice after released text (head 2)", async () => {
      const { body } = await run(2);
      expect(textOf(body).startsWith("Hi\n\n")).toBe(true);
      if (protocol === "vendor_a.chat") expect(body).toMatchObject({ choices: [{ finish_reason: "stop" }] });
      else expect(body).toMatchObject({ stop_reason: "end_turn" });
      expect(JSON.stringify(body)).not.toMatch(/tool_calls|tool_use|BLOCKME/);
    });

    it("retracts hard once tool-call bytes went out (head 3)", async () => {
      const { frames, body } = await run(3);
      if (protocol === "vendor_a.chat") {
        expect(body).toMatchObject({ choices: [{ finish_reason: "content_filter" }] });
        expect(frames.trimEnd().endsWith("data: [DONE]")).toBe(true);
      } else {
        const last = framesOf(frames).at(-1);
        expect(last?.event).toBe("error");
        expect(JSON.parse(last?.data ?? "{}")).toMatchObject({ type: "error", error: { type: "permission_error" } });
      }
    });
  });

  it("restores a placeholder of the agent within one frame and across two deltas", async () => {
    const agent = { agent_id: "mailer", agent_type: "", agent_workspace: "", agent_user: "" };
    const minted = await post(
      guard.url,
      "/v1/evaluate?payload=true",
      {
        kind: "step/request",
        step_id: "mint-1",
        ...agent,
        llm_protocol: "vendor_a.chat",
        payload: { model: "m", messages: [{ role: "user", content: "mail jane@corp.example and bob@corp.example" }] },
      },
      KEY,
    );
    const sent = JSON.stringify(minted.body["payload"]);
    expect(sent).toContain("${X_EMAIL_1}");
    expect(sent).toContain("${X_EMAIL_2}");
    const stream = [
      chunk({ role: "assistant", content: "" }),
      chunk({ content: "Wrote to ${X_EMAIL_1}" }),
      chunk({ content: " and ${X_EM" }),
      chunk({ content: "AIL_2}." }),
      chunk({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "mail", arguments: '{"to":"${X_EMAIL_2}"}' } }] }),
      chunk({}, "tool_calls"),
      sse(undefined, "[DONE]"),
    ];
    const answer = await send(evaluateUrl(true), streamHeaders("vendor_a.chat", { "guard-agent-id": "mailer", "guard-head-release-bytes": "0" }), stream);
    const { frames, verdict } = splitVerdict(answer.body);
    expect(verdict["decision"]).toBe("allow");
    const body = reassemble("vendor_a.chat", frames) as { choices: { message: { content: string; tool_calls: { function: { arguments: string } }[] } }[] };
    expect(body.choices[0]?.message.content).toBe("Wrote to jane@corp.example and bob@corp.example.");
    expect(JSON.parse(body.choices[0]?.message.tool_calls[0]?.function.arguments ?? "")).toEqual({ to: "bob@corp.example" });
  });

  it("cuts an over-limit stream with 413 before anything was released", async () => {
    const big = Array.from({ length: 40 }, () => chunk({ content: "x".repeat(200) }));
    for (const payload of [false, true]) {
      const answer = await send(
        evaluateUrl(payload),
        streamHeaders("vendor_a.chat", { "guard-head-release-bytes": "0" }),
        big,
        0,
        SMALL_KEY,
      ).catch((error: NodeJS.ErrnoException) => {
        if (error.code === "EPIPE" || error.code === "ECONNRESET") return { status: 413, contentType: "", body: "" };
        throw error;
      });
      expect(answer.status).toBe(413);
      if (answer.body) expect(JSON.parse(answer.body)).toEqual({ error: "payload_too_large", limit_bytes: 4096 });
    }
  });

  it("ends an over-limit stream in band once frames were released", async () => {
    const big = [chunk({ role: "assistant", content: "" }), ...Array.from({ length: 40 }, () => chunk({ content: "y".repeat(200) }))];
    const answer = await send(evaluateUrl(true), streamHeaders("vendor_a.chat", { "guard-head-release-bytes": "100000" }), big, 2, SMALL_KEY);
    expect(answer.status).toBe(200);
    const { frames, verdict } = splitVerdict(answer.body);
    expect(verdict).toMatchObject({ decision: "block", error: "payload_too_large" });
    expect(reassemble("vendor_a.chat", frames)).toMatchObject({ choices: [{ finish_reason: "stop" }] });
  });

  it.each([
    [{ "guard-head-release-bytes": "abc" }, "guard-head-release-bytes"],
    [{ "guard-head-release-bytes": "-1" }, "guard-head-release-bytes"],
    [{ "guard-fail-mode": "maybe" }, "guard-fail-mode"],
    [{ "guard-llm-protocol": "vendor_a.responses" }, "llm_protocol"],
    [{ "guard-kind": "step/request" }, "kind"],
    [{ "guard-step-id": "" }, "step_id"],
  ])("refuses malformed headers %j with 400 JSON before any stream", async (bad, path) => {
    const answer = await send(evaluateUrl(true), streamHeaders("vendor_a.chat", bad), CHAT_BLOCK);
    expect(answer.status).toBe(400);
    expect(answer.contentType).toMatch(/^application\/json/);
    const body = JSON.parse(answer.body) as { error: string; details: { path: string[] }[] };
    expect(body.error).toBe("invalid_event");
    expect(body.details.map((d) => d.path[0])).toContain(path);
  });

  it("keeps the other routes refusing text/event-stream with 415", async () => {
    const answer = await send(`${guard.url}/v1/heartbeat`, {}, ["data: {}\n\n"]);
    expect(answer.status).toBe(415);
  });

  it("stops everything when the client disconnects mid-stream", async () => {
    const connections = () => new Promise<number>((resolve) => guard.app.bridge.server.getConnections((_e, n) => resolve(n)));
    const before = await connections();
    for (const payload of [false, true]) {
      await new Promise<void>((resolve) => {
        const target = new URL(evaluateUrl(payload));
        const req = httpRequest({
          host: target.hostname,
          port: target.port,
          path: `${target.pathname}${target.search}`,
          method: "POST",
          agent: false,
          headers: { "content-type": "text/event-stream", authorization: `Bearer ${KEY}`, ...streamHeaders("vendor_a.chat") },
        });
        req.on("error", () => resolve());
        req.on("close", () => resolve());
        req.write(CHAT_BLOCK[0]);
        req.write(CHAT_BLOCK[1]);
        setTimeout(() => req.destroy(), 50);
      });
    }
    // The server dropped its side: none of those connections stays open, and it still answers.
    await new Promise((r) => setTimeout(r, 100));
    expect(await connections()).toBeLessThanOrEqual(before);
    const answer = await send(evaluateUrl(false), streamHeaders("vendor_a.chat"), [CHAT_BLOCK[0] ?? ""]);
    expect(answer.status).toBe(200);
  });
});

describe("streamed transport with a slow judge", () => {
  let guard: RunningGuard;
  beforeAll(async () => {
    process.env["GUARD_STREAM_KEEPALIVE_MS"] = "40";
    process.env["GUARD_STREAM_JUDGE_TIMEOUT_MS"] = "400";
    try {
      guard = await startGuard({ config: CONFIG, extraDetectors: [markerDetector(), slowDetector(900)] });
    } finally {
      delete process.env["GUARD_STREAM_KEEPALIVE_MS"];
      delete process.env["GUARD_STREAM_JUDGE_TIMEOUT_MS"];
    }
  });
  afterAll(async () => {
    await guard.stop();
  });

  const slow = [chunk({ role: "assistant", content: "" }), chunk({ content: "SLOWME please" }), chunk({}, "stop"), sse(undefined, "[DONE]")];

  it("sends keepalive comments while the judge works, and fails open without a verdict", async () => {
    const answer = await send(`${guard.url}/v1/evaluate?payload=true`, streamHeaders("vendor_a.chat", { "guard-head-release-bytes": "0" }), slow);
    expect(answer.body.match(/^: keepalive$/gm)?.length ?? 0).toBeGreaterThanOrEqual(3);
    const { frames, verdict } = splitVerdict(answer.body);
    expect(verdict).toMatchObject({ decision: "allow", unjudged: true });
    expect(reassemble("vendor_a.chat", frames)).toEqual(reassemble("vendor_a.chat", slow.join("")));
  });

  it("fails closed with the refusal when guard-fail-mode is closed", async () => {
    const answer = await send(
      `${guard.url}/v1/evaluate?payload=true`,
      streamHeaders("vendor_a.chat", { "guard-head-release-bytes": "0", "guard-fail-mode": "closed" }),
      slow,
    );
    const { frames, verdict } = splitVerdict(answer.body);
    expect(verdict).toMatchObject({ decision: "block", unjudged: true });
    expect(frames).not.toContain("SLOWME");
    expect(frames.trimEnd().endsWith("data: [DONE]")).toBe(true);
  });
});
