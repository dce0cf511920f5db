import { readdirSync, readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { hashKey } from "../../src/auth/keys.js";
import { SseResponse } from "../../src/bridge/stream/sse-response.js";
import { validateVerdict } from "../../src/contract/validate.js";
import { PlaceholderRegistry } from "../../src/placeholders/registry.js";
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

const VERDICT = Symbol("verdict");

/**
 * Client-visible content bytes of `text`'s frames as src/stream counts them (FrameInfo): a
 * frame costs its content bytes, and a frame that only announces a tool call costs one.
 */
function contentCost(protocol: StreamProtocol, text: string): number {
  const reassembler = createReassembler(protocol);
  let total = 0;
  for (const frame of framesOf(text)) {
    const info = reassembler.push(frame);
    total += info.contentBytes === 0 && info.announcesTool ? 1 : info.contentBytes;
  }
  return total;
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

  afterEach(() => {
    vi.restoreAllMocks();
  });

  /**
   * Streams `chunks` with `?payload=true` and returns the frames the server wrote before the
   * verdict. Deterministic, no timing: every write of the SSE answer is logged in order, and
   * the verdict's arrival is logged where the allowed tail starts to be prepared (placeholder
   * restoration, which runs only once the verdict is in and before any held frame is written).
   * Keepalive comments carry no content and are left out.
   */
  const releasedBeforeVerdict = async (protocol: StreamProtocol, headBytes: number, chunks: (string | Buffer)[]) => {
    const log: (string | typeof VERDICT)[] = [];
    const write = SseResponse.prototype.write;
    vi.spyOn(SseResponse.prototype, "write").mockImplementation(function (this: SseResponse, text: string) {
      log.push(text);
      return write.call(this, text);
    });
    const resolve = PlaceholderRegistry.prototype.resolve;
    vi.spyOn(PlaceholderRegistry.prototype, "resolve").mockImplementation(function (this: PlaceholderRegistry, ...args) {
      log.push(VERDICT);
      return resolve.apply(this, args);
    });
    const answer = await send(evaluateUrl(true), streamHeaders(protocol, { "guard-head-release-bytes": String(headBytes) }), chunks);
    expect(answer.status).toBe(200);
    expect(splitVerdict(answer.body).verdict).toMatchObject({ decision: "allow" });
    const at = log.indexOf(VERDICT);
    const early = (at < 0 ? log : log.slice(0, at)).filter((t): t is string => typeof t === "string" && !t.startsWith(":"));
    return { before: early.join(""), sawVerdict: at >= 0 };
  };

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

    it.each([0, 1, 32])("with ?payload=true and head %i releases at most that many content bytes before the verdict", async (headBytes) => {
      const { before, sawVerdict } = await releasedBeforeVerdict(protocol, headBytes, pieces(bytes));
      expect(sawVerdict).toBe(true);
      const spent = contentCost(protocol, before);
      expect(spent).toBeLessThanOrEqual(headBytes);
      if (headBytes === 0) expect(before).toBe("");
      // What went out early is the stream's own beginning, byte for byte.
      const early = framesOf(before).map((f) => f.raw);
      expect(early).toEqual(framesOf(bytes.toString("utf8")).map((f) => f.raw).slice(0, early.length));
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

  describe.each([
    [
      "vendor_a.chat",
      [
        chunk({ role: "assistant", content: "" }),
        chunk({ content: "Hi" }),
        chunk({ tool_calls: [{ index: 0, id: "call_ok", type: "function", function: { name: "ls", arguments: "" } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":"."}' } }] }),
        chunk({ tool_calls: [{ index: 1, id: "call_bad", type: "function", function: { name: "bash", arguments: "" } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: '{"command":"BLOCKME now"}' } }] }),
        chunk({}, "tool_calls"),
        sse(undefined, "[DONE]"),
      ],
      // 3: "Hi" and the allowed call's announcement; 15: all of the allowed call; 16: the blocked one's announcement too.
      [0, 2, 3, 15],
      16,
    ],
    [
      "vendor_b.messages",
      [
        sse("message_start", { type: "message_start", message: MESSAGE }),
        sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
        sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } }),
        sse("content_block_stop", { type: "content_block_stop", index: 0 }),
        sse("content_block_start", { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_bad", name: "bash", input: {} } }),
        sse("content_block_delta", { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"command":"BLOCKME now"}' } }),
        sse("content_block_stop", { type: "content_block_stop", index: 1 }),
        sse("content_block_start", { type: "content_block_start", index: 2, content_block: { type: "tool_use", id: "toolu_ok", name: "ls", input: {} } }),
        sse("content_block_delta", { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '{"path":"."}' } }),
        sse("content_block_stop", { type: "content_block_stop", index: 2 }),
        sse("message_delta", { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 5 } }),
        sse("message_stop", { type: "message_stop" }),
      ],
      // 2: "Hi"; 3: the blocked call's announcement too.
      [0, 2],
      3,
    ],
  ] as [StreamProtocol, string[], number[], number][])("drop_calls on %s", (protocol, stream, dropHeads, retractHead) => {
    const run = async (headBytes: number) => {
      const answer = await send(evaluateUrl(true), streamHeaders(protocol, { "guard-head-release-bytes": String(headBytes) }), stream);
      expect(answer.status).toBe(200);
      const { frames, verdict } = splitVerdict(answer.body);
      expect(verdict).toMatchObject({ decision: "block", llm_protocol: protocol });
      expect(frames).not.toContain("BLOCKME");
      return { frames, body: reassemble(protocol, frames) };
    };
    /** The JSON transport's carried-out body of the same response: the stream must agree with it. */
    const carried = async () => {
      const json = await post(
        guard.url,
        "/v1/evaluate?payload=true",
        { kind: "step/response", step_id: "json-drop", agent_id: "stream-agent", agent_type: "", agent_workspace: "", agent_user: "", llm_protocol: protocol, payload: reassemble(protocol, stream.join("")) },
        KEY,
      );
      expect(json.body).toMatchObject({ decision: "block", continuation: { style: "drop_calls" } });
      return json.body["payload"] as Record<string, unknown>;
    };

    it.each(dropHeads)("releases the held frames without the blocked call, with the notice (head %i)", async (headBytes) => {
      const { frames, body } = await run(headBytes);
      expect(frames).not.toContain("call_bad");
      expect(frames).not.toContain("toolu_bad");
      expect(body).toEqual(await carried());
      if (protocol === "vendor_a.chat") {
        const choice = (body["choices"] as { finish_reason: string; message: { content: string; tool_calls: { id: string }[] } }[])[0];
        expect(choice?.finish_reason).toBe("tool_calls");
        expect(choice?.message.tool_calls.map((c) => c.id)).toEqual(["call_ok"]);
        expect(choice?.message.content.startsWith("Hi\n\nGuard refused this step")).toBe(true);
        expect(frames.trimEnd().endsWith("data: [DONE]")).toBe(true);
      } else {
        const content = body["content"] as { type: string; id?: string; text?: string }[];
        expect(content.map((b) => b.id ?? b.type)).toEqual(["text", "toolu_ok", "text"]);
        expect(content[2]?.text).toMatch(/^Guard refused this step/);
        expect(body["stop_reason"]).toBe("tool_use");
        // Block indices stay contiguous for SDKs that address content by index.
        const indices = framesOf(frames)
          .map((f) => JSON.parse(f.data) as { type: string; index?: number })
          .filter((d) => d.type === "content_block_start")
          .map((d) => d.index);
        expect(indices).toEqual([0, 1, 2]);
      }
    });

    it("keeps the refusal once bytes of the blocked call went out", async () => {
      const { frames, body } = await run(retractHead);
      if (protocol === "vendor_a.chat") expect(body).toMatchObject({ choices: [{ finish_reason: "content_filter" }] });
      else expect(framesOf(frames).at(-1)?.event).toBe("error");
    });
  });

  it("corrects the finish reason of a chat choice whose only call was dropped, keeping the other choice's call", async () => {
    const choice = (index: number, delta: Record<string, unknown>, finish: string | null = null) =>
      sse(undefined, { id: "chatcmpl-n2", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index, delta, finish_reason: finish }] });
    const stream = [
      choice(0, { role: "assistant", content: "" }),
      choice(1, { role: "assistant", content: "" }),
      choice(0, { tool_calls: [{ index: 0, id: "call_bad", type: "function", function: { name: "bash", arguments: '{"command":"BLOCKME"}' } }] }),
      choice(1, { tool_calls: [{ index: 0, id: "call_ok", type: "function", function: { name: "ls", arguments: '{"path":"."}' } }] }),
      choice(0, {}, "tool_calls"),
      choice(1, {}, "tool_calls"),
      sse(undefined, "[DONE]"),
    ];
    const answer = await send(evaluateUrl(true), streamHeaders("vendor_a.chat", { "guard-head-release-bytes": "0" }), stream);
    const { frames, verdict } = splitVerdict(answer.body);
    expect(verdict).toMatchObject({ decision: "block" });
    expect(frames).not.toContain("BLOCKME");
    const body = reassemble("vendor_a.chat", frames) as { choices: { finish_reason: string; message: Record<string, unknown> }[] };
    expect(body.choices[0]?.finish_reason).toBe("stop");
    expect(body.choices[0]?.message["tool_calls"]).toBeUndefined();
    expect(String(body.choices[0]?.message["content"])).toMatch(/^Guard refused this step/);
    expect(body.choices[1]).toMatchObject({ finish_reason: "tool_calls", message: { tool_calls: [{ id: "call_ok" }] } });
    const json = await post(
      guard.url,
      "/v1/evaluate?payload=true",
      { kind: "step/response", step_id: "json-n2", agent_id: "stream-agent", agent_type: "", agent_workspace: "", agent_user: "", llm_protocol: "vendor_a.chat", payload: reassemble("vendor_a.chat", stream.join("")) },
      KEY,
    );
    expect(body).toEqual(json.body["payload"]);
  });

  it("renumbers the chat calls after a dropped one, so the stream has no gap in tool_calls indices", async () => {
    const stream = [
      chunk({ role: "assistant", content: "" }),
      chunk({ tool_calls: [{ index: 0, id: "call_bad", type: "function", function: { name: "bash", arguments: '{"command":"BLOCKME"}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: "call_ok", type: "function", function: { name: "ls", arguments: "" } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{"path":"."}' } }] }),
      chunk({}, "tool_calls"),
      sse(undefined, "[DONE]"),
    ];
    const answer = await send(evaluateUrl(true), streamHeaders("vendor_a.chat", { "guard-head-release-bytes": "0" }), stream);
    const { frames, verdict } = splitVerdict(answer.body);
    expect(verdict).toMatchObject({ decision: "block" });
    const indices = framesOf(frames).flatMap((f) =>
      f.data === "[DONE]" ? [] : ((JSON.parse(f.data) as { choices: { delta: { tool_calls?: { index: number }[] } }[] }).choices[0]?.delta.tool_calls ?? []).map((c) => c.index),
    );
    expect(indices).toEqual([0, 0]);
    expect(reassemble("vendor_a.chat", frames)).toMatchObject({
      choices: [{ finish_reason: "tool_calls", message: { tool_calls: [{ id: "call_ok", function: { arguments: '{"path":"."}' } }] } }],
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
