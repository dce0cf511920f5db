import { describe, expect, it } from "vitest";
import { HeadRelease } from "../../../src/stream/head-release.js";
import { createReassembler } from "../../../src/stream/reassembler.js";
import { SseError } from "../../../src/stream/sse-error.js";
import { DEFAULT_MAX_LINE_BYTES, SseParser } from "../../../src/stream/sse-parser.js";
import type { StreamProtocol } from "../../../src/stream/types.js";
import { dataFrame, parseChunks, randomChunks } from "./helpers.js";

/**
 * Hostile input. The documented promise: the parser throws `SseError` and nothing else
 * (line or frame too long, use after failure or end); the reassemblers and the head release
 * never throw on any frame; memory stays bounded by the configured limits.
 */

const PROTOCOLS: StreamProtocol[] = ["vendor_a.chat", "vendor_b.messages"];
const MiB = 1024 * 1024;

/** SSE syntax, frame fragments and odd bytes: random sequences of these hit every parser path. */
const TOKENS: Uint8Array[] = [
  "data: ",
  "data:",
  "data",
  "event: ",
  "event: error",
  "id: 1",
  "retry: 5",
  ": comment",
  "\n",
  "\n",
  "\n\n",
  "\r\n",
  "\r",
  "[DONE]",
  "{",
  "}",
  "]",
  '"',
  "\u00e9\u{1F30D}",
  "\uFEFF",
  '{"type":"message_start","message":{"content":[]}}',
  '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"n","input":{}}}',
  '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"',
  '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"a',
  '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}',
  '{"choices":[{"index":0,"delta":{"role":"assistant","content":"',
  '{"choices":[{"index":1,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"arguments":"{',
  '{"choices":[],"usage":{"total_tokens":3}}',
].map((t) => Buffer.from(t));

/** Deterministic garbage built from TOKENS and raw bytes (xorshift), so failures reproduce. */
function garbage(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed >>> 0 || 1;
  for (let at = 0; at < length; ) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const r = state >>> 0;
    const token = r % 5 === 0 ? Uint8Array.of((r >>> 8) & 0xff) : TOKENS[(r >>> 8) % TOKENS.length];
    if (token === undefined) continue;
    out.set(token.subarray(0, length - at), at);
    at += token.length;
  }
  return out;
}

describe("garbage", () => {
  it.each([1, 2, 3, 4, 5])(
    "random bytes (seed %i) parse, reassemble and release without throwing",
    (seed) => {
      const frames = parseChunks(randomChunks(garbage(200_000, seed), seed, 97), { maxLineBytes: 4096 });
      expect(frames.length).toBeGreaterThan(20);
      for (const protocol of PROTOCOLS) {
        const reassembler = createReassembler(protocol);
        const head = new HeadRelease(32);
        for (const frame of frames) head.offer(reassembler.push(frame));
        const result = reassembler.finish();
        expect(typeof result.ignoredFrames).toBe("number");
        expect(() => JSON.stringify(result.body)).not.toThrow();
      }
    },
  );

  it("a line over the limit in random bytes is the typed error, never another", () => {
    const parser = new SseParser({ maxLineBytes: 64 });
    let thrown: unknown;
    try {
      for (const chunk of randomChunks(
        garbage(100_000, 9).filter((b) => b !== 10 && b !== 13),
        9,
      ))
        parser.push(chunk);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SseError);
  });

  const WRONG_SHAPES: unknown[] = [
    "not json at all",
    "",
    "{",
    "[1,2,3]",
    "42",
    "null",
    '"string"',
    { choices: "nope" },
    { choices: [null, 5, "x", { delta: 5 }, { delta: { tool_calls: {} } }] },
    { choices: [{ index: -1, delta: { content: 5, tool_calls: [null, { index: 1e300, function: "f" }] } }] },
    {
      choices: [
        { index: "0", delta: { tool_calls: [{ index: 0.5, function: { name: 7, arguments: {} } }] } },
      ],
    },
    { choices: [{ delta: { role: 1, refusal: [], audio: [], annotations: "x" }, logprobs: "x" }] },
    { choices: [], usage: "lots" },
    { type: "message_start", message: "x" },
    { type: "content_block_start", index: "0", content_block: { type: "text" } },
    { type: "content_block_start", index: 0, content_block: null },
    { type: "content_block_start", index: 1, content_block: { type: "text", text: 5 } },
    { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: null } },
    { type: "content_block_delta", index: 1, delta: "text" },
    { type: "content_block_delta", delta: { type: "citations_delta", citation: 4 } },
    { type: "message_delta", delta: [1], usage: [2] },
    { type: "message_delta", delta: { __proto__: null, constructor: 1 }, usage: { output_tokens: null } },
    { type: 12 },
    { error: null },
  ];

  it.each(PROTOCOLS)("%s: frames of every wrong shape are absorbed and counted", (protocol) => {
    const reassembler = createReassembler(protocol);
    for (const data of WRONG_SHAPES) expect(() => reassembler.push(dataFrame(data))).not.toThrow();
    for (const event of ["error", "ping", "", "message_stop"]) {
      expect(() => reassembler.push(dataFrame("{}", event))).not.toThrow();
    }
    const result = reassembler.finish();
    expect(result.ignoredFrames).toBeGreaterThan(0);
    expect(({} as Record<string, unknown>).constructor).toBe(Object);
  });

  it.each(PROTOCOLS)("%s: deeply nested JSON does not overflow the stack", (protocol) => {
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    const reassembler = createReassembler(protocol);
    const wrapped =
      protocol === "vendor_a.chat"
        ? `{"choices":[{"index":0,"delta":{"content":"x"},"logprobs":{"content":${deep}}}]}`
        : `{"type":"content_block_start","index":0,"content_block":{"type":"web_search_tool_result","content":${deep}}}`;
    expect(() => reassembler.push(dataFrame(wrapped))).not.toThrow();
    expect(() => reassembler.finish()).not.toThrow();
  });
});

describe("size limits keep memory bounded", () => {
  it("a 50 MB line fed in 1 MiB chunks fails at the limit, having buffered at most the limit", () => {
    const parser = new SseParser();
    const chunk = new Uint8Array(MiB).fill(0x61);
    chunk.set(Buffer.from("data: "));
    let pushed = 0;
    let thrown: unknown;
    try {
      for (; pushed < 50; pushed++) {
        parser.push(chunk);
        expect(parser.bufferedBytes).toBeLessThanOrEqual(DEFAULT_MAX_LINE_BYTES);
      }
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SseError);
    expect(thrown).toMatchObject({ code: "line_too_long", limitBytes: DEFAULT_MAX_LINE_BYTES });
    // 8 chunks make exactly 8 MiB (allowed); the 9th crosses the limit and is never copied.
    expect(pushed).toBe(8);
    expect(() => parser.push(chunk)).toThrowError(expect.objectContaining({ code: "closed" }));
  });

  it("a 50 MB line in one chunk fails without being copied", () => {
    const huge = new Uint8Array(50 * MiB).fill(0x61);
    const parser = new SseParser();
    const before = process.memoryUsage().arrayBuffers;
    expect(() => parser.push(huge)).toThrowError(expect.objectContaining({ code: "line_too_long" }));
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * MiB);
    expect(parser.bufferedBytes).toBe(0);
  });

  it("a 50 MB frame of short lines fails at the frame limit", () => {
    const parser = new SseParser();
    const line = Buffer.from(`data: ${"z".repeat(1000)}\n`.repeat(1000));
    let thrown: unknown;
    try {
      for (let i = 0; i < 50; i++) parser.push(line);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: "frame_too_long" });
  });

  it("an endless run of keepalive comments fails at the frame limit instead of growing", () => {
    const parser = new SseParser({ maxFrameBytes: 1000 });
    const pings = Buffer.from(": ping\n\n".repeat(200));
    expect(() => parser.push(pings)).toThrowError(expect.objectContaining({ code: "frame_too_long" }));
  });

  it("1-byte chunks of a 500 kB frame take linear time", () => {
    const text = `data: ${"\u00e9".repeat(250_000)}\n\n`;
    const bytes = Buffer.from(text);
    const parser = new SseParser();
    const started = Date.now();
    for (let i = 0; i < bytes.length; i++) parser.push(bytes.subarray(i, i + 1));
    const frames = parser.end();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(frames).toEqual([]);
  });
});

describe("frames after the end marker", () => {
  it("vendor_a.chat: everything after [DONE] is ignored and held", () => {
    const reassembler = createReassembler("vendor_a.chat");
    reassembler.push(dataFrame({ choices: [{ index: 0, delta: { role: "assistant", content: "ok" } }] }));
    reassembler.push(dataFrame("[DONE]"));
    const before = reassembler.finish();
    for (let i = 0; i < 1000; i++) {
      const info = reassembler.push(dataFrame({ choices: [{ index: 0, delta: { content: "more" } }] }));
      expect(info.mustHold).toBe(true);
    }
    const after = reassembler.finish();
    expect(after.body).toEqual(before.body);
    expect(after.ignoredFrames).toBe(1000);
  });

  it("vendor_b.messages: everything after message_stop is ignored and held", () => {
    const reassembler = createReassembler("vendor_b.messages");
    reassembler.push(dataFrame({ type: "message_stop" }));
    const info = reassembler.push(
      dataFrame({ type: "content_block_start", index: 0, content_block: { type: "text" } }),
    );
    expect(info.mustHold).toBe(true);
    expect(reassembler.finish()).toMatchObject({ done: true, ignoredFrames: 1, body: { content: [] } });
  });
});
