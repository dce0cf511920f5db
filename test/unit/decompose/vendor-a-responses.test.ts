import { describe, expect, it } from "vitest";
import { Channel, EventKind, LlmProtocol } from "../../../gen/guard/v1/types_pb.js";
import { decompose } from "../../../src/decompose/decompose.js";
import { DUMP_CHARS } from "../../../src/decompose/vendor-a-responses.js";
import { wireJson } from "./helpers.js";

const R = LlmProtocol.VENDOR_A_RESPONSES;

describe("vendor_a.responses", () => {
  it("judges a request as one non-addressable dump of its JSON text", () => {
    const body = wireJson("openai-responses", "req-functions.json");
    const result = decompose(EventKind.STEP_REQUEST, R, body);
    expect(result.segments).toHaveLength(1);
    expect(result.segments[0]).toMatchObject({
      path: "payload",
      addressable: false,
      channel: Channel.USER,
      messageIndex: -1,
    });
    expect(JSON.parse(result.segments[0]!.text)).toEqual(body);
    expect(result.unjudged).toEqual([]);
  });

  it("cuts the dump at 64 KiB and then names the payload unjudged", () => {
    const body = { model: "m", input: "a".repeat(200_000), timing: { received_at: "t" } };
    const result = decompose(EventKind.STEP_REQUEST, R, body);
    expect(result.segments[0]!.text).toHaveLength(DUMP_CHARS);
    expect(result.segments[0]!.text.startsWith('{"model":"m","input":"aaa')).toBe(true);
    expect(result.unjudged).toEqual(["payload"]);
  });

  it("never splits a surrogate pair at the cut", () => {
    const body = { input: "😀".repeat(50_000) };
    const text = decompose(EventKind.STEP_REQUEST, R, body).segments[0]!.text;
    expect(text.length).toBeLessThanOrEqual(DUMP_CHARS);
    const last = text.charCodeAt(text.length - 1);
    expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
  });

  it("judges no response text, says so, and still reads model, usage and finish reason", () => {
    const result = decompose(EventKind.STEP_RESPONSE, R, wireJson("openai-responses", "resp-reasoning.json"));
    expect(result.segments).toEqual([]);
    expect(result.unjudged).toEqual(["payload"]);
    expect(result.model).toBe("o1-2024-12-17");
    expect(result.usage).toMatchObject({ inputTokens: 81n, outputTokens: 1035n, reasoningTokens: 832n });
    expect(result.finishReason).toBe("stop");
    const calls = decompose(EventKind.STEP_RESPONSE, R, wireJson("openai-responses", "resp-functions.json"));
    expect(calls.finishReason).toBe("tool_calls");
    const cut = decompose(EventKind.STEP_RESPONSE, R, {
      object: "response",
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
      output: [],
    });
    expect(cut.finishReason).toBe("max_tokens");
  });
});
