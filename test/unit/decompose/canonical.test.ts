import { describe, expect, it } from "vitest";
import { Channel, EventKind, LlmProtocol } from "../../../gen/guard/v1/types_pb.js";
import { decompose } from "../../../src/decompose/decompose.js";
import { expectConsistent } from "./helpers.js";

const C = LlmProtocol.CANONICAL;

describe("canonical", () => {
  it("decomposes a request exactly by the SPEC 2.2 table", () => {
    const body = {
      messages: [
        { role: "system", content: "rules" },
        { role: "user", content: "run ls" },
        {
          role: "assistant",
          content: "ok",
          tool_calls: [{ id: "k1", name: "shell", arguments: { command: "ls" } }],
        },
        { role: "tool", tool_call_id: "k1", content: "a.txt" },
      ],
      tools: [{ name: "shell", description: "runs commands", schema: { type: "object" } }],
      timing: { received_at: "2025-01-01T00:00:00Z" },
    };
    const result = decompose(EventKind.STEP_REQUEST, C, body);
    expectConsistent(body, result);
    expect(result.protocolMismatch).toBe(false);
    expect(result.segments.map((s) => [s.path, s.channel, s.addressable, s.toolName, s.callId])).toEqual([
      ["payload.messages.0.content", Channel.SYSTEM, true, "", ""],
      ["payload.messages.1.content", Channel.USER, true, "", ""],
      ["payload.messages.2.content", Channel.ASSISTANT_HISTORY, true, "", ""],
      ["payload.messages.2.tool_calls.0.arguments.command", Channel.TOOL_CALL_ARGUMENTS, true, "shell", "k1"],
      ["payload.messages.3.content", Channel.TOOL_RESULT, true, "shell", "k1"],
      ["payload.tools.0.name", Channel.TOOL_INVENTORY, true, "shell", ""],
      ["payload.tools.0.description", Channel.TOOL_INVENTORY, true, "shell", ""],
      ["payload.tools.0.schema", Channel.TOOL_INVENTORY, false, "shell", ""],
    ]);
    expect(result.conversation.map((e) => e.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(result.unjudged).toEqual([]);
  });

  it("decomposes a response: text, reasoning, tool calls with addressable arguments, usage", () => {
    const body = {
      text: "Here you go",
      reasoning: "The user wants a listing",
      tool_calls: [{ id: "c1", name: "shell", arguments: { command: "ls -la", env: { HOME: "/root" } } }],
      model: "m1",
      usage: {
        input_tokens: 10,
        cache_read_tokens: 4,
        cache_write_tokens: 1,
        output_tokens: 7,
        reasoning_tokens: 2,
      },
      timing: { started_at: "t", completed_at: "t" },
    };
    const result = decompose(EventKind.STEP_RESPONSE, C, body);
    expectConsistent(body, result);
    expect(result.segments.map((s) => [s.path, s.channel, s.argumentKey])).toEqual([
      ["payload.text", Channel.PROSE, ""],
      ["payload.reasoning", Channel.REASONING, ""],
      ["payload.tool_calls.0.arguments.command", Channel.TOOL_CALL_ARGUMENTS, "command"],
      ["payload.tool_calls.0.arguments.env.HOME", Channel.TOOL_CALL_ARGUMENTS, "env.HOME"],
    ]);
    expect(result.toolCalls[0]).toMatchObject({
      id: "c1",
      name: "shell",
      path: "payload.tool_calls.0",
      argumentsPath: "payload.tool_calls.0.arguments",
      argumentsValid: true,
    });
    expect(result.finishReason).toBe("tool_calls");
    expect(result.model).toBe("m1");
    expect(result.usage).toMatchObject({
      inputTokens: 10n,
      cacheReadTokens: 4n,
      cacheWriteTokens: 1n,
      outputTokens: 7n,
      reasoningTokens: 2n,
    });
  });

  it("leaves the finish reason unknown when the table cannot say it", () => {
    expect(decompose(EventKind.STEP_RESPONSE, C, { text: "done" }).finishReason).toBe("");
  });

  it("names non-string content unjudged instead of guessing", () => {
    const body = { messages: [{ role: "user", content: [{ type: "text", text: "x" }] }] };
    const result = decompose(EventKind.STEP_REQUEST, C, body);
    // Content arrays are not canonical: the body is sniffed as a provider shape instead.
    expect(result.protocolMismatch).toBe(true);
    const odd = decompose(EventKind.STEP_REQUEST, C, { messages: [{ role: "user", content: 42 }] });
    expect(odd.unjudged).toEqual(["payload.messages.0.content"]);
  });
});
