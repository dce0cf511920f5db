import { describe, expect, it } from "vitest";
import { EventKind, LlmProtocol } from "../../../gen/guard/v1/types_pb.js";
import { decompose } from "../../../src/decompose/decompose.js";
import { resolveProtocol } from "../../../src/decompose/sniff.js";
import { expectConsistent, wireJson } from "./helpers.js";

const {
  VENDOR_A_CHAT: A,
  VENDOR_B_MESSAGES: B,
  CANONICAL: C,
  VENDOR_A_RESPONSES: R,
  UNSPECIFIED,
} = LlmProtocol;
const REQ = EventKind.STEP_REQUEST;
const RESP = EventKind.STEP_RESPONSE;

describe("claim checking and sniffing", () => {
  it.each([
    [
      "vendor_b request claimed as chat",
      REQ,
      A,
      "anthropic",
      "req-assistant-tool_use-user-tool_result.json",
      B,
    ],
    ["chat request claimed as vendor_b", REQ, B, "openai-chat", "req-developer-user-string-content.json", A],
    [
      "chat request claimed as responses",
      REQ,
      R,
      "openai-chat",
      "req-multiturn-assistant-tool_calls-tool-role.json",
      A,
    ],
    ["responses request claimed as chat", REQ, A, "openai-responses", "req-text-input.json", R],
    ["vendor_b response claimed as chat", RESP, A, "anthropic", "resp-text-plus-tool_use.json", B],
    ["chat response claimed as vendor_b", RESP, B, "openai-chat", "resp-tool_call-recorded.json", A],
    ["chat response claimed as canonical", RESP, C, "openai-chat", "resp-basic-stop-usage-details.json", A],
    ["responses response claimed as vendor_b", RESP, B, "openai-responses", "resp-text-input.json", R],
  ] as const)("%s: sniffed, flagged, parsed correctly", (_name, kind, claim, folder, file, real) => {
    const body = wireJson(folder, file);
    const result = decompose(kind, claim, body);
    expect(result.protocol).toBe(real);
    expect(result.protocolMismatch).toBe(true);
    expectConsistent(body, result);
    // The sniffed parse is the same as an honest claim's.
    const honest = decompose(kind, real, body);
    expect(result.segments).toEqual(honest.segments);
    expect(result.toolCalls).toEqual(honest.toolCalls);
  });

  it("keeps a claim the body does not contradict", () => {
    const body = { messages: [{ role: "user", content: "hi" }] };
    for (const claim of [A, B, C]) {
      expect(resolveProtocol(REQ, claim, body)).toEqual({
        protocol: claim,
        mismatch: false,
        recognised: true,
      });
    }
  });

  it("sniffs a canonical response claimed as a provider shape", () => {
    const result = decompose(RESP, B, { text: "hello", tool_calls: [] });
    expect([result.protocol, result.protocolMismatch]).toEqual([C, true]);
    expect(result.segments.map((s) => s.path)).toEqual(["payload.text"]);
  });

  it("sniffs without a claim and reports no mismatch", () => {
    expect(resolveProtocol(RESP, UNSPECIFIED, { choices: [] })).toEqual({
      protocol: A,
      mismatch: false,
      recognised: true,
    });
  });

  it("names an unrecognisable body unjudged rather than guessing", () => {
    const result = decompose(REQ, A, { prompt: "legacy completions prompt" });
    expect(result.segments).toEqual([]);
    expect(result.unjudged).toEqual(["payload"]);
    expect(decompose(REQ, A, {}).unjudged).toEqual([]);
    expect(decompose(REQ, A, { timing: { received_at: "t" } }).unjudged).toEqual([]);
  });
});
