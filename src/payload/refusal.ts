/**
 * Refusal documents rendered in the caller's own protocol (spec 4.1, `?payload=true`): a
 * valid response the agent can deliver instead of calling the model or instead of the
 * model's answer, so one refused step does not end its session.
 */

import { sseFrame } from "../stream/sse-frame.js";

export type RenderableProtocol = "vendor_a.chat" | "vendor_b.messages" | "vendor_a.responses";

export interface RefusalContext {
  readonly eventId: string;
  readonly model: string;
  readonly notice: string;
  /** Seconds since the epoch, for `created`. */
  readonly created: number;
}

export function refusalDocument(protocol: RenderableProtocol, ctx: RefusalContext): Record<string, unknown> {
  const id = ctx.eventId.toLowerCase();
  switch (protocol) {
    case "vendor_a.chat":
      return {
        id: `chatcmpl-guard-${id}`,
        object: "chat.completion",
        created: ctx.created,
        model: ctx.model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: ctx.notice, refusal: null },
            logprobs: null,
            finish_reason: "stop",
          },
        ],
      };
    case "vendor_b.messages":
      return {
        id: `msg_guard_${id}`,
        type: "message",
        role: "assistant",
        model: ctx.model,
        content: [{ type: "text", text: ctx.notice }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: { input_tokens: 0, output_tokens: 0 },
      };
    case "vendor_a.responses":
      return {
        id: `resp_guard_${id}`,
        object: "response",
        created_at: ctx.created,
        status: "completed",
        model: ctx.model,
        output: [
          {
            id: `msg_guard_${id}`,
            type: "message",
            status: "completed",
            role: "assistant",
            content: [{ type: "output_text", text: ctx.notice, annotations: [] }],
          },
        ],
      };
  }
}

/**
 * The empty assistant message a vendor_b refusal stream opens with (`message_start`), also used
 * when a refusal ends a stream whose own message never started.
 */
export function refusalMessageShell(ctx: RefusalContext): Record<string, unknown> {
  return {
    id: `msg_guard_${ctx.eventId.toLowerCase()}`,
    type: "message",
    role: "assistant",
    model: ctx.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0 },
  };
}

/** The same refusal as the SSE frames a streaming client expects (`payload_stream: true`). */
export function refusalStream(protocol: RenderableProtocol, ctx: RefusalContext): string {
  const id = ctx.eventId.toLowerCase();
  switch (protocol) {
    case "vendor_a.chat": {
      const base = { id: `chatcmpl-guard-${id}`, object: "chat.completion.chunk", created: ctx.created, model: ctx.model };
      return [
        sseFrame(undefined, { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] }),
        sseFrame(undefined, { ...base, choices: [{ index: 0, delta: { content: ctx.notice }, finish_reason: null }] }),
        sseFrame(undefined, { ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }),
        sseFrame(undefined, "[DONE]"),
      ].join("");
    }
    case "vendor_b.messages": {
      return [
        sseFrame("message_start", { type: "message_start", message: refusalMessageShell(ctx) }),
        sseFrame("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
        sseFrame("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: ctx.notice } }),
        sseFrame("content_block_stop", { type: "content_block_stop", index: 0 }),
        sseFrame("message_delta", {
          type: "message_delta",
          delta: { stop_reason: "end_turn", stop_sequence: null },
          usage: { output_tokens: 0 },
        }),
        sseFrame("message_stop", { type: "message_stop" }),
      ].join("");
    }
    case "vendor_a.responses": {
      const response = refusalDocument(protocol, ctx);
      return [
        sseFrame("response.created", { type: "response.created", response: { ...response, status: "in_progress", output: [] } }),
        sseFrame("response.completed", { type: "response.completed", response }),
      ].join("");
    }
  }
}
