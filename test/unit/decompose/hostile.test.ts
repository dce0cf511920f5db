import { describe, expect, it } from "vitest";
import type { DecomposeResponse } from "../../../gen/guard/v1/decompose_pb.js";
import { EventKind, LlmProtocol } from "../../../gen/guard/v1/types_pb.js";
import { decompose } from "../../../src/decompose/decompose.js";
import { deepArray, deepObject, expectConsistent, prng, wireFiles, wireJson } from "./helpers.js";

const KINDS = [EventKind.STEP_REQUEST, EventKind.STEP_RESPONSE, EventKind.UNSPECIFIED] as const;
const PROTOCOLS = [
  LlmProtocol.VENDOR_A_CHAT,
  LlmProtocol.VENDOR_B_MESSAGES,
  LlmProtocol.CANONICAL,
  LlmProtocol.VENDOR_A_RESPONSES,
  LlmProtocol.UNSPECIFIED,
] as const;

/** Decomposes under every kind and claim; none may throw, all must stay consistent. */
function everyWay(payload: unknown): DecomposeResponse[] {
  const results: DecomposeResponse[] = [];
  for (const kind of KINDS) {
    for (const protocol of PROTOCOLS) {
      const result = decompose(kind, protocol, payload);
      expectConsistent(payload, result);
      results.push(result);
    }
  }
  return results;
}

describe("hostile payloads", () => {
  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a number", 42],
    ["a string", "messages"],
    ["an array", [{ role: "user", content: "x" }]],
    ["messages as an object", { messages: { role: "user" } }],
    ["messages of scalars", { messages: [1, "two", null, true, []] }],
    [
      "numbers where strings are expected",
      { messages: [{ role: 1, content: 2, tool_calls: 3, tool_call_id: 4 }], tools: 5 },
    ],
    [
      "wrong part types",
      { messages: [{ role: "user", content: [null, 1, { type: 7 }, { type: "text", text: {} }] }] },
    ],
    [
      "wrong response types",
      {
        choices: [null, { message: 1 }, { message: { tool_calls: [{ function: { arguments: 9 } }] } }],
        usage: -1,
      },
    ],
    [
      "wrong block types",
      {
        content: [
          { type: "tool_use", input: 5 },
          { type: "tool_result", content: 1 },
        ],
        usage: { input_tokens: "x" },
      },
    ],
    [
      "prototype keys",
      { messages: [{ role: "constructor", content: "x" }], __proto__: { messages: "polluted" } },
    ],
  ])("%s: never throws", (_name, payload) => {
    everyWay(payload);
  });

  it("is judged as far as possible and names the rest", () => {
    const body = {
      messages: [
        { role: "user", content: "fine" },
        { role: "user", content: 42 },
        "junk",
        { role: "alien", content: "x" },
      ],
    };
    const result = decompose(EventKind.STEP_REQUEST, LlmProtocol.VENDOR_A_CHAT, body);
    expect(result.segments.map((s) => s.path)).toEqual(["payload.messages.0.content"]);
    expect(result.unjudged).toEqual([
      "payload.messages.1.content",
      "payload.messages.2",
      "payload.messages.3",
    ]);
  });

  it("a null payload is wholly unjudged", () => {
    expect(decompose(EventKind.STEP_REQUEST, LlmProtocol.VENDOR_A_CHAT, null).unjudged).toEqual(["payload"]);
  });

  it("bounds recursion on 10,000-deep nesting everywhere", () => {
    const deep = deepArray(10_000);
    const deepObj = deepObject(10_000);
    const nestedJson = `${"[".repeat(10_000)}"x"${"]".repeat(10_000)}`;
    const bodies = [
      deep,
      { messages: deep },
      { messages: [{ role: "user", content: deep }] },
      {
        messages: [
          { role: "assistant", tool_calls: [{ id: "1", function: { name: "f", arguments: nestedJson } }] },
        ],
      },
      { choices: [{ message: { tool_calls: [{ id: "1", function: { name: "f", arguments: deepObj } }] } }] },
      { type: "message", content: [{ type: "tool_use", id: "1", name: "f", input: deepObj }] },
      { content: [{ type: "web_search_tool_result", tool_use_id: "1", content: deep }] },
      { text: "t", tool_calls: [{ id: "1", name: "f", arguments: deepObj }] },
      { tools: [{ name: "t", input_schema: deepObj }], messages: [] },
      { input: deep },
    ];
    for (const body of bodies) everyWay(body);
    const cut = decompose(EventKind.STEP_RESPONSE, LlmProtocol.VENDOR_B_MESSAGES, bodies[5]);
    expect(cut.unjudged.length).toBe(1);
    expect(cut.toolCalls[0]).toMatchObject({ argumentsValid: false, argumentsJson: "" });
    expect(cut.unjudged[0]?.startsWith("payload.content.0.input.k.k")).toBe(true);
  });

  it("stays linear on a 10 MB string and 100,000 messages", () => {
    const big = "A".repeat(10 * 1024 * 1024);
    const started = performance.now();
    const one = decompose(EventKind.STEP_REQUEST, LlmProtocol.VENDOR_A_CHAT, {
      messages: [{ role: "user", content: big }],
    });
    expect(one.segments[0]?.text.length).toBe(big.length);
    const many = {
      messages: Array.from({ length: 100_000 }, (_, i) => ({
        role: i % 2 ? "assistant" : "user",
        content: `m${i}`,
      })),
    };
    const result = decompose(EventKind.STEP_REQUEST, LlmProtocol.VENDOR_B_MESSAGES, many);
    expect(result.segments).toHaveLength(100_000);
    expect(result.conversation).toHaveLength(100_000);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

/** Random JSON values, biased toward the shapes the parsers look for. */
function generator(seed: number) {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const TEXTS = ["", "plain", "é e\u0301 😀 👩‍💻", 'quote " back \\ nl \n', "\ud800 lone", "a.b"];
  const KEYS = [
    "role",
    "content",
    "type",
    "text",
    "tool_calls",
    "function",
    "arguments",
    "input",
    "id",
    "name",
    "a.b",
    "",
  ];
  const TYPES = [
    "text",
    "image",
    "image_url",
    "tool_use",
    "tool_result",
    "thinking",
    "redacted_thinking",
    "document",
    "web_search_tool_result",
    "file",
    "x",
  ];
  const ROLES = ["system", "developer", "user", "assistant", "tool", "function", "alien"];
  const scalar = (): unknown =>
    pick<unknown>([null, true, 0, -1, 1.5, pick(TEXTS), pick(TYPES), pick(ROLES)]);
  const value = (depth: number): unknown => {
    if (depth > 5 || random() < 0.3) return scalar();
    if (random() < 0.4) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
    const out: Record<string, unknown> = {};
    for (let i = Math.floor(random() * 4); i > 0; i--) out[pick(KEYS)] = value(depth + 1);
    return out;
  };
  const part = (): unknown => {
    const t = pick(TYPES);
    return random() < 0.2
      ? value(2)
      : {
          type: t,
          text: pick(TEXTS),
          input: value(3),
          content: random() < 0.5 ? pick(TEXTS) : [part2()],
          tool_use_id: "t1",
          source: { type: "base64", data: "QUI=" },
          image_url: { url: "data:image/png;base64,QUJD" },
        };
  };
  const part2 = (): unknown => ({ type: pick(["text", "image"]), text: pick(TEXTS) });
  const call = (): unknown => ({
    id: pick(["t1", "t2", ""]),
    type: "function",
    function: {
      name: pick(["f", "g"]),
      arguments: pick(['{"command":"ls"}', "", "{bad", '"s"', JSON.stringify(value(2))]),
    },
    name: "f",
    arguments: value(2),
  });
  const message = (): unknown =>
    random() < 0.1
      ? value(1)
      : {
          role: pick(ROLES),
          content: random() < 0.5 ? pick(TEXTS) : Array.from({ length: 3 }, part),
          tool_calls: random() < 0.3 ? [call()] : undefined,
          tool_call_id: pick(["t1", "t2"]),
        };
  return {
    request: (): unknown => ({
      model: "m",
      system: random() < 0.3 ? pick(TEXTS) : undefined,
      messages: Array.from({ length: Math.floor(random() * 6) }, message),
      tools:
        random() < 0.5
          ? [
              {
                name: pick(TEXTS),
                description: pick(TEXTS),
                input_schema: value(2),
                function: random() < 0.5 ? { name: "f", parameters: value(2) } : undefined,
              },
            ]
          : undefined,
      stream: random() < 0.5,
    }),
    response: (): unknown => ({
      choices:
        random() < 0.5
          ? [
              {
                message: { content: pick(TEXTS), tool_calls: [call()], refusal: scalar() },
                finish_reason: "length",
              },
            ]
          : undefined,
      content: random() < 0.5 ? Array.from({ length: 3 }, part) : undefined,
      text: random() < 0.3 ? pick(TEXTS) : undefined,
      tool_calls: random() < 0.3 ? [call()] : undefined,
      usage: value(2),
    }),
    value: () => value(0),
  };
}

describe("property: generated bodies", () => {
  it("never throw, and every path resolves with addressable leaves equal to their text", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const gen = generator(seed);
      for (const body of [gen.request(), gen.response(), gen.value()]) {
        // Round-trip through JSON: the service only ever sees parsed JSON.
        everyWay(JSON.parse(JSON.stringify(body) ?? "null"));
      }
    }
  });

  it("survive random corruption of real bodies", () => {
    const samples = ["openai-chat", "anthropic"].flatMap((folder) =>
      wireFiles(folder)
        .filter((f) => f.endsWith(".json"))
        .map((f) => wireJson(folder, f)),
    );
    const random = prng(7);
    const junk: unknown[] = [null, 3, "s", [], {}, [[[]]], { type: "text" }, deepArray(100)];
    const corrupt = (node: unknown, depth: number): unknown => {
      if (random() < 0.08) return junk[Math.floor(random() * junk.length)];
      if (depth > 12 || typeof node !== "object" || node === null) return node;
      if (Array.isArray(node)) return node.map((item) => corrupt(item, depth + 1));
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, corrupt(v, depth + 1)]));
    };
    for (let round = 0; round < 20; round++) {
      for (const sample of samples) everyWay(corrupt(sample, 0));
    }
  });
});
