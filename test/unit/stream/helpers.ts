import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { HeadRelease, type ReleaseState } from "../../../src/stream/head-release.js";
import { createReassembler } from "../../../src/stream/reassembler.js";
import { type SseFrame, SseParser, type SseParserOptions } from "../../../src/stream/sse-parser.js";
import type { FrameInfo, ReassembledResponse, StreamProtocol } from "../../../src/stream/types.js";

/** Wire samples copied into the repository (test/fixtures/wire), never read from outside it. */
export const WIRE = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "fixtures", "wire");

export function wireBytes(folder: string, file: string): Buffer {
  return readFileSync(join(WIRE, folder, file));
}

export function wireJson(folder: string, file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(WIRE, folder, file), "utf8")) as Record<string, unknown>;
}

export interface StreamSample {
  readonly folder: string;
  readonly file: string;
  /** The protocol to reassemble with; undefined for streams only parsed (Responses API). */
  readonly protocol: StreamProtocol | undefined;
}

const PROTOCOL_OF: Record<string, StreamProtocol | undefined> = {
  "openai-chat": "vendor_a.chat",
  anthropic: "vendor_b.messages",
  "openai-responses": undefined,
};

/** Every `.sse` stream sample in the fixtures. */
export function streamSamples(): StreamSample[] {
  const out: StreamSample[] = [];
  for (const folder of Object.keys(PROTOCOL_OF)) {
    for (const file of readdirSync(join(WIRE, folder)).sort()) {
      if (file.endsWith(".sse")) out.push({ folder, file, protocol: PROTOCOL_OF[folder] });
    }
  }
  return out;
}

/** Splits `bytes` into chunks of `size` (0 = one chunk). */
export function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
  if (size <= 0) return [bytes];
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

/** Deterministic chunk sizes 1..max (xorshift), so a failure reproduces. */
export function randomChunks(bytes: Uint8Array, seed: number, max = 64): Uint8Array[] {
  let state = seed >>> 0 || 1;
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const size = 1 + ((state >>> 0) % max);
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

/** Parses a whole stream delivered in the given chunks. */
export function parseChunks(chunks: Uint8Array[], options?: SseParserOptions): SseFrame[] {
  const parser = new SseParser(options);
  const frames: SseFrame[] = [];
  for (const chunk of chunks) frames.push(...parser.push(chunk));
  frames.push(...parser.end());
  return frames;
}

export interface Run {
  readonly frames: SseFrame[];
  readonly infos: FrameInfo[];
  readonly result: ReassembledResponse;
}

export function reassemble(protocol: StreamProtocol, frames: SseFrame[]): Run {
  const reassembler = createReassembler(protocol);
  const infos = frames.map((frame) => reassembler.push(frame));
  return { frames, infos, result: reassembler.finish() };
}

export function runSample(sample: StreamSample, chunkSize = 0): Run {
  const frames = parseChunks(chunked(wireBytes(sample.folder, sample.file), chunkSize));
  return reassemble(sample.protocol ?? "vendor_a.chat", frames);
}

/** Offers every frame to a head release; returns what went out and the final state. */
export function release(infos: FrameInfo[], budget: number): { released: number; state: ReleaseState } {
  const head = new HeadRelease(budget);
  let released = 0;
  for (const info of infos) if (head.offer(info)) released++;
  return { released, state: head.state };
}

/**
 * The OpenAPI document's chunk listings (.txt) print one chunk object per line, without
 * `data: ` framing and with a literal "...." elision: framed here as the wire would carry them.
 */
export function frameDocListing(text: string): Uint8Array {
  const lines = text.split("\n").filter((line) => line.startsWith("{"));
  return Buffer.from(lines.map((line) => `data: ${line}\n\n`).join(""), "utf8");
}

type Rec = Record<string, unknown>;
const rec = (value: unknown): Rec => (typeof value === "object" && value !== null ? (value as Rec) : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The semantic content of a response body: what is judged, not ids or timestamps. */
export interface Semantic {
  readonly text: string[];
  readonly refusal: string[];
  readonly reasoning: string[];
  readonly toolCalls: { name: string; arguments: unknown }[];
  readonly finish: unknown[];
  readonly usage: unknown;
}

export function semanticOf(protocol: StreamProtocol, body: Rec): Semantic {
  if (protocol === "vendor_a.chat") {
    const choices = list(body.choices).map(rec);
    const messages = choices.map((choice) => rec(choice.message));
    return {
      text: messages.map((m) => (typeof m.content === "string" ? m.content : "")),
      refusal: messages.map((m) => (typeof m.refusal === "string" ? m.refusal : "")),
      reasoning: [],
      toolCalls: messages.flatMap((m) =>
        list(m.tool_calls).map((call) => {
          const fn = rec(rec(call).function);
          return { name: String(fn.name), arguments: JSON.parse(String(fn.arguments)) as unknown };
        }),
      ),
      finish: choices.map((choice) => choice.finish_reason),
      usage: body.usage,
    };
  }
  const blocks = list(body.content).map(rec);
  return {
    text: blocks.filter((b) => b.type === "text").map((b) => String(b.text)),
    refusal: [],
    reasoning: blocks.filter((b) => b.type === "thinking").map((b) => String(b.thinking)),
    toolCalls: blocks
      .filter((b) => b.type === "tool_use" || b.type === "server_tool_use")
      .map((b) => ({ name: String(b.name), arguments: b.input })),
    finish: [body.stop_reason],
    usage: body.usage,
  };
}

/** A frame as the parser would emit it for `data` (objects are serialised). */
export function dataFrame(data: unknown, event = "message"): SseFrame {
  const text = typeof data === "string" ? data : JSON.stringify(data);
  const head = event === "message" ? "" : `event: ${event}\n`;
  return { event, data: text, raw: `${head}data: ${text}\n\n` };
}
