import { describe, expect, it } from "vitest";
import { EventKind, LlmProtocol } from "../../../gen/guard/v1/types_pb.js";
import { decompose } from "../../../src/decompose/decompose.js";
import { applySpan, codePointIndex, resolvePath } from "./helpers.js";

/**
 * DESIGN decision 1: offsets count code points in the decoded string leaf. For each
 * protocol, a span applied at an addressable segment's path and offsets in a copy of the
 * raw body changes exactly the intended characters, with emoji (astral and ZWJ), combining
 * marks and JSON escapes (\u00e9, \ud83d\ude00, \", \\, \n) before the target.
 */

const SECRET = "bob@example.com";
/** A placeholder token as the composer writes it (built by concatenation: it is not a template). */
const PLACEHOLDER = "$" + "{X_EMAIL_1}";
// Raw JSON text of a string leaf: escapes only the decoder resolves.
const RAW_TEXT = String.raw`caf\u00e9 e\u0301 \ud83d\ude00 👩‍💻 \"q\" \\ \n mail ` + SECRET + " end";

interface Case {
  readonly name: string;
  readonly kind: EventKind;
  readonly protocol: LlmProtocol;
  readonly raw: string;
  readonly path: string;
}

const CASES: readonly Case[] = [
  {
    name: "vendor_a.chat user content",
    kind: EventKind.STEP_REQUEST,
    protocol: LlmProtocol.VENDOR_A_CHAT,
    raw: `{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":"${RAW_TEXT}"}]}`,
    path: "payload.messages.1.content",
  },
  {
    name: "vendor_a.chat content part",
    kind: EventKind.STEP_REQUEST,
    protocol: LlmProtocol.VENDOR_A_CHAT,
    raw: `{"messages":[{"role":"user","content":[{"type":"text","text":"x"},{"type":"text","text":"${RAW_TEXT}"}]}]}`,
    path: "payload.messages.0.content.1.text",
  },
  {
    name: "vendor_a.chat response prose",
    kind: EventKind.STEP_RESPONSE,
    protocol: LlmProtocol.VENDOR_A_CHAT,
    raw: `{"choices":[{"index":0,"message":{"role":"assistant","content":"${RAW_TEXT}"},"finish_reason":"stop"}]}`,
    path: "payload.choices.0.message.content",
  },
  {
    name: "vendor_b tool_use input",
    kind: EventKind.STEP_RESPONSE,
    protocol: LlmProtocol.VENDOR_B_MESSAGES,
    raw: `{"type":"message","content":[{"type":"text","text":"t"},{"type":"tool_use","id":"t1","name":"mail","input":{"to":"${RAW_TEXT}"}}],"stop_reason":"tool_use"}`,
    path: "payload.content.1.input.to",
  },
  {
    name: "vendor_b tool_result in a request",
    kind: EventKind.STEP_REQUEST,
    protocol: LlmProtocol.VENDOR_B_MESSAGES,
    raw: `{"system":"s","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"${RAW_TEXT}"}]}]}`,
    path: "payload.messages.0.content.0.content",
  },
  {
    name: "canonical tool-call arguments",
    kind: EventKind.STEP_RESPONSE,
    protocol: LlmProtocol.CANONICAL,
    raw: `{"text":"t","tool_calls":[{"id":"c","name":"sh","arguments":{"command":"${RAW_TEXT}"}}]}`,
    path: "payload.tool_calls.0.arguments.command",
  },
  {
    name: "canonical message",
    kind: EventKind.STEP_REQUEST,
    protocol: LlmProtocol.CANONICAL,
    raw: `{"messages":[{"role":"user","content":"${RAW_TEXT}"}]}`,
    path: "payload.messages.0.content",
  },
];

describe("spans at segment paths and code-point offsets", () => {
  for (const c of CASES) {
    it(c.name, () => {
      const body: unknown = JSON.parse(c.raw);
      const segment = decompose(c.kind, c.protocol, body).segments.find((s) => s.path === c.path);
      expect(segment?.addressable).toBe(true);
      const text = segment!.text;
      const start = codePointIndex(text, SECRET);
      const end = start + [...SECRET].length;
      // Astral characters before the target make code points and UTF-16 units differ.
      expect(start).toBeLessThan(text.indexOf(SECRET));
      const copy: unknown = JSON.parse(c.raw);
      applySpan(copy, c.path, start, end, PLACEHOLDER);
      const changed = resolvePath(copy, c.path).value;
      expect(changed).toBe(text.replace(SECRET, PLACEHOLDER));
      // Nothing else moved: putting the original leaf back gives the original body.
      applySpan(copy, c.path, start, start + [...PLACEHOLDER].length, SECRET);
      expect(copy).toEqual(body);
    });
  }

  it("never marks JSON-encoded arguments addressable", () => {
    const raw = `{"choices":[{"message":{"tool_calls":[{"id":"c","type":"function","function":{"name":"mail","arguments":"{\\"to\\": \\"${SECRET}\\"}"}}]},"finish_reason":"tool_calls"}]}`;
    const result = decompose(EventKind.STEP_RESPONSE, LlmProtocol.VENDOR_A_CHAT, JSON.parse(raw));
    expect(result.segments).toHaveLength(1);
    expect(result.segments[0]).toMatchObject({
      path: "payload.choices.0.message.tool_calls.0.function.arguments",
      addressable: false,
      argumentKey: "to",
      text: SECRET,
    });
  });

  it("does not mark leaves under keys a dot path cannot name", () => {
    const body = {
      type: "message",
      content: [{ type: "tool_use", id: "t", name: "n", input: { "a.b": "x", "": "y", ok: "z" } }],
    };
    const result = decompose(EventKind.STEP_RESPONSE, LlmProtocol.VENDOR_B_MESSAGES, body);
    // Such text is still judged; its path stops at the nearest container a path can name.
    expect(result.segments.map((s) => [s.text, s.addressable, s.path, s.argumentKey])).toEqual([
      ["x", false, "payload.content.0.input", "a.b"],
      ["y", false, "payload.content.0.input", ""],
      ["z", true, "payload.content.0.input.ok", "ok"],
    ]);
  });
});
