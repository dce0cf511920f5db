import { type RefusalContext, refusalMessageShell, refusalStream } from "../../payload/refusal.js";
import type { ReleaseState, StreamProtocol } from "../../stream/index.js";
import type { ReleasedView } from "./released-view.js";
import { sseFrame } from "../../stream/sse-frame.js";

/**
 * How a refused stream ends (spec 4.1), chosen by what already went out:
 *
 * - `clean`: nothing went out, so the whole refusal stream of `refusalStream` is sent.
 * - `appended`: only opening frames went out (the message, an empty block or role chunk),
 *   so the open message is continued with the notice as its text and properly ended.
 * - `soft`: prose or reasoning went out but no tool-call bytes, so the notice follows as a
 *   last text delta (after a paragraph break) and the message ends with `end_turn`/`stop`.
 * - `hard`: a tool call was begun in front of the client. No well-formed ending can take
 *   those bytes back, so the stream is retracted: vendor_b ends with an `event: error` frame
 *   (type `permission_error`, which SDKs raise and do not retry), vendor_a with a last chunk
 *   whose `finish_reason` is `content_filter` and whose content is the notice, then
 *   `[DONE]`; a client that runs tools only on `tool_calls`/`tool_use` runs nothing.
 */
export type RefusalForm = "clean" | "appended" | "soft" | "hard";

export function formFor(state: ReleaseState): RefusalForm {
  switch (state) {
    case "nothing":
      return "clean";
    case "opening_only":
      return "appended";
    case "content":
      return "soft";
    case "tool_bytes":
      return "hard";
  }
}

function vendorATail(form: RefusalForm, view: ReleasedView, ctx: RefusalContext): string {
  const base = {
    id: `chatcmpl-guard-${ctx.eventId.toLowerCase()}`,
    created: ctx.created,
    model: ctx.model,
    ...view.chunkMeta,
    object: "chat.completion.chunk",
  };
  const chunk = (index: number, delta: Record<string, unknown>, finish: string | null) =>
    sseFrame(undefined, { ...base, choices: [{ index, delta, logprobs: null, finish_reason: finish }] });
  const choices = view.choices.length > 0 ? view.choices : [0];
  const out: string[] = [];
  for (const index of choices) {
    if (form === "hard") {
      out.push(chunk(index, { content: ctx.notice }, "content_filter"));
    } else {
      out.push(chunk(index, { content: form === "soft" ? `\n\n${ctx.notice}` : ctx.notice }, null));
      out.push(chunk(index, {}, "stop"));
    }
  }
  out.push(sseFrame(undefined, "[DONE]"));
  return out.join("");
}

function vendorBTail(form: RefusalForm, view: ReleasedView, ctx: RefusalContext): string {
  if (form === "hard") {
    return sseFrame("error", { type: "error", error: { type: "permission_error", message: ctx.notice } });
  }
  const out: string[] = [];
  if (!view.messageStarted)
    out.push(sseFrame("message_start", { type: "message_start", message: refusalMessageShell(ctx) }));
  const text = form === "soft" ? `\n\n${ctx.notice}` : ctx.notice;
  let target: number | undefined;
  for (const [index, block] of view.blocks) {
    if (!block.open) continue;
    // A text block still open takes the notice; any other open block is closed first.
    if (block.type === "text") target = index;
    else out.push(sseFrame("content_block_stop", { type: "content_block_stop", index }));
  }
  if (target === undefined) {
    target = view.nextBlockIndex;
    out.push(
      sseFrame("content_block_start", { type: "content_block_start", index: target, content_block: { type: "text", text: "" } }),
    );
  }
  out.push(
    sseFrame("content_block_delta", { type: "content_block_delta", index: target, delta: { type: "text_delta", text } }),
    sseFrame("content_block_stop", { type: "content_block_stop", index: target }),
    sseFrame("message_delta", {
      type: "message_delta",
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: 0 },
    }),
    sseFrame("message_stop", { type: "message_stop" }),
  );
  return out.join("");
}

/** The frames that end a refused stream in the caller's protocol. */
export function refusalTail(protocol: StreamProtocol, form: RefusalForm, view: ReleasedView, ctx: RefusalContext): string {
  if (form === "clean") return refusalStream(protocol, ctx);
  return protocol === "vendor_a.chat" ? vendorATail(form, view, ctx) : vendorBTail(form, view, ctx);
}
