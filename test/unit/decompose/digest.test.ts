import { describe, expect, it } from "vitest";
import { EventKind, LlmProtocol } from "../../../gen/guard/v1/types_pb.js";
import { decompose } from "../../../src/decompose/decompose.js";

const digests = (protocol: LlmProtocol, body: unknown) =>
  decompose(EventKind.STEP_REQUEST, protocol, body).conversation.map((e) => e.digest);

describe("conversation digests", () => {
  it("give the same message the same digest in a later, longer request", () => {
    const first = { model: "m", messages: [{ role: "user", content: "hi" }] };
    const later = {
      model: "m",
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
        { role: "user", content: "more" },
      ],
    };
    const a = digests(LlmProtocol.VENDOR_A_CHAT, first);
    const b = digests(LlmProtocol.VENDOR_A_CHAT, later);
    expect(b[0]).toBe(a[0]);
    expect(new Set(b).size).toBe(3);
    expect(b[0]).toMatch(/^[0-9a-f]{64}$/);
  });

  it("ignore presentation: cache markers, string versus text part, argument whitespace", () => {
    const plain = digests(LlmProtocol.VENDOR_B_MESSAGES, {
      system: "s",
      messages: [{ role: "user", content: "q" }],
    });
    const marked = digests(LlmProtocol.VENDOR_B_MESSAGES, {
      system: [{ type: "text", text: "s", cache_control: { type: "ephemeral" } }],
      messages: [
        { role: "user", content: [{ type: "text", text: "q", cache_control: { type: "ephemeral" } }] },
      ],
    });
    expect(marked).toEqual(plain);
    const call = (args: string) =>
      digests(LlmProtocol.VENDOR_A_CHAT, {
        messages: [
          {
            role: "assistant",
            tool_calls: [{ id: "1", type: "function", function: { name: "f", arguments: args } }],
          },
        ],
      });
    expect(call('{"a": 1}')).toEqual(call('{"a":1}'));
    expect(call('{"a": 1}')).not.toEqual(call('{"a": 2}'));
  });

  it("match across shapes for the same role and content", () => {
    const body = {
      messages: [
        { role: "system", content: "s" },
        { role: "user", content: "u" },
      ],
    };
    const chat = digests(LlmProtocol.VENDOR_A_CHAT, body);
    expect(digests(LlmProtocol.CANONICAL, body)).toEqual(chat);
    expect(
      digests(LlmProtocol.VENDOR_B_MESSAGES, { system: "s", messages: [{ role: "user", content: "u" }] }),
    ).toEqual(chat);
    expect(digests(LlmProtocol.VENDOR_A_CHAT, { messages: [{ role: "developer", content: "s" }] })[0]).toBe(
      chat[0],
    );
  });

  it("differ by role", () => {
    const [user] = digests(LlmProtocol.CANONICAL, { messages: [{ role: "user", content: "x" }] });
    const [assistant] = digests(LlmProtocol.CANONICAL, { messages: [{ role: "assistant", content: "x" }] });
    expect(user).not.toBe(assistant);
  });
});
