import { describe, expect, it } from "vitest";
import { VendorAChatReassembler } from "../../../src/stream/reassemble-vendor-a-chat.js";
import { dataFrame } from "./helpers.js";

const HEAD = {
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "m",
  system_fingerprint: "fp",
};
const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
  dataFrame({ ...HEAD, choices, ...extra });
const delta = (d: Record<string, unknown>, index = 0, finish: string | null = null) =>
  chunk([{ index, delta: d, logprobs: null, finish_reason: finish }]);
const call = (index: number, fn: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  delta({ tool_calls: [{ index, ...extra, function: fn }] });

function run(frames: ReturnType<typeof dataFrame>[]) {
  const r = new VendorAChatReassembler();
  const infos = frames.map((f) => r.push(f));
  return { infos, result: r.finish() };
}

describe("vendor_a.chat reassembly", () => {
  it("builds the chat.completion body in the non-streamed key order", () => {
    const { result } = run([
      delta({ role: "assistant", content: "" }),
      delta({ content: "Hi" }),
      delta({}, 0, "stop"),
      chunk([], { usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }),
      dataFrame("[DONE]"),
    ]);
    expect(result.done).toBe(true);
    expect(Object.keys(result.body)).toEqual([
      "id",
      "object",
      "created",
      "model",
      "choices",
      "usage",
      "system_fingerprint",
    ]);
    expect(result.body).toEqual({
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "Hi", refusal: null },
          logprobs: null,
          finish_reason: "stop",
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      system_fingerprint: "fp",
    });
  });

  it("concatenates tool-call arguments by index, id/type/name from the first delta", () => {
    const { result } = run([
      delta({ role: "assistant", content: null }),
      call(1, { name: "second", arguments: "" }, { id: "call_b", type: "function" }),
      call(0, { name: "first", arguments: '{"a"' }, { id: "call_a", type: "function" }),
      call(1, { arguments: '{"b":2}' }),
      call(0, { name: "renamed", arguments: ":1}" }, { id: "call_other" }),
      delta({}, 0, "tool_calls"),
    ]);
    const message = (result.body.choices as { message: Record<string, unknown> }[])[0]?.message;
    expect(message).toEqual({
      role: "assistant",
      content: null,
      refusal: null,
      tool_calls: [
        { id: "call_a", type: "function", function: { name: "first", arguments: '{"a":1}' } },
        { id: "call_b", type: "function", function: { name: "second", arguments: '{"b":2}' } },
      ],
    });
    expect(result.truncatedToolInput).toBeUndefined();
  });

  it("keeps several choices apart and orders them by index", () => {
    const { result } = run([
      delta({ role: "assistant", content: "" }, 2),
      delta({ content: "c" }, 2),
      delta({ role: "assistant", content: "a" }, 0),
      delta({ content: "b" }, 1),
      delta({}, 1, "length"),
    ]);
    const choices = result.body.choices as {
      index: number;
      message: { content: unknown };
      finish_reason: unknown;
    }[];
    expect(choices.map((c) => [c.index, c.message.content, c.finish_reason])).toEqual([
      [0, "a", null],
      [1, "b", "length"],
      [2, "c", null],
    ]);
  });

  it("concatenates logprobs lists and keeps null for a list never sent", () => {
    const lp = (token: string) => ({ token, logprob: -1, bytes: [1], top_logprobs: [] });
    const { result } = run([
      chunk([
        { index: 0, delta: { role: "assistant", refusal: "" }, logprobs: { content: null, refusal: [] } },
      ]),
      chunk([{ index: 0, delta: { refusal: "No" }, logprobs: { content: null, refusal: [lp("No")] } }]),
      chunk([{ index: 0, delta: { refusal: "pe" }, logprobs: { content: null, refusal: [lp("pe")] } }]),
    ]);
    const choice = (result.body.choices as Record<string, unknown>[])[0];
    expect(choice?.logprobs).toEqual({ content: null, refusal: [lp("No"), lp("pe")] });
    expect(choice?.message).toEqual({ role: "assistant", content: null, refusal: "Nope" });
  });

  it("keeps reasoning deltas of gateways and the legacy function_call", () => {
    const { result } = run([
      delta({ role: "assistant", reasoning_content: "think" }),
      delta({ reasoning_content: "ing" }),
      delta({ function_call: { name: "f", arguments: '{"x"' } }),
      delta({ function_call: { arguments: ":1}" } }),
    ]);
    const message = (result.body.choices as { message: Record<string, unknown> }[])[0]?.message;
    expect(message?.reasoning_content).toBe("thinking");
    expect(message?.function_call).toEqual({ name: "f", arguments: '{"x":1}' });
  });

  it("reports arguments cut short (finish_reason length) raw", () => {
    const { result } = run([
      call(0, { name: "f", arguments: '{"path": "/et' }, { id: "c1", type: "function" }),
      delta({}, 0, "length"),
    ]);
    expect(result.truncatedToolInput).toEqual(['{"path": "/et']);
  });

  it("omits usage when the stream carried none, and uses the position for a missing index", () => {
    const { result } = run([chunk([{ delta: { role: "assistant", content: "x" } }])]);
    expect(result.body).not.toHaveProperty("usage");
    expect((result.body.choices as { index: number }[])[0]?.index).toBe(0);
    expect(result.done).toBe(false);
  });

  it("reports an error chunk and an error event as stream errors", () => {
    const a = run([delta({ content: "x" }), dataFrame({ error: { message: "boom", type: "server_error" } })]);
    expect(a.result.error).toEqual({ message: "boom", type: "server_error" });
    expect(a.infos[1]).toMatchObject({ terminal: true, mustHold: true });
    const b = run([dataFrame("upstream went away", "error")]);
    expect(b.result.error).toBe("upstream went away");
  });

  it("ignores and holds frames after [DONE] and frames that are not chunks", () => {
    const { infos, result } = run([
      delta({ role: "assistant", content: "ok" }),
      dataFrame("not json"),
      dataFrame({ object: "something.else" }),
      dataFrame("[DONE]"),
      delta({ content: " and more" }),
      dataFrame("[DONE]"),
    ]);
    expect(result.ignoredFrames).toBe(4);
    expect((result.body.choices as { message: { content: unknown } }[])[0]?.message.content).toBe("ok");
    for (const i of [1, 2, 4, 5]) expect(infos[i]).toMatchObject({ mustHold: true, contentBytes: 0 });
  });
});

describe("vendor_a.chat frame info", () => {
  it("measures content in UTF-8 bytes and tells openings, announcements and endings apart", () => {
    const { infos } = run([
      delta({ role: "assistant", content: "", refusal: null }),
      delta({ content: "h\u00e9\u{1F30D}" }),
      delta({ refusal: "no" }),
      call(0, { name: "f", arguments: "" }, { id: "c", type: "function" }),
      call(0, { arguments: '{"k":"\u00e9"}' }),
      delta({}, 0, "tool_calls"),
      chunk([], { usage: { total_tokens: 1 } }),
      dataFrame("[DONE]"),
    ]);
    const zero = {
      contentBytes: 0,
      toolBytes: 0,
      announcesTool: false,
      opening: false,
      mustHold: false,
      terminal: false,
    };
    expect(infos).toEqual([
      { ...zero, opening: true },
      { ...zero, contentBytes: 7 },
      { ...zero, contentBytes: 2 },
      { ...zero, announcesTool: true },
      { ...zero, contentBytes: 10, toolBytes: 10 },
      { ...zero, mustHold: true },
      { ...zero, mustHold: true },
      { ...zero, mustHold: true, terminal: true },
    ]);
  });
});
