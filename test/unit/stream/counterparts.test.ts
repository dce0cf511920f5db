import { describe, expect, it } from "vitest";
import { EventKind, LlmProtocol } from "../../../gen/guard/v1/types_pb.js";
import { decompose } from "../../../src/decompose/decompose.js";
import type { StreamProtocol } from "../../../src/stream/types.js";
import { runSample, semanticOf, wireJson } from "./helpers.js";

/**
 * Streams that have a non-streamed counterpart: the same request recorded once streamed and
 * once not (wire/SOURCES.md; the model answered identically both times). The reassembled
 * body must equal the counterpart in shape and content, identifiers aside (each recording
 * is its own API call), and decompose to the same canonical response.
 *
 * Other streams and responses share a case but not an exchange (different answers, different
 * token counts); for those only the shape is compared, and the difference is pinned so that
 * nobody mistakes them for counterparts.
 */

interface Pair {
  readonly folder: string;
  readonly stream: string;
  readonly response: string;
  readonly protocol: StreamProtocol;
}

const SAME_EXCHANGE: Pair[] = [
  {
    folder: "openai-chat",
    stream: "stream-finish_reason-length.sse",
    response: "resp-finish_reason-length.json",
    protocol: "vendor_a.chat",
  },
  {
    folder: "openai-chat",
    stream: "stream-tool_call-argument-deltas.sse",
    response: "resp-tool_call-recorded.json",
    protocol: "vendor_a.chat",
  },
  {
    folder: "openai-chat",
    stream: "stream-parallel-tool_calls-index0-index1.sse",
    response: "resp-parallel-tool_calls-recorded.json",
    protocol: "vendor_a.chat",
  },
  {
    folder: "anthropic",
    stream: "stream-recorded-tool_use-input_json_delta.sse",
    response: "resp-tool_use-stop_reason.json",
    protocol: "vendor_b.messages",
  },
];

const SAME_CASE_ONLY: Pair[] = [
  {
    folder: "openai-chat",
    stream: "stream-refusal-structured-output.sse",
    response: "resp-refusal.json",
    protocol: "vendor_a.chat",
  },
  {
    folder: "openai-chat",
    stream: "stream-text-basic-usage-chunk.sse",
    response: "resp-plain-text-recorded.json",
    protocol: "vendor_a.chat",
  },
  {
    folder: "anthropic",
    stream: "stream-recorded-text-after-tool_result.sse",
    response: "resp-end_turn-after-tool_result.json",
    protocol: "vendor_b.messages",
  },
];

/** Identifiers and timestamps that differ between two recordings of one request. */
const PER_CALL = new Set(["id", "created", "system_fingerprint"]);

/** A deep copy with per-call identifiers replaced by a marker. */
function masked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(masked);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = PER_CALL.has(key) ? "<per-call>" : masked(item);
  return out;
}

/** Every key path of a JSON value, array positions collapsed: the shape without content. */
function shape(value: unknown, prefix = "", out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) shape(item, `${prefix}[]`, out);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      out.add(`${prefix}.${key}`);
      shape(item, `${prefix}.${key}`, out);
    }
  }
  return out;
}

const LLM: Record<StreamProtocol, LlmProtocol> = {
  "vendor_a.chat": LlmProtocol.VENDOR_A_CHAT,
  "vendor_b.messages": LlmProtocol.VENDOR_B_MESSAGES,
};

/** The canonical response the pipeline judges, without byte offsets (the bodies differ in ids). */
function canonical(protocol: StreamProtocol, body: unknown) {
  const out = decompose(EventKind.STEP_RESPONSE, LLM[protocol], body);
  return {
    segments: out.segments.map((s) => ({ path: s.path, channel: s.channel, text: s.text, tool: s.toolName })),
    toolCalls: out.toolCalls.map((t) => ({
      name: t.name,
      path: t.path,
      arguments: JSON.parse(t.argumentsJson || "null") as unknown,
      valid: t.argumentsValid,
    })),
    finishReason: out.finishReason,
    model: out.model,
    usage: out.usage,
    unjudged: out.unjudged,
  };
}

describe.each(SAME_EXCHANGE.map((p) => [`${p.folder}/${p.stream}`, p] as const))("%s", (_name, pair) => {
  const streamed = runSample({ folder: pair.folder, file: pair.stream, protocol: pair.protocol }).result.body;
  const plain = wireJson(pair.folder, pair.response);

  it(`has the semantic content of ${pair.response}`, () => {
    expect(semanticOf(pair.protocol, streamed)).toEqual(semanticOf(pair.protocol, plain));
  });

  it("has its exact body, per-call identifiers aside", () => {
    expect(masked(streamed)).toEqual(masked(plain));
  });

  it("decomposes to the same canonical response", () => {
    const fromStream = canonical(pair.protocol, streamed);
    expect(fromStream).toEqual(canonical(pair.protocol, plain));
    expect(fromStream.toolCalls.length + fromStream.segments.length).toBeGreaterThan(0);
  });
});

describe.each(SAME_CASE_ONLY.map((p) => [`${p.folder}/${p.stream}`, p] as const))("%s", (_name, pair) => {
  const streamed = runSample({ folder: pair.folder, file: pair.stream, protocol: pair.protocol }).result.body;
  const plain = wireJson(pair.folder, pair.response);

  it(`has the shape of ${pair.response}, a different exchange of the same case`, () => {
    expect([...shape(streamed)].sort()).toEqual([...shape(plain)].sort());
    expect(semanticOf(pair.protocol, streamed).usage).not.toEqual(semanticOf(pair.protocol, plain).usage);
  });
});
