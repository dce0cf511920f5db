import { describe, expect, it } from "vitest";
import { Channel, EventKind, LlmProtocol } from "../../../gen/guard/v1/types_pb.js";
import { decompose } from "../../../src/decompose/decompose.js";
import { expectConsistent, wireJson } from "./helpers.js";

const A = LlmProtocol.VENDOR_A_CHAT;
const request = (payload: unknown) => decompose(EventKind.STEP_REQUEST, A, payload);
const response = (payload: unknown) => decompose(EventKind.STEP_RESPONSE, A, payload);

describe("vendor_a.chat request", () => {
  it("gives every role its channel and message index", () => {
    const body = {
      model: "m",
      messages: [
        { role: "developer", content: "be brief" },
        { role: "system", content: "sys" },
        { role: "user", content: [{ type: "text", text: "hello" }] },
        { role: "assistant", content: "earlier answer" },
      ],
    };
    const result = request(body);
    expectConsistent(body, result);
    expect(result.segments.map((s) => [s.path, s.channel, s.messageIndex])).toEqual([
      ["payload.messages.0.content", Channel.SYSTEM, 0],
      ["payload.messages.1.content", Channel.SYSTEM, 1],
      ["payload.messages.2.content.0.text", Channel.USER, 2],
      ["payload.messages.3.content", Channel.ASSISTANT_HISTORY, 3],
    ]);
    expect(result.conversation.map((e) => e.role)).toEqual(["system", "system", "user", "assistant"]);
  });

  it("pairs tool results with their call by id and names the tool", () => {
    const body = wireJson("openai-chat", "req-multiturn-assistant-tool_calls-tool-role.json");
    const result = request(body);
    const results = result.segments.filter((s) => s.channel === Channel.TOOL_RESULT);
    expect(results.map((s) => [s.path, s.callId, s.toolName])).toEqual([
      ["payload.messages.2.content", "123", "numProperties"],
      ["payload.messages.4.content", "1234", "numProperties"],
    ]);
    expect(result.toolCalls.map((t) => t.id)).toEqual(["123", "1234"]);
  });

  it("judges history tool-call arguments inside the encoded string, never addressable", () => {
    const args = JSON.stringify({ command: "rm -rf /", files: [{ path: "/etc/passwd" }], n: 3 });
    const body = {
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "sh", arguments: args } }],
        },
        { role: "tool", tool_call_id: "c1", content: "done" },
      ],
    };
    const result = request(body);
    expectConsistent(body, result);
    const argSegments = result.segments.filter((s) => s.channel === Channel.TOOL_CALL_ARGUMENTS);
    expect(
      argSegments.map((s) => [s.path, s.argumentKey, s.text, s.addressable, s.toolName, s.messageIndex]),
    ).toEqual([
      ["payload.messages.1.tool_calls.0.function.arguments", "command", "rm -rf /", false, "sh", 1],
      ["payload.messages.1.tool_calls.0.function.arguments", "files.0.path", "/etc/passwd", false, "sh", 1],
    ]);
  });

  it("declares the tool inventory: name and description addressable, schema as one JSON text", () => {
    const body = wireJson("openai-chat", "req-tools-json-schema-tool_choice-auto.json");
    const result = request(body);
    const inventory = result.segments.filter((s) => s.channel === Channel.TOOL_INVENTORY);
    expect(inventory.map((s) => [s.path, s.addressable, s.toolName, s.messageIndex])).toEqual([
      ["payload.tools.0.function.name", true, "get_current_weather", -1],
      ["payload.tools.0.function.description", true, "get_current_weather", -1],
      ["payload.tools.0.function.parameters", false, "get_current_weather", -1],
    ]);
    expect(JSON.parse(inventory[2]!.text)).toEqual(
      (body as { tools: [{ function: { parameters: unknown } }] }).tools[0].function.parameters,
    );
  });

  it("lists image, audio and file parts as media with their inline size", () => {
    const png = Buffer.from("0123456789").toString("base64");
    const body = {
      messages: [
        {
          role: "user",
          content: [
            { type: "image_url", image_url: { url: "https://example.com/a.png" } },
            { type: "image_url", image_url: { url: `data:image/png;base64,${png}` } },
            {
              type: "input_audio",
              input_audio: { data: Buffer.from("abcd").toString("base64"), format: "wav" },
            },
            {
              type: "file",
              file: { file_data: `data:application/pdf;base64,${Buffer.from("pdf!!").toString("base64")}` },
            },
            { type: "file", file: { file_id: "file-1" } },
          ],
        },
      ],
    };
    const result = request(body);
    expect(result.segments).toEqual([]);
    expect(result.media.map((m) => [m.kind, m.path, Number(m.bytes)])).toEqual([
      ["image", "payload.messages.0.content.0", 0],
      ["image", "payload.messages.0.content.1", 10],
      ["audio", "payload.messages.0.content.2", 4],
      ["file", "payload.messages.0.content.3", 5],
      ["file", "payload.messages.0.content.4", 0],
    ]);
  });

  it("treats empty arguments as an empty object and reads stream: true", () => {
    const result = request(wireJson("openai-chat", "req-messages-tool-then-system-empty-arguments.json"));
    expect(result.toolCalls[0]).toMatchObject({ argumentsJson: "{}", argumentsValid: true });
    expect(request(wireJson("openai-chat", "req-stream-true.json")).streamRequested).toBe(true);
  });
});

describe("vendor_a.chat response", () => {
  it("lists every tool call with its paths and judges its argument leaves", () => {
    const body = wireJson("openai-chat", "resp-parallel-tool_calls-recorded.json");
    const result = response(body);
    expectConsistent(body, result);
    expect(result.toolCalls.map((t) => [t.id, t.name, t.path, t.argumentsPath, t.argumentsValid])).toEqual([
      [
        "call_fdNz3vOBKYgOIpMdWotB9MjY",
        "GetWeatherArgs",
        "payload.choices.0.message.tool_calls.0",
        "payload.choices.0.message.tool_calls.0.function.arguments",
        true,
      ],
      [
        "call_h1DWI1POMJLb0KwIyQHWXD4p",
        "get_stock_price",
        "payload.choices.0.message.tool_calls.1",
        "payload.choices.0.message.tool_calls.1.function.arguments",
        true,
      ],
    ]);
    expect(result.segments.map((s) => `${s.callId}:${s.argumentKey}=${s.text}`)).toEqual([
      "call_fdNz3vOBKYgOIpMdWotB9MjY:city=Edinburgh",
      "call_fdNz3vOBKYgOIpMdWotB9MjY:country=GB",
      "call_fdNz3vOBKYgOIpMdWotB9MjY:units=c",
      "call_h1DWI1POMJLb0KwIyQHWXD4p:ticker=AAPL",
      "call_h1DWI1POMJLb0KwIyQHWXD4p:exchange=NASDAQ",
    ]);
    expect(result.segments.every((s) => s.channel === Channel.TOOL_CALL_ARGUMENTS && !s.addressable)).toBe(
      true,
    );
  });

  it("judges unparseable arguments whole, as the raw string", () => {
    const body = {
      choices: [
        {
          message: {
            tool_calls: [
              { id: "x", type: "function", function: { name: "f", arguments: '{"a": "unterminated' } },
            ],
          },
          finish_reason: "tool_calls",
        },
      ],
    };
    const result = response(body);
    expect(result.toolCalls[0]).toMatchObject({
      argumentsValid: false,
      argumentsJson: '{"a": "unterminated',
    });
    expect(result.segments.map((s) => [s.text, s.addressable, s.argumentKey])).toEqual([
      ['{"a": "unterminated', false, ""],
    ]);
  });

  it.each([
    ["stop", "stop"],
    ["length", "max_tokens"],
    ["tool_calls", "tool_calls"],
    ["function_call", "tool_calls"],
    ["content_filter", "content_filter"],
    ["something_new", "something_new"],
  ])("normalises finish reason %s to %s", (raw, want) => {
    expect(response({ choices: [{ message: { content: "x" }, finish_reason: raw }] }).finishReason).toBe(
      want,
    );
  });

  it("reports a refusal as such and judges its text as prose", () => {
    const result = response(wireJson("openai-chat", "resp-refusal.json"));
    expect(result.finishReason).toBe("refusal");
    expect(result.segments.map((s) => [s.path, s.channel])).toEqual([
      ["payload.choices.0.message.refusal", Channel.PROSE],
    ]);
  });

  it("sees a max-tokens stop", () => {
    expect(response(wireJson("openai-chat", "resp-finish_reason-length.json")).finishReason).toBe(
      "max_tokens",
    );
  });

  it("judges every choice of an n > 1 response, and reasoning fields of normalising gateways", () => {
    const body = {
      choices: [
        { index: 0, message: { content: "one", reasoning_content: "think" }, finish_reason: "stop" },
        { index: 1, message: { content: "two" }, finish_reason: "length" },
      ],
    };
    const result = response(body);
    expect(result.segments.map((s) => [s.path, s.channel])).toEqual([
      ["payload.choices.0.message.reasoning_content", Channel.REASONING],
      ["payload.choices.0.message.content", Channel.PROSE],
      ["payload.choices.1.message.content", Channel.PROSE],
    ]);
    expect(result.finishReason).toBe("stop");
  });

  it("maps usage: prompt tokens are the total input, cached tokens a subset", () => {
    const usage = response({
      choices: [],
      usage: {
        prompt_tokens: 100,
        completion_tokens: 20,
        prompt_tokens_details: { cached_tokens: 60 },
        completion_tokens_details: { reasoning_tokens: 5 },
      },
    }).usage;
    expect(usage).toMatchObject({
      inputTokens: 100n,
      cacheReadTokens: 60n,
      outputTokens: 20n,
      reasoningTokens: 5n,
    });
    expect(usage?.cacheWriteTokens).toBeUndefined();
    expect(response({ choices: [] }).usage).toBeUndefined();
  });
});
