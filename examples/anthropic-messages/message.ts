/**
 * Messages bodies (Guard's `vendor_b.messages`) as the provider writes them: used by the mock
 * model to answer and by the guarded fetch to wrap a refusal it has to render itself.
 */
export interface ToolUse {
  readonly id: string;
  readonly name: string;
  /** A real object: the Messages API does not JSON-encode tool input. */
  readonly input: Record<string, unknown>;
}

export function assistantMessage(options: {
  readonly id?: string;
  readonly model: string;
  readonly text: string | null;
  readonly toolUses?: readonly ToolUse[];
}): Record<string, unknown> {
  const uses = options.toolUses ?? [];
  return {
    id: options.id ?? `msg_${Date.now().toString(36)}`,
    type: "message",
    role: "assistant",
    model: options.model,
    content: [
      ...(options.text !== null ? [{ type: "text", text: options.text }] : []),
      ...uses.map((u) => ({ type: "tool_use", id: u.id, name: u.name, input: u.input })),
    ],
    stop_reason: uses.length > 0 ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}
