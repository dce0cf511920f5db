import type { SessionModel } from "../session.js";

/** vendor_a.chat bodies (chat completions): tool arguments travel as JSON-encoded strings. */

export function vendorAChatRequest(s: SessionModel, k: number, results: string[][]): Record<string, unknown> {
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
      tool_calls: step.calls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: JSON.stringify(c.args) },
      })),
    });
    step.calls.forEach((c, i) => {
      messages.push({ role: "tool", tool_call_id: c.id, content: results[j]?.[i] ?? "" });
    });
  }
  return {
    model: s.model,
    messages,
    tools: s.tools.map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.schema },
    })),
    tool_choice: "auto",
    temperature: 0.2,
    stream: false,
  };
}

export function vendorAChatResponse(s: SessionModel, k: number): Record<string, unknown> {
  const step = s.steps[k];
  const calls = step?.calls ?? [];
  return {
    id: `chatcmpl-${s.id}-${k}`,
    object: "chat.completion",
    created: 1741946400 + k,
    model: s.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: step?.text ?? "",
          refusal: null,
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((c) => ({
                  id: c.id,
                  type: "function",
                  function: { name: c.name, arguments: JSON.stringify(c.args) },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: calls.length > 0 ? "tool_calls" : "stop",
      },
    ],
    usage: { prompt_tokens: 1200 + 900 * k, completion_tokens: 180, total_tokens: 1380 + 900 * k },
  };
}
