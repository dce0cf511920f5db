/**
 * Small realistic bodies shared by the contract tests: one event per protocol and kind, shaped after
 * the providers' published examples, so the schema is exercised with what callers really send.
 */

import type { GuardEvent, LlmProtocol, Verdict } from "../../../src/contract/types.js";

/** A redaction placeholder `${X_<KIND>_<n>}` (SPEC 2.5), built so no string literal looks like a template. */
export function placeholder(kind: string, n: number, prefix = "X"): string {
  return `\${${prefix}_${kind}_${n}}`;
}

export const IDENTITY = {
  agent_id: "support-bot",
  agent_type: "langgraph",
  agent_workspace: "prod",
  agent_user: "u-4711",
} as const;

export const PAYLOADS: Record<string, { protocol: LlmProtocol; kind: GuardEvent["kind"]; payload: object }> =
  {
    "vendor_a.chat request": {
      protocol: "vendor_a.chat",
      kind: "step/request",
      payload: {
        model: "gpt-4o",
        messages: [
          { role: "system", content: "You are a support agent." },
          { role: "user", content: "Mail the invoice to jane@example.com" },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: "call_1",
                type: "function",
                function: { name: "send_mail", arguments: '{"to":"jane@example.com"}' },
              },
            ],
          },
          { role: "tool", tool_call_id: "call_1", content: "sent" },
        ],
        tools: [{ type: "function", function: { name: "send_mail", parameters: { type: "object" } } }],
      },
    },
    "vendor_a.chat response": {
      protocol: "vendor_a.chat",
      kind: "step/response",
      payload: {
        id: "chatcmpl-1",
        object: "chat.completion",
        model: "gpt-4o",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: null,
              tool_calls: [
                {
                  id: "call_2",
                  type: "function",
                  function: { name: "get_weather", arguments: '{"city":"Edinburgh"}' },
                },
              ],
            },
            finish_reason: "tool_calls",
          },
        ],
        usage: { prompt_tokens: 76, completion_tokens: 24, total_tokens: 100 },
      },
    },
    "vendor_b.messages request": {
      protocol: "vendor_b.messages",
      kind: "step/request",
      payload: {
        model: "model-b",
        max_tokens: 1024,
        system: "You answer weather questions.",
        messages: [
          { role: "user", content: "What is the weather in SF?" },
          {
            role: "assistant",
            content: [
              {
                type: "tool_use",
                id: "toolu_1",
                name: "get_weather",
                input: { location: "San Francisco, CA" },
              },
            ],
          },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "15 degrees" }] },
        ],
      },
    },
    "vendor_b.messages response": {
      protocol: "vendor_b.messages",
      kind: "step/response",
      payload: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "model-b",
        content: [
          { type: "text", text: "Let me check." },
          { type: "tool_use", id: "toolu_2", name: "get_weather", input: { location: "Paris" } },
        ],
        stop_reason: "tool_use",
        usage: { input_tokens: 120, output_tokens: 40 },
      },
    },
    "vendor_a.responses request": {
      protocol: "vendor_a.responses",
      kind: "step/request",
      payload: { model: "gpt-5", input: "What is the weather like in Boston today?", tool_choice: "auto" },
    },
    "vendor_a.responses response": {
      protocol: "vendor_a.responses",
      kind: "step/response",
      payload: {
        id: "resp_1",
        object: "response",
        status: "completed",
        output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "Sunny." }] }],
      },
    },
    "canonical request": {
      protocol: "canonical",
      kind: "step/request",
      payload: {
        messages: [
          { role: "system", content: "You are a coding agent." },
          { role: "user", content: "List the repository files." },
        ],
        tools: [{ name: "shell", description: "Run a command", schema: { type: "object" } }],
        timing: { received_at: "2025-06-01T12:00:00.120Z" },
      },
    },
    "canonical response": {
      protocol: "canonical",
      kind: "step/response",
      payload: {
        text: "Listing files.",
        reasoning: "The user wants a directory listing.",
        tool_calls: [{ id: "c1", name: "shell", arguments: { command: "ls -la" } }],
        model: "in-house-7b",
        usage: {
          input_tokens: 300,
          cache_read_tokens: 200,
          cache_write_tokens: 0,
          output_tokens: 20,
          reasoning_tokens: 8,
        },
        timing: { started_at: "2025-06-01T12:00:00.200Z", completed_at: "2025-06-01T12:00:01.900Z" },
      },
    },
  };

/** A valid event; `overrides` replace or add top-level keys. */
export function event(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const sample = PAYLOADS["canonical request"];
  return {
    kind: sample?.kind,
    step_id: "step-01J0000000000000000000000",
    ...IDENTITY,
    llm_protocol: sample?.protocol,
    payload: structuredClone(sample?.payload),
    ...overrides,
  };
}

/** A valid event without `key`. */
export function eventWithout(key: string): Record<string, unknown> {
  const body = event();
  delete body[key];
  return body;
}

export const TIMING = { received_at: "2025-06-01T12:00:00.120Z", responded_at: "2025-06-01T12:00:00.135Z" };

export const VERDICTS: Record<string, Verdict> = {
  "minimal allow": { event_id: "01J9Z8Y7X6W5V4T3S2R1Q0P9N8", provider: "guard", decision: "allow" },
  "redaction: allow with a span and a finding": {
    event_id: "01J9Z8Y7X6W5V4T3S2R1Q0P9N8",
    provider: "guard/0.1.0",
    decision: "allow",
    latency_ms: 1.8,
    timing: TIMING,
    findings: [
      {
        category: "privacy.pii.email",
        severity: "medium",
        path: "payload.messages.1.content",
        start: 22,
        end: 38,
        score: 0.99,
        detector: "pii-email",
        fp: "7f3a9c",
        whitelisted: false,
        subject: "jane@example.com",
      },
    ],
    modifications: {
      spans: [
        { path: "payload.messages.1.content", start: 22, end: 38, replacement: placeholder("EMAIL", 1) },
      ],
    },
    unjudged: [],
  },
  "block with drop_calls": {
    event_id: "e2",
    provider: "guard",
    decision: "block",
    findings: [{ category: "security.malicious_command", path: "payload.tool_calls.0.arguments.command" }],
    continuation: {
      style: "drop_calls",
      paths: ["payload.tool_calls.0"],
      notice: "The command was refused.",
    },
  },
  "block with answer": {
    event_id: "e3",
    provider: "guard",
    decision: "block",
    continuation: { style: "answer", paths: [], notice: "I cannot help with that." },
  },
  "allow with obligation and unjudged": {
    event_id: "e4",
    provider: "guard",
    decision: "allow",
    unjudged: ["payload.messages.2.content.1.image_url"],
    obligations: [
      {
        id: "obl-1",
        type: "scan_artifact",
        call_id: "call_1",
        artifact: { kind: "file", locator: "./build/setup.sh", declared_type: "sh" },
        provider_hint: "clamav",
        on_unfulfilled: "flag",
        expires_at: "2025-06-01T13:00:00Z",
      },
    ],
  },
  "payload=true unchanged": {
    event_id: "e5",
    provider: "guard",
    decision: "allow",
    payload: "unchanged",
    unresolved_spans: 0,
  },
  "payload=true fixed body": {
    event_id: "e6",
    provider: "guard",
    decision: "allow",
    payload: { messages: [{ role: "user", content: `Mail it to ${placeholder("EMAIL", 1)}` }] },
    unresolved_spans: 1,
  },
  "payload=true streamed refusal": {
    event_id: "e7",
    provider: "guard",
    decision: "block",
    payload: 'data: {"choices":[{"delta":{"content":"Refused."}}]}\n\ndata: [DONE]\n\n',
    payload_stream: true,
  },
};
