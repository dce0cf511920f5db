import { isRecord } from "../shared/raw-json.js";
import { formatSse, parseSse, pieces, type SseFrame } from "../shared/sse.js";

/**
 * The Messages stream format in both directions. Guard judges a streamed reply once, whole
 * (spec 4.1), so the guarded fetch folds the intercepted `message_start` ... `message_stop`
 * events into one `message` body (tool input rebuilt from its `input_json_delta` pieces);
 * after the verdict it writes the fixed body back out as events for the SDK. The mock model
 * uses the writer with small pieces, so the reassembly runs on a real multi-frame stream.
 */

/** Folds the events of one streamed message into the non-streamed body they stand for. */
export function reassembleMessage(sse: string): Record<string, unknown> {
  let message: Record<string, unknown> = { type: "message", role: "assistant", content: [] };
  const blocks = new Map<number, Record<string, unknown>>();
  const partialJson = new Map<number, string>();
  for (const frame of parseSse(sse)) {
    const event = JSON.parse(frame.data) as Record<string, unknown>;
    const index = Number(event["index"] ?? 0);
    switch (event["type"]) {
      case "message_start":
        if (isRecord(event["message"])) message = { ...event["message"] };
        break;
      case "content_block_start":
        if (isRecord(event["content_block"])) blocks.set(index, { ...event["content_block"] });
        break;
      case "content_block_delta":
        applyDelta(blocks.get(index), isRecord(event["delta"]) ? event["delta"] : {}, index, partialJson);
        break;
      case "content_block_stop": {
        const block = blocks.get(index);
        const json = partialJson.get(index);
        if (block && json) block["input"] = JSON.parse(json) as unknown;
        break;
      }
      case "message_delta":
        if (isRecord(event["delta"])) Object.assign(message, event["delta"]);
        if (isRecord(event["usage"]))
          message["usage"] = { ...(isRecord(message["usage"]) ? message["usage"] : {}), ...event["usage"] };
        break;
    }
  }
  message["content"] = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
  return message;
}

function applyDelta(
  block: Record<string, unknown> | undefined,
  delta: Record<string, unknown>,
  index: number,
  partialJson: Map<number, string>,
) {
  if (!block) return;
  const append = (key: string, value: unknown) => {
    if (typeof value === "string") block[key] = String(block[key] ?? "") + value;
  };
  if (delta["type"] === "text_delta") append("text", delta["text"]);
  else if (delta["type"] === "thinking_delta") append("thinking", delta["thinking"]);
  else if (delta["type"] === "signature_delta") append("signature", delta["signature"]);
  else if (delta["type"] === "input_json_delta" && typeof delta["partial_json"] === "string")
    partialJson.set(index, (partialJson.get(index) ?? "") + delta["partial_json"]);
}

/** Writes a `message` body as stream events, `chunk` code points per delta. */
export function messageToSse(body: Record<string, unknown>, chunk = Number.POSITIVE_INFINITY): string {
  const frames: SseFrame[] = [];
  const emit = (event: Record<string, unknown>) =>
    frames.push({ event: String(event["type"]), data: JSON.stringify(event) });
  const usage = isRecord(body["usage"]) ? body["usage"] : {};
  emit({
    type: "message_start",
    message: {
      ...body,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 0 },
    },
  });
  const blocks = Array.isArray(body["content"]) ? body["content"] : [];
  blocks.forEach((block, index) => {
    if (!isRecord(block)) return;
    const deltas = blockDeltas(block, chunk);
    emit({ type: "content_block_start", index, content_block: deltas.opening });
    for (const delta of deltas.pieces) emit({ type: "content_block_delta", index, delta });
    emit({ type: "content_block_stop", index });
  });
  emit({
    type: "message_delta",
    delta: { stop_reason: body["stop_reason"] ?? "end_turn", stop_sequence: body["stop_sequence"] ?? null },
    usage: { output_tokens: usage["output_tokens"] ?? 0 },
  });
  emit({ type: "message_stop" });
  return formatSse(frames);
}

/** A block's opening form and the deltas that fill it; unknown block types open whole. */
function blockDeltas(
  block: Record<string, unknown>,
  chunk: number,
): { opening: Record<string, unknown>; pieces: Record<string, unknown>[] } {
  switch (block["type"]) {
    case "text":
      return {
        opening: { type: "text", text: "" },
        pieces: pieces(String(block["text"] ?? ""), chunk).map((text) => ({ type: "text_delta", text })),
      };
    case "tool_use":
      return {
        opening: { type: "tool_use", id: block["id"], name: block["name"], input: {} },
        pieces: pieces(JSON.stringify(block["input"] ?? {}), chunk).map((partial_json) => ({
          type: "input_json_delta",
          partial_json,
        })),
      };
    case "thinking":
      return {
        opening: { type: "thinking", thinking: "", signature: "" },
        pieces: [
          ...pieces(String(block["thinking"] ?? ""), chunk).map((thinking) => ({
            type: "thinking_delta",
            thinking,
          })),
          { type: "signature_delta", signature: String(block["signature"] ?? "") },
        ],
      };
    default:
      return { opening: block, pieces: [] };
  }
}
