import { describe, expect, it } from "vitest";
import type { DecomposeResponse } from "../../../gen/guard/v1/decompose_pb.js";
import { EventKind, LlmProtocol, type Segment } from "../../../gen/guard/v1/types_pb.js";
import { decompose } from "../../../src/decompose/decompose.js";
import { wireFiles, wireJson } from "./helpers.js";

/**
 * Detection recalls a repeated message by its conversation digest and segment count, without
 * reading its texts again (src/pipeline/detection-memo.ts), from the start of the conversation.
 * That is only sound if, while the digests of a message and of every message before it are
 * unchanged, so is everything its segments carry. This test changes every string
 * leaf of each body, one at a time (inside JSON-encoded arguments too), and checks exactly that
 * for every conversation entry.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every way to change one string leaf of `value`: a function that returns the changed copy. */
function leafEdits(value: Json): ((root: Json) => Json)[] {
  const edits: ((root: Json) => Json)[] = [];
  const visit = (node: Json, replace: (root: Json, next: Json) => Json) => {
    if (typeof node === "string") {
      edits.push((root) => replace(root, `${node}\u2063changed`));
      // A JSON-encoded string (tool-call arguments): change its inner leaves as well.
      let inner: Json | undefined;
      try {
        inner = JSON.parse(node) as Json;
      } catch {
        inner = undefined;
      }
      if (inner !== null && typeof inner === "object") {
        for (const edit of leafEdits(inner)) edits.push((root) => replace(root, JSON.stringify(edit(inner))));
      }
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((child, i) => {
        visit(child, (root, next) =>
          replace(
            root,
            node.map((c, k) => (k === i ? next : c)),
          ),
        );
      });
      return;
    }
    if (node !== null && typeof node === "object") {
      for (const key of Object.keys(node)) {
        visit(node[key]!, (root, next) => replace(root, { ...node, [key]: next }));
      }
    }
  };
  // Each edit rebuilds the path from the root down, so `root` is always the untouched original.
  visit(value, (_root, next) => next);
  return edits;
}

/** Everything a detector or a finding takes from a segment. */
function facts(s: Segment): string {
  return JSON.stringify([
    s.path,
    s.channel,
    s.text,
    s.addressable,
    s.toolName,
    s.callId,
    s.argumentKey,
    s.messageIndex,
  ]);
}

/** The segments of each conversation entry, by the entries' counts. */
function spans(result: DecomposeResponse): string[][] {
  let at = 0;
  return result.conversation.map((entry) => {
    const span = result.segments.slice(at, at + entry.segments).map(facts);
    at += entry.segments;
    return span;
  });
}

function expectCovered(protocol: LlmProtocol, payload: Json): number {
  const before = decompose(EventKind.STEP_REQUEST, protocol, payload);
  const total = before.conversation.reduce((n, e) => n + e.segments, 0);
  expect(total).toBeLessThanOrEqual(before.segments.length);
  const original = spans(before);
  let checked = 0;
  for (const edit of leafEdits(payload)) {
    const after = decompose(EventKind.STEP_REQUEST, protocol, edit(payload));
    const changed = spans(after);
    // Detection recalls a run of messages from the start: a tool result takes its tool's name
    // from the earlier call, so what must hold is that equal digests up to and including a
    // message mean equal segments for it.
    for (let i = 0; i < after.conversation.length; i++) {
      if (after.conversation[i]?.digest !== before.conversation[i]?.digest) break;
      expect(changed[i]).toEqual(original[i]);
      checked++;
    }
  }
  return checked;
}

const j = (...parts: string[]) => parts.join("");

/** vendor_b blocks whose texts sit beside the digested content: document title and context, citations, search results. */
const VENDOR_B_EXTRAS: Json = {
  model: "m",
  max_tokens: 10,
  system: [{ type: "text", text: "You are a research agent." }],
  messages: [
    {
      role: "user",
      content: [
        {
          type: "document",
          title: "Quarterly report",
          context: "Uploaded by finance",
          source: { type: "text", media_type: "text/plain", data: "Revenue grew." },
        },
        {
          type: "search_result",
          title: "Result title",
          source: "https://example.org",
          content: [{ type: "text", text: "found text" }],
        },
        { type: "text", text: "Summarise both." },
      ],
    },
    {
      role: "assistant",
      content: [
        {
          type: "text",
          text: "Revenue grew.",
          citations: [{ type: "char_location", cited_text: "Revenue grew.", document_index: 0 }],
        },
        { type: "server_tool_use", id: "srv_1", name: "web_search", input: { query: "revenue" } },
        {
          type: "web_search_tool_result",
          tool_use_id: "srv_1",
          content: [
            { type: "web_search_result", title: "Page", url: "https://example.org/p", page_age: "1 day" },
          ],
        },
        { type: "tool_use", id: "tu_1", name: "bash", input: { command: "ls -la", env: { HOME: "/root" } } },
      ],
    },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "tu_1", content: "total 0" }] },
  ],
};

/** vendor_a.chat calls with encoded arguments, legacy function calls and parts. */
const VENDOR_A_EXTRAS: Json = {
  model: "m",
  messages: [
    { role: "developer", content: "Be brief." },
    {
      role: "user",
      content: [
        { type: "text", text: "Run it" },
        { type: "text", text: j("and ", "report") },
      ],
    },
    {
      role: "assistant",
      content: null,
      refusal: "no",
      tool_calls: [
        {
          id: "c1",
          type: "function",
          function: { name: "bash", arguments: '{"command":"ls","opts":["-l","-a"]}' },
        },
      ],
    },
    { role: "tool", tool_call_id: "c1", content: "a b" },
    { role: "assistant", content: "", function_call: { name: "old", arguments: "not json" } },
    { role: "function", name: "old", content: "done" },
  ],
  tools: [
    { type: "function", function: { name: "bash", description: "Runs", parameters: { type: "object" } } },
  ],
};

describe("conversation digests cover every segment of their message", () => {
  const cases: [string, LlmProtocol, Json][] = [
    ["vendor_b extras", LlmProtocol.VENDOR_B_MESSAGES, VENDOR_B_EXTRAS],
    ["vendor_a.chat extras", LlmProtocol.VENDOR_A_CHAT, VENDOR_A_EXTRAS],
  ];
  for (const [folder, protocol] of [
    ["openai-chat", LlmProtocol.VENDOR_A_CHAT],
    ["anthropic", LlmProtocol.VENDOR_B_MESSAGES],
  ] as const) {
    for (const file of wireFiles(folder).filter((f) => f.startsWith("req-") && f.endsWith(".json"))) {
      cases.push([`${folder}/${file}`, protocol, wireJson(folder, file) as Json]);
    }
  }
  for (const [name, protocol, payload] of cases) {
    it(name, () => {
      expect(expectCovered(protocol, payload)).toBeGreaterThan(0);
    });
  }

  it("counts each message's segments, and none of the declared tools", () => {
    const result = decompose(EventKind.STEP_REQUEST, LlmProtocol.VENDOR_A_CHAT, VENDOR_A_EXTRAS);
    const counted = result.conversation.reduce((n, e) => n + e.segments, 0);
    // Everything after the last message is the tool inventory: name, description and schema.
    expect(result.segments.slice(counted).map((s) => s.path)).toEqual([
      "payload.tools.0.function.name",
      "payload.tools.0.function.description",
      "payload.tools.0.function.parameters",
    ]);
    expect(result.conversation.map((e) => e.segments)).toEqual([1, 2, 4, 1, 1, 1]);
  });
});
