/**
 * Chat-completions bodies (Guard's `vendor_a.chat`) as the provider writes them: used by the
 * mock model to answer and by the guarded fetch to wrap a refusal it has to render itself.
 */
export interface ChatToolCall {
  readonly id: string;
  readonly name: string;
  /** JSON-encoded, as the provider transports tool arguments. */
  readonly arguments: string;
}

export function chatCompletion(options: {
  readonly id?: string;
  readonly model: string;
  readonly text: string | null;
  readonly toolCalls?: readonly ChatToolCall[];
}): Record<string, unknown> {
  const calls = options.toolCalls ?? [];
  return {
    id: options.id ?? `chatcmpl-${Date.now().toString(36)}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: options.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: options.text,
          refusal: null,
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((c) => ({
                  id: c.id,
                  type: "function",
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : {}),
        },
        logprobs: null,
        finish_reason: calls.length > 0 ? "tool_calls" : "stop",
      },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}
