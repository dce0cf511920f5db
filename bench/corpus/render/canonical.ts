import type { SessionModel } from "../session.js";

/**
 * canonical bodies (SPEC 2.2): the caller's own transcription. Tools are sent on the first
 * step only, as the spec asks ("include when changed or first seen").
 */

export function canonicalRequest(s: SessionModel, k: number, results: string[][]): Record<string, unknown> {
  const messages: unknown[] = [
    { role: "system", content: s.system },
    { role: "user", content: s.instruction },
  ];
  for (let j = 0; j < k; j++) {
    const step = s.steps[j];
    if (!step) continue;
    messages.push({
      role: "assistant",
      content: step.text,
      tool_calls: step.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.args })),
    });
    step.calls.forEach((c, i) => {
      messages.push({ role: "tool", tool_call_id: c.id, content: results[j]?.[i] ?? "" });
    });
  }
  return {
    messages,
    ...(k === 0 ? { tools: s.tools.map((t) => ({ name: t.name, description: t.description, schema: t.schema })) } : {}),
  };
}

export function canonicalResponse(s: SessionModel, k: number): Record<string, unknown> {
  const step = s.steps[k];
  return {
    text: step?.text ?? "",
    reasoning: step?.reasoning ?? "",
    tool_calls: (step?.calls ?? []).map((c) => ({ id: c.id, name: c.name, arguments: c.args })),
    model: s.model,
    usage: { input_tokens: 1200 + 900 * k, cache_read_tokens: 1000 + 880 * k, output_tokens: 180 },
    timing: {
      started_at: new Date(Date.UTC(2025, 2, 14, 10, 0, 2 * k)).toISOString(),
      completed_at: new Date(Date.UTC(2025, 2, 14, 10, 0, 2 * k + 1)).toISOString(),
    },
  };
}
