import { describe, expect, it } from "vitest";
import { dropCalls, withhold } from "../../../src/payload/carry-out.js";
import { refusalDocument, refusalStream } from "../../../src/payload/refusal.js";
import { rewriteBody } from "../../../src/payload/rewrite.js";

describe("rewriteBody", () => {
  const lookup = (token: string) => ({ "${X_EMAIL_1}": "a@b.io", "${X_NAME_1}": 'Jo "Q"' })[token];

  it("applies spans by code points and counts spans that name nothing", () => {
    const body = { messages: [{ content: "😀 x@y.io and z@y.io" }] };
    const out = rewriteBody(body, [
      { path: "payload.messages.0.content", start: 2, end: 8, replacement: "${X_EMAIL_1}" },
      { path: "payload.messages.0.content", start: 13, end: 19, replacement: "${X_EMAIL_2}" },
      { path: "payload.messages.3.content", start: 0, end: 1, replacement: "${X_EMAIL_3}" },
      { path: "payload.messages.0.content", start: 15, end: 99, replacement: "${X_EMAIL_4}" },
    ]);
    expect(out.payload).toEqual({ messages: [{ content: "😀 ${X_EMAIL_1} and ${X_EMAIL_2}" }] });
    expect(out).toMatchObject({ applied: 2, unresolved: 2 });
    expect(body.messages[0]?.content).toBe("😀 x@y.io and z@y.io");
  });

  it("restores placeholders outside spans only, escaped inside encoded arguments", () => {
    const body = { text: "to ${X_EMAIL_1}, new c@d.io", args: { arguments: '{"who":"${X_NAME_1}"}' } };
    const out = rewriteBody(body, [{ path: "payload.text", start: 21, end: 27, replacement: "${X_EMAIL_1}" }], lookup);
    expect(out.payload).toMatchObject({ text: "to a@b.io, new ${X_EMAIL_1}" });
    expect(JSON.parse((out.payload as { args: { arguments: string } }).args.arguments)).toEqual({ who: 'Jo "Q"' });
    expect(out.restored).toBe(2);
  });

  it("keeps a __proto__ key a plain key", () => {
    const body = JSON.parse('{"__proto__": {"x": "${X_EMAIL_1}"}}');
    const out = rewriteBody(body, [], lookup).payload as Record<string, { x: string }>;
    expect(Object.keys(out)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toEqual({ x: "a@b.io" });
  });
});

describe("continuations carried out", () => {
  it("withholds only the named texts", () => {
    const out = withhold({ messages: [{ content: "a" }, { content: "b" }] }, ["payload.messages.1.content", "payload.nope"], "N");
    expect(out.payload).toEqual({ messages: [{ content: "a" }, { content: "N" }] });
    expect(out.missed).toEqual(["payload.nope"]);
  });

  it("drops canonical tool calls and appends the notice", () => {
    const body = { text: "ok", tool_calls: [{ id: "1" }, { id: "2" }, { id: "3" }] };
    const out = dropCalls("canonical", body, ["payload.tool_calls.0", "payload.tool_calls.2"], "N");
    expect(out.payload).toEqual({ text: "ok\n\nN", tool_calls: [{ id: "2" }] });
  });
});

describe("refusal documents", () => {
  const ctx = { eventId: "01ABC", model: "m", notice: "no", created: 1 };
  it("renders each protocol's own response shape", () => {
    expect(refusalDocument("vendor_a.chat", ctx)).toMatchObject({ object: "chat.completion", choices: [{ message: { content: "no" } }] });
    expect(refusalDocument("vendor_b.messages", ctx)).toMatchObject({ type: "message", content: [{ type: "text", text: "no" }] });
    expect(refusalDocument("vendor_a.responses", ctx)).toMatchObject({ object: "response", status: "completed" });
  });
  it("renders messages refusals as the provider's event sequence", () => {
    const events = refusalStream("vendor_b.messages", ctx)
      .split("\n\n")
      .filter(Boolean)
      .map((f) => f.split("\n")[0]?.replace("event: ", ""));
    expect(events).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
  });
});
