import { isRecord } from "../shared/raw-json.js";
import { formatSse, parseSse, pieces, type SseFrame } from "../shared/sse.js";

/**
 * The chat-completions stream format in both directions. Guard judges a streamed reply once,
 * whole (spec 4.1), so the guarded fetch folds the `chat.completion.chunk` frames it
 * intercepted into one `chat.completion` body; after the verdict it writes the fixed body
 * back out as chunks for the SDK. The mock model uses the writer with small chunks, so the
 * reassembly is exercised on a real multi-frame stream.
 */

interface ChoiceState {
  role: string;
  content: string | null;
  refusal: string | null;
  finishReason: string | null;
  calls: Map<number, { id: string; type: string; name: string; arguments: string }>;
}

/** Folds `data:` frames (ending with `[DONE]`) into the non-streamed body they stand for. */
export function reassembleChat(sse: string): Record<string, unknown> {
  const head: Record<string, unknown> = { object: "chat.completion" };
  const choices = new Map<number, ChoiceState>();
  let usage: unknown;
  for (const frame of parseSse(sse)) {
    if (frame.data === "[DONE]") break;
    const chunk = JSON.parse(frame.data) as Record<string, unknown>;
    for (const key of ["id", "created", "model", "system_fingerprint", "service_tier"])
      if (chunk[key] !== undefined) head[key] = chunk[key];
    if (isRecord(chunk["usage"])) usage = chunk["usage"];
    for (const raw of Array.isArray(chunk["choices"]) ? chunk["choices"] : []) {
      if (!isRecord(raw)) continue;
      const index = Number(raw["index"] ?? 0);
      const state = choices.get(index) ?? {
        role: "assistant",
        content: null,
        refusal: null,
        finishReason: null,
        calls: new Map(),
      };
      choices.set(index, state);
      const delta = isRecord(raw["delta"]) ? raw["delta"] : {};
      if (typeof delta["role"] === "string") state.role = delta["role"];
      if (typeof delta["content"] === "string") state.content = (state.content ?? "") + delta["content"];
      if (typeof delta["refusal"] === "string") state.refusal = (state.refusal ?? "") + delta["refusal"];
      for (const call of Array.isArray(delta["tool_calls"]) ? delta["tool_calls"] : []) {
        if (!isRecord(call)) continue;
        const at = Number(call["index"] ?? 0);
        const slot = state.calls.get(at) ?? { id: "", type: "function", name: "", arguments: "" };
        state.calls.set(at, slot);
        const fn = isRecord(call["function"]) ? call["function"] : {};
        if (typeof call["id"] === "string") slot.id = call["id"];
        if (typeof fn["name"] === "string") slot.name += fn["name"];
        if (typeof fn["arguments"] === "string") slot.arguments += fn["arguments"];
      }
      if (typeof raw["finish_reason"] === "string") state.finishReason = raw["finish_reason"];
    }
  }
  const ordered = [...choices.entries()].sort(([a], [b]) => a - b);
  return {
    ...head,
    choices: ordered.map(([index, s]) => ({
      index,
      message: {
        role: s.role,
        content: s.content,
        refusal: s.refusal,
        ...(s.calls.size > 0
          ? {
              tool_calls: [...s.calls.entries()]
                .sort(([a], [b]) => a - b)
                .map(([, c]) => ({
                  id: c.id,
                  type: c.type,
                  function: { name: c.name, arguments: c.arguments },
                })),
            }
          : {}),
      },
      logprobs: null,
      finish_reason: s.finishReason,
    })),
    ...(usage !== undefined ? { usage } : {}),
  };
}

/** Writes a `chat.completion` body as chunk frames, `chunk` code points of text per delta. */
export function chatToSse(body: Record<string, unknown>, chunk = Number.POSITIVE_INFINITY): string {
  const base = {
    id: body["id"],
    object: "chat.completion.chunk",
    created: body["created"],
    model: body["model"],
  };
  const frame = (choices: unknown[], extra: Record<string, unknown> = {}): SseFrame => ({
    data: JSON.stringify({ ...base, choices, ...extra }),
  });
  const frames: SseFrame[] = [];
  for (const raw of Array.isArray(body["choices"]) ? body["choices"] : []) {
    if (!isRecord(raw)) continue;
    const index = raw["index"] ?? 0;
    const message = isRecord(raw["message"]) ? raw["message"] : {};
    frames.push(
      frame([{ index, delta: { role: message["role"] ?? "assistant", content: "" }, finish_reason: null }]),
    );
    if (typeof message["content"] === "string")
      for (const piece of pieces(message["content"], chunk))
        frames.push(frame([{ index, delta: { content: piece }, finish_reason: null }]));
    const calls = Array.isArray(message["tool_calls"]) ? message["tool_calls"] : [];
    calls.forEach((call, at) => {
      if (!isRecord(call) || !isRecord(call["function"])) return;
      const fn = call["function"];
      const opening = {
        index: at,
        id: call["id"],
        type: "function",
        function: { name: fn["name"], arguments: "" },
      };
      frames.push(frame([{ index, delta: { tool_calls: [opening] }, finish_reason: null }]));
      for (const piece of pieces(String(fn["arguments"] ?? ""), chunk))
        frames.push(
          frame([
            {
              index,
              delta: { tool_calls: [{ index: at, function: { arguments: piece } }] },
              finish_reason: null,
            },
          ]),
        );
    });
    frames.push(frame([{ index, delta: {}, finish_reason: raw["finish_reason"] ?? "stop" }]));
  }
  if (body["usage"] !== undefined) frames.push(frame([], { usage: body["usage"] }));
  frames.push({ data: "[DONE]" });
  return formatSse(frames);
}
