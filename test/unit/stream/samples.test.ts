import { describe, expect, it } from "vitest";
import {
  chunked,
  frameDocListing,
  parseChunks,
  randomChunks,
  reassemble,
  runSample,
  type Semantic,
  semanticOf,
  streamSamples,
  wireBytes,
} from "./helpers.js";

/**
 * Every stream sample of ../shared/wire (copied to test/fixtures/wire) parses, reassembles
 * to the content it carries, and gives the same frames and the same body however the bytes
 * are cut into chunks or whichever line ending the sender used.
 */

const SAMPLES = streamSamples();
const REASSEMBLED = SAMPLES.filter((s) => s.protocol !== undefined);

const weather = (city: string, units: string) =>
  `{"city":"San Francisco","temperature":${city},"units":"${units}"}`;

/** What each sample says, transcribed from the sample by hand. */
const EXPECTED: Record<
  string,
  Partial<Semantic> & { done?: boolean; error?: unknown; truncated?: string[] }
> = {
  "openai-chat/stream-content-logprobs-include_usage.sse": {
    text: ['{"city":"San Francisco","units":"f"}'],
    finish: ["stop"],
    usage: { prompt_tokens: 17, completion_tokens: 10, total_tokens: 27 },
  },
  "openai-chat/stream-finish_reason-length.sse": { text: ['{"'], finish: ["length"] },
  "openai-chat/stream-leading-newline-content.sse": {
    text: ['\n\n{"city":"San Francisco","units":"c"}'],
    finish: ["stop"],
  },
  "openai-chat/stream-n3-multiple-choices.sse": {
    text: [weather("65", "f"), weather("61", "f"), weather("59", "f")],
    finish: ["stop", "stop", "stop"],
    usage: {
      prompt_tokens: 79,
      completion_tokens: 42,
      total_tokens: 121,
      completion_tokens_details: { reasoning_tokens: 0 },
    },
  },
  "openai-chat/stream-parallel-tool_calls-index0-index1.sse": {
    text: [""],
    toolCalls: [
      { name: "GetWeatherArgs", arguments: { city: "Edinburgh", country: "GB", units: "c" } },
      { name: "get_stock_price", arguments: { ticker: "AAPL", exchange: "NASDAQ" } },
    ],
    finish: ["tool_calls"],
  },
  "openai-chat/stream-refusal-deltas.sse": {
    text: [""],
    refusal: ["I'm very sorry, but I can't assist with that request."],
    finish: ["stop"],
  },
  "openai-chat/stream-refusal-structured-output.sse": {
    refusal: ["I'm sorry, I can't assist with that request."],
    finish: ["stop"],
  },
  "openai-chat/stream-text-basic-usage-chunk.sse": {
    text: [
      "I'm unable to provide real-time weather updates. To get the current weather in San Francisco, I recommend checking a reliable weather website or a weather app.",
    ],
    finish: ["stop"],
    usage: {
      prompt_tokens: 14,
      completion_tokens: 30,
      total_tokens: 44,
      completion_tokens_details: { reasoning_tokens: 0 },
    },
  },
  "openai-chat/stream-tool_call-argument-deltas.sse": {
    toolCalls: [{ name: "GetWeatherArgs", arguments: { city: "Edinburgh", country: "UK", units: "c" } }],
    finish: ["tool_calls"],
  },
  "openai-chat/stream-tool_call-strict.sse": {
    toolCalls: [{ name: "get_weather", arguments: { city: "San Francisco", state: "CA" } }],
    finish: ["tool_calls"],
  },
  "anthropic/stream-basic-ping.sse": {
    text: ["Hello there!"],
    finish: ["end_turn"],
    usage: { input_tokens: 11, output_tokens: 6 },
  },
  "anthropic/stream-docs-basic-text.sse": { text: ["Hello!"], finish: ["end_turn"] },
  "anthropic/stream-docs-error-overloaded.sse": {
    text: [],
    done: false,
    error: { type: "overloaded_error", message: "Overloaded" },
  },
  "anthropic/stream-docs-text-then-tool_use.sse": {
    text: ["Okay, let's check the weather for San Francisco, CA:"],
    toolCalls: [{ name: "get_weather", arguments: { location: "San Francisco, CA" } }],
    finish: ["tool_use"],
    usage: { input_tokens: 472, output_tokens: 89 },
  },
  "anthropic/stream-docs-thinking-signature_delta.sse": {
    text: ["The greatest common divisor of 1071 and 462 is **21**."],
    reasoning: [
      "I need to find the GCD of 1071 and 462 using the Euclidean algorithm.\n\n1071 = 2 \u00d7 462 + 147\n462 = 3 \u00d7 147 + 21\n147 = 7 \u00d7 21 + 0\nThe remainder is 0, so GCD(1071, 462) = 21.",
    ],
    finish: ["end_turn"],
    usage: undefined,
  },
  "anthropic/stream-max_tokens-truncated-tool-json.sse": {
    toolCalls: [{ name: "make_file", arguments: {} }],
    finish: ["max_tokens"],
    truncated: [
      '{"filename": "taxes.txt", "lines_of_text": [\n"# COMPREHENSIVE TAX GUIDE FOR INDIVIDUALS WITH MULTIPLE W-2s",\n"",\n"## INTRODUCTION",\n"",\n"Filing taxes',
    ],
  },
  "anthropic/stream-recorded-text-after-tool_result.sse": {
    text: [
      "The weather in San Francisco, CA is currently:\n- **Temperature:** 68\u00b0F\n- **Condition:** Sunny\n\nIt's a nice sunny day!",
    ],
    finish: ["end_turn"],
  },
  "anthropic/stream-recorded-tool_use-input_json_delta.sse": {
    text: [],
    toolCalls: [{ name: "get_weather", arguments: { location: "San Francisco, CA", units: "f" } }],
    finish: ["tool_use"],
  },
  "anthropic/stream-refusal-stop_details.sse": {
    text: [""],
    finish: ["refusal"],
    usage: { input_tokens: 20, output_tokens: 0 },
  },
  "anthropic/stream-server_tool_use-web_search-synthetic.sse": {
    text: ["Here's a summary of this year's solar eclipses and how"],
    toolCalls: [{ name: "web_search", arguments: { query: "solar eclipse viewing safety news 2026" } }],
    finish: ["refusal"],
  },
  "anthropic/stream-text-then-tool_use-input_json_delta.sse": {
    text: ["I'll check the current weather in Paris for you."],
    toolCalls: [{ name: "get_weather", arguments: { location: "Paris" } }],
    finish: ["tool_use"],
  },
  "anthropic/stream-thinking-signature_delta-synthetic.sse": {
    text: ["Hi"],
    reasoning: [
      'Simple educational question about what a solar eclipse is. This is benign general knowledge \u2014 definitions are fine. Also the user called me "claudius" \u2014 I\'m Claude. Minor correction or just roll with it politely.',
    ],
    finish: ["refusal"],
  },
};

describe("stream samples", () => {
  it("are all present in the fixtures (the full set of ../shared/wire)", () => {
    const reassembled = REASSEMBLED.map((s) => `${s.folder}/${s.file}`).sort();
    expect(reassembled).toEqual(Object.keys(EXPECTED).sort());
    expect(SAMPLES.filter((s) => s.folder === "openai-responses").map((s) => s.file)).toEqual([
      "stream-openapi-text.sse",
      "stream-sdk-reasoning-text.sse",
      "stream-sdk-text-sequence_number.sse",
    ]);
  });

  describe.each(SAMPLES.map((s) => [`${s.folder}/${s.file}`, s] as const))("%s", (_name, sample) => {
    const bytes = wireBytes(sample.folder, sample.file);

    it("parses into JSON frames whose raw text is the whole stream", () => {
      const frames = parseChunks([bytes]);
      expect(frames.length).toBeGreaterThan(0);
      for (const frame of frames.filter((f) => f.data !== "[DONE]"))
        expect(() => JSON.parse(frame.data)).not.toThrow();
      expect(frames.map((f) => f.raw).join("")).toBe(bytes.toString("utf8"));
    });

    it("gives identical frames in 1-byte, 7-byte, random and whole chunks", () => {
      const whole = parseChunks([bytes]);
      for (const size of [1, 7]) expect(parseChunks(chunked(bytes, size))).toEqual(whole);
      for (const seed of [1, 42, 2024]) expect(parseChunks(randomChunks(bytes, seed))).toEqual(whole);
    });

    it("gives the same events and data with CRLF or CR line endings", () => {
      const project = (text: string) =>
        parseChunks([Buffer.from(text)]).map(({ event, data }) => ({ event, data }));
      const text = bytes.toString("utf8");
      const lf = project(text);
      expect(project(text.replaceAll("\n", "\r\n"))).toEqual(lf);
      expect(project(text.replaceAll("\n", "\r"))).toEqual(lf);
    });
  });
});

describe.each(REASSEMBLED.map((s) => [`${s.folder}/${s.file}`, s] as const))(
  "reassembled %s",
  (name, sample) => {
    const protocol = sample.protocol ?? "vendor_a.chat";
    const expected = EXPECTED[name] ?? {};

    it("carries the sample's content, end marker, error and truncated input", () => {
      const { result } = runSample(sample);
      const { done = true, error, truncated, ...semantic } = expected;
      expect(semanticOf(protocol, result.body)).toMatchObject(semantic);
      expect(result.done).toBe(done);
      expect(result.error).toEqual(error);
      expect(result.truncatedToolInput).toEqual(truncated);
      expect(result.ignoredFrames).toBe(0);
    });

    it("reassembles identically from 1-byte, 7-byte and whole chunks", () => {
      const whole = runSample(sample);
      for (const size of [1, 7]) {
        const run = runSample(sample, size);
        expect(run.result).toEqual(whole.result);
        expect(run.infos).toEqual(whole.infos);
      }
    });

    it("can be finished again with the same answer (finish does not consume state)", () => {
      const frames = parseChunks([wireBytes(sample.folder, sample.file)]);
      const first = reassemble(protocol, frames).result;
      expect(reassemble(protocol, frames).result).toEqual(first);
    });
  },
);

describe("OpenAPI chunk listings (.txt: no data: framing, literal elision)", () => {
  it.each(["stream-openapi-doc-example.txt", "chunks-doc-example-with-elision.txt"])("%s", (file) => {
    const bytes = wireBytes("openai-chat", file);
    // As SSE the listing holds no data field at all: it parses, to nothing.
    expect(parseChunks(chunked(bytes, 7))).toEqual([]);
    const { result } = reassemble("vendor_a.chat", parseChunks([frameDocListing(bytes.toString("utf8"))]));
    expect(semanticOf("vendor_a.chat", result.body)).toMatchObject({ text: ["Hello"], finish: ["stop"] });
    expect(result.done).toBe(false);
    expect(result.body).toMatchObject({
      id: "chatcmpl-123",
      model: "gpt-4o-mini",
      system_fingerprint: "fp_44709d6fcb",
    });
  });
});
