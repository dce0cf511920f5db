import { describe, expect, it } from "vitest";
import { VendorBMessagesReassembler } from "../../../src/stream/reassemble-vendor-b-messages.js";
import { dataFrame } from "./helpers.js";

type Frame = ReturnType<typeof dataFrame>;
const ev = (payload: Record<string, unknown>): Frame => dataFrame(payload, String(payload.type));
const start = (usage: Record<string, unknown> = { input_tokens: 10, output_tokens: 1 }) =>
  ev({
    type: "message_start",
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      content: [],
      model: "m",
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  });
const blockStart = (index: number, block: Record<string, unknown>) =>
  ev({ type: "content_block_start", index, content_block: block });
const blockDelta = (index: number, delta: Record<string, unknown>) =>
  ev({ type: "content_block_delta", index, delta });
const blockStop = (index: number) => ev({ type: "content_block_stop", index });
const text = (index: number, t: string) => blockDelta(index, { type: "text_delta", text: t });
const json = (index: number, partial: string) =>
  blockDelta(index, { type: "input_json_delta", partial_json: partial });
const messageDelta = (delta: Record<string, unknown>, usage?: Record<string, unknown>) =>
  ev({ type: "message_delta", delta, ...(usage ? { usage } : {}) });
const STOP = ev({ type: "message_stop" });
const PING = ev({ type: "ping" });

function run(frames: Frame[]) {
  const r = new VendorBMessagesReassembler();
  const infos = frames.map((f) => r.push(f));
  return { infos, result: r.finish() };
}

describe("vendor_b.messages reassembly", () => {
  it("builds text and tool_use blocks, stop reason and merged usage", () => {
    const { result } = run([
      start({ input_tokens: 10, cache_read_input_tokens: 4, output_tokens: 1 }),
      blockStart(0, { type: "text", text: "" }),
      PING,
      text(0, "Let me "),
      text(0, "look."),
      blockStop(0),
      blockStart(1, { type: "tool_use", id: "toolu_1", name: "get", input: {} }),
      json(1, ""),
      json(1, '{"q": "caf'),
      json(1, '\u00e9"}'),
      blockStop(1),
      messageDelta(
        { stop_reason: "tool_use", stop_sequence: null },
        { output_tokens: 30, input_tokens: null },
      ),
      STOP,
    ]);
    expect(result.done).toBe(true);
    expect(result.body).toEqual({
      id: "msg_1",
      type: "message",
      role: "assistant",
      content: [
        { type: "text", text: "Let me look." },
        { type: "tool_use", id: "toolu_1", name: "get", input: { q: "caf\u00e9" } },
      ],
      model: "m",
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 10, cache_read_input_tokens: 4, output_tokens: 30 },
    });
  });

  it("keeps thinking with the last signature, citations, and blocks that arrive whole", () => {
    const citation = {
      type: "web_search_result_location",
      cited_text: "sunny",
      url: "https://x",
      title: "X",
    };
    const { result } = run([
      start(),
      blockStart(0, { type: "thinking", thinking: "", signature: "" }),
      blockDelta(0, { type: "thinking_delta", thinking: "hmm" }),
      blockDelta(0, { type: "signature_delta", signature: "sig-1" }),
      blockDelta(0, { type: "signature_delta", signature: "sig-2" }),
      blockStop(0),
      blockStart(1, { type: "redacted_thinking", data: "opaque" }),
      blockStop(1),
      blockStart(2, { type: "server_tool_use", id: "srv_1", name: "web_search", input: {} }),
      json(2, '{"query":"weather"}'),
      blockStop(2),
      blockStart(3, {
        type: "web_search_tool_result",
        tool_use_id: "srv_1",
        content: [{ type: "web_search_result" }],
      }),
      blockStop(3),
      blockStart(4, { type: "text", text: "", citations: [] }),
      blockDelta(4, { type: "citations_delta", citation }),
      text(4, "It is sunny."),
      blockStop(4),
      STOP,
    ]);
    expect(result.body.content).toEqual([
      { type: "thinking", thinking: "hmm", signature: "sig-2" },
      { type: "redacted_thinking", data: "opaque" },
      { type: "server_tool_use", id: "srv_1", name: "web_search", input: { query: "weather" } },
      { type: "web_search_tool_result", tool_use_id: "srv_1", content: [{ type: "web_search_result" }] },
      { type: "text", text: "It is sunny.", citations: [citation] },
    ]);
    expect(result.ignoredFrames).toBe(0);
  });

  it("leaves input {} and reports the raw text when tool JSON was cut by max_tokens", () => {
    const { result } = run([
      start(),
      blockStart(0, { type: "tool_use", id: "t", name: "write", input: {} }),
      json(0, '{"path": "a.txt", "text": "unfini'),
      messageDelta({ stop_reason: "max_tokens" }),
      STOP,
    ]);
    expect(result.body.content).toEqual([{ type: "tool_use", id: "t", name: "write", input: {} }]);
    expect(result.truncatedToolInput).toEqual(['{"path": "a.txt", "text": "unfini']);
  });

  it("treats empty or whitespace tool JSON as a call without arguments, and non-objects as unparsable", () => {
    const { result } = run([
      start(),
      blockStart(0, { type: "tool_use", id: "a", name: "noargs", input: {} }),
      json(0, ""),
      json(0, " "),
      blockStart(1, { type: "tool_use", id: "b", name: "list", input: {} }),
      json(1, "[1,2]"),
    ]);
    expect((result.body.content as { input: unknown }[]).map((b) => b.input)).toEqual([{}, {}]);
    expect(result.truncatedToolInput).toEqual(["[1,2]"]);
  });

  it("reports an error event as a stream error, not done", () => {
    const { infos, result } = run([
      start(),
      blockStart(0, { type: "text", text: "" }),
      text(0, "Hel"),
      ev({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
    ]);
    expect(result.error).toEqual({ type: "overloaded_error", message: "Overloaded" });
    expect(result.done).toBe(false);
    expect(result.body.content).toEqual([{ type: "text", text: "Hel" }]);
    expect(infos[3]).toMatchObject({ terminal: true, mustHold: true });
  });

  it("reads the kind from the payload even when the event field is missing", () => {
    const strip = (frame: Frame): Frame => ({ ...frame, event: "message" });
    const { result } = run(
      [start(), blockStart(0, { type: "text", text: "" }), text(0, "x"), STOP].map(strip),
    );
    expect(result.body.content).toEqual([{ type: "text", text: "x" }]);
    expect(result.done).toBe(true);
  });

  it("ignores what cannot be placed: unknown events and deltas, unknown blocks, repeats, late frames", () => {
    const { infos, result } = run([
      start(),
      start(),
      ev({ type: "future_event" }),
      blockStart(0, { type: "text", text: "" }),
      blockStart(0, { type: "text", text: "replaced?" }),
      blockDelta(0, { type: "shiny_new_delta", text: "?" }),
      text(5, "orphan"),
      blockDelta(0, { type: "input_json_delta", partial_json: "{}" }),
      blockStop(9),
      text(0, "kept"),
      STOP,
      text(0, " late"),
    ]);
    expect(result.body.content).toEqual([{ type: "text", text: "kept" }]);
    expect(result.ignoredFrames).toBe(8);
    // The orphan delta is still visible text to a client: counted, and held.
    expect(infos[6]).toMatchObject({ contentBytes: 6, mustHold: true });
    expect(infos[11]).toMatchObject({ mustHold: true });
  });

  it("keeps a provider key named __proto__ an ordinary property", () => {
    const { result } = run([
      start(),
      dataFrame('{"type":"message_delta","delta":{"__proto__":{"polluted":true}}}'),
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result.body)).toBe(Object.prototype);
    expect(Object.hasOwn(result.body, "__proto__")).toBe(true);
  });

  it("builds a body even without message_start", () => {
    const { result } = run([blockStart(0, { type: "text", text: "" }), text(0, "x")]);
    expect(result.body).toEqual({
      type: "message",
      role: "assistant",
      content: [{ type: "text", text: "x" }],
    });
  });
});

describe("vendor_b.messages frame info", () => {
  it("counts content bytes and marks openings, announcements and frames to hold", () => {
    const search = blockStart(3, { type: "web_search_tool_result", tool_use_id: "s", content: [] });
    const { infos } = run([
      start(),
      blockStart(0, { type: "thinking", thinking: "", signature: "" }),
      blockDelta(0, { type: "thinking_delta", thinking: "\u00e9t\u00e9" }),
      blockDelta(0, { type: "signature_delta", signature: "abc" }),
      blockStop(0),
      blockStart(1, { type: "text", text: "" }),
      text(1, "Hi \u{1F30D}"),
      PING,
      blockStop(1),
      blockStart(2, { type: "tool_use", id: "t", name: "f", input: {} }),
      json(2, '{"a":1}'),
      blockStop(2),
      search,
      messageDelta({ stop_reason: "tool_use" }),
      STOP,
    ]);
    const zero = {
      contentBytes: 0,
      toolBytes: 0,
      announcesTool: false,
      opening: false,
      mustHold: false,
      terminal: false,
    };
    expect(infos).toEqual([
      { ...zero, opening: true },
      { ...zero, opening: true },
      { ...zero, contentBytes: 5 },
      zero,
      zero,
      { ...zero, opening: true },
      { ...zero, contentBytes: 7 },
      zero,
      zero,
      { ...zero, announcesTool: true },
      { ...zero, contentBytes: 7, toolBytes: 7 },
      { ...zero, mustHold: true },
      { ...zero, contentBytes: Buffer.byteLength(search.data) },
      { ...zero, mustHold: true },
      { ...zero, mustHold: true, terminal: true },
    ]);
  });
});
