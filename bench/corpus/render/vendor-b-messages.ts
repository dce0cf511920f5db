import type { SessionModel } from "../session.js";

/**
 * vendor_b.messages bodies: the system prompt as cached text blocks, tool calls as `tool_use`
 * blocks with real object inputs, tool output as `tool_result` blocks in a user message.
 */

export function vendorBMessagesRequest(s: SessionModel, k: number, results: string[][]): Record<string, unknown> {
  const messages: unknown[] = [{ role: "user", content: s.instruction }];
  for (let j = 0; j < k; j++) {
    const step = s.steps[j];
    if (!step) continue;
    messages.push({
      role: "assistant",
      content: [
        { type: "text", text: step.text },
        ...step.calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.args })),
      ],
    });
    messages.push({
      role: "user",
      content: step.calls.map((c, i) => ({ type: "tool_result", tool_use_id: c.id, content: results[j]?.[i] ?? "" })),
    });
  }
  return {
    model: s.model,
    max_tokens: 8192,
    system: [{ type: "text", text: s.system, cache_control: { type: "ephemeral" } }],
    messages,
    tools: s.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.schema })),
    stream: false,
  };
}

export function vendorBMessagesResponse(s: SessionModel, k: number): Record<string, unknown> {
  const step = s.steps[k];
  const calls = step?.calls ?? [];
  return {
    id: `msg_${s.id}_${k}`,
    type: "message",
    role: "assistant",
    model: s.model,
    content: [
      { type: "thinking", thinking: step?.reasoning ?? "", signature: "EqQBCgIYAhIM" },
      { type: "text", text: step?.text ?? "" },
      ...calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: c.args })),
    ],
    stop_reason: calls.length > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: {
      input_tokens: 1200 + 900 * k,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 1000 + 880 * k,
      output_tokens: 180,
    },
  };
}
