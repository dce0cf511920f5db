import { pathSegments } from "../../payload/json-path.js";
import { type SseFrame, SseParser, type StreamProtocol } from "../../stream/index.js";
import { terminated } from "./verdict-line.js";
import { sseFrame } from "../../stream/sse-frame.js";

/**
 * `drop_calls` carried out on a streamed response (spec 2.7 with 4.1): when the verdict
 * blocks only some tool calls and no byte of any of them reached the client, the held tail
 * goes out without those calls' frames, the notice is appended as text, and the finish
 * reason is corrected when no call is left (as `dropCalls` does for a JSON body). When a
 * blocked call was already (partly) released, or a path names nothing in the stream,
 * `undefined` is returned and the caller ends the stream with the refusal as before. It is
 * also returned when every tool call is blocked: nothing of the step is left to carry on, and
 * the refusal forms (clean, appended, soft, hard) say so in the caller's protocol.
 *
 * `held` are the held frames' raw texts as they would be released (placeholders restored,
 * spans applied); `released` the frames already sent, untouched.
 */
type Rec = Record<string, unknown>;

function isRec(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function idx(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : fallback;
}

interface Parsed {
  readonly raw: string;
  readonly event: string | undefined;
  readonly data: unknown;
}

function parseRaw(raw: string): Parsed {
  const parser = new SseParser();
  const frames = [...parser.push(Buffer.from(terminated(raw))), ...parser.end()];
  const frame = frames[0];
  let data: unknown;
  try {
    data = frame ? (JSON.parse(frame.data) as unknown) : undefined;
  } catch {
    data = undefined;
  }
  return { raw, event: frame?.event, data };
}

/** Stream indices in rank order: the reassembler sorts by index, so a body position is a rank. */
function ranked(set: Set<number>): number[] {
  return [...set].sort((a, b) => a - b);
}

export function dropHeldCalls(
  protocol: StreamProtocol,
  released: readonly SseFrame[],
  held: readonly string[],
  paths: readonly string[],
  notice: string,
): string[] | undefined {
  const before = released.map((frame) => parseRaw(frame.raw));
  const after = held.map(parseRaw);
  return protocol === "vendor_a.chat" ? dropChat(before, after, paths, notice) : dropMessages(before, after, paths, notice);
}

function chatChoices(data: unknown): Rec[] {
  return isRec(data) && Array.isArray(data.choices) ? data.choices.filter(isRec) : [];
}

function dropChat(before: Parsed[], after: Parsed[], paths: readonly string[], notice: string): string[] | undefined {
  const choices = new Set<number>();
  const calls = new Map<number, Set<number>>();
  for (const { data } of [...before, ...after]) {
    chatChoices(data).forEach((item, k) => {
      const choice = idx(item.index, k);
      choices.add(choice);
      const deltaCalls = isRec(item.delta) && Array.isArray(item.delta.tool_calls) ? item.delta.tool_calls : [];
      deltaCalls.forEach((call: unknown, j: number) => {
        if (!isRec(call)) return;
        const set = calls.get(choice) ?? new Set<number>();
        calls.set(choice, set);
        set.add(idx(call.index, j));
      });
    });
  }
  // Blocked (choice index, call index) pairs, from body paths `payload.choices.C.message.tool_calls.T`.
  const dropped = new Map<number, Set<number>>();
  for (const path of paths) {
    const s = pathSegments(path);
    if (s?.length !== 5 || s[0] !== "choices" || s[2] !== "message" || s[3] !== "tool_calls") return undefined;
    const choice = ranked(choices)[Number(s[1])];
    const call = choice === undefined ? undefined : ranked(calls.get(choice) ?? new Set())[Number(s[4])];
    if (choice === undefined || call === undefined) return undefined;
    const set = dropped.get(choice) ?? new Set<number>();
    dropped.set(choice, set);
    set.add(call);
  }
  const touches = (item: Rec, k: number): boolean => {
    const set = dropped.get(idx(item.index, k));
    const deltaCalls = isRec(item.delta) && Array.isArray(item.delta.tool_calls) ? item.delta.tool_calls : [];
    return set !== undefined && deltaCalls.some((call: unknown, j: number) => isRec(call) && set.has(idx(call.index, j)));
  };
  if (before.some(({ data }) => chatChoices(data).some(touches))) return undefined;
  const total = [...calls.values()].reduce((sum, set) => sum + set.size, 0);
  const blocked = [...dropped.values()].reduce((sum, set) => sum + set.size, 0);
  if (blocked >= total) return undefined;

  const hasContent = new Set<number>();
  for (const { data } of [...before, ...after]) {
    chatChoices(data).forEach((item, k) => {
      if (isRec(item.delta) && typeof item.delta.content === "string" && item.delta.content !== "") hasContent.add(idx(item.index, k));
    });
  }
  // Choices whose later calls can be renumbered: none of those calls went out yet.
  const renumber = new Set<number>();
  for (const [choice, set] of dropped) {
    const lowest = Math.min(...set);
    const sent = before.some(({ data }) =>
      chatChoices(data).some((item, k) => {
        const deltaCalls = isRec(item.delta) && Array.isArray(item.delta.tool_calls) ? item.delta.tool_calls : [];
        return idx(item.index, k) === choice && deltaCalls.some((call: unknown, j: number) => isRec(call) && idx(call.index, j) > lowest);
      }),
    );
    if (!sent) renumber.add(choice);
  }
  const noticed = new Set<number>();
  const out: string[] = [];
  for (const frame of after) {
    const list = chatChoices(frame.data);
    if (list.length === 0 || !isRec(frame.data)) {
      out.push(frame.raw);
      continue;
    }
    const chunk = frame.data;
    let changed = false;
    const kept: Rec[] = [];
    list.forEach((item, k) => {
      const choice = idx(item.index, k);
      const set = dropped.get(choice);
      const finishing = item.finish_reason !== null && item.finish_reason !== undefined;
      if (set && finishing && !noticed.has(choice)) {
        // The notice goes out as its own content chunk just before the choice finishes.
        noticed.add(choice);
        const text = hasContent.has(choice) ? `\n\n${notice}` : notice;
        const { choices: _choices, usage: _usage, ...meta } = chunk;
        out.push(sseFrame(undefined, { ...meta, choices: [{ index: choice, delta: { content: text }, logprobs: null, finish_reason: null }] }));
        const left = (calls.get(choice)?.size ?? 0) - set.size;
        if (left === 0 && item.finish_reason === "tool_calls") {
          item.finish_reason = "stop";
          changed = true;
        }
      }
      const delta = item.delta;
      if (set && isRec(delta) && Array.isArray(delta.tool_calls)) {
        const all: unknown[] = delta.tool_calls;
        const left = all.filter((call, j) => !(isRec(call) && set.has(idx(call.index, j))));
        if (left.length !== all.length) changed = true;
        if (renumber.has(choice)) {
          // Later calls close the gap, so an SDK that fills `tool_calls[index]` builds no hole.
          for (const call of left) {
            if (!isRec(call) || typeof call.index !== "number") continue;
            const at = call.index;
            const shifted = at - [...set].filter((d) => d < at).length;
            if (shifted !== at) {
              call.index = shifted;
              changed = true;
            }
          }
        }
        if (left.length === 0) delete delta.tool_calls;
        else delta.tool_calls = left;
        // A choice left with nothing to say is not sent again.
        if (!finishing && Object.keys(delta).length === 0) return;
      }
      kept.push(item);
    });
    if (!changed) {
      out.push(frame.raw);
      continue;
    }
    // A chunk that carried only blocked calls goes away; one with more is sent again without them.
    if (kept.length === 0 && chunk.usage === undefined) continue;
    chunk.choices = kept;
    out.push(sseFrame(frame.event, chunk));
  }
  // Every blocked choice must have been finished in the held tail, or the notice had no place.
  for (const choice of dropped.keys()) if (!noticed.has(choice)) return undefined;
  return out;
}

function dropMessages(before: Parsed[], after: Parsed[], paths: readonly string[], notice: string): string[] | undefined {
  const types = new Map<number, string>();
  for (const { data } of [...before, ...after]) {
    if (isRec(data) && data.type === "content_block_start" && isRec(data.content_block))
      types.set(idx(data.index, -1), String(data.content_block.type));
  }
  types.delete(-1);
  const order = ranked(new Set(types.keys()));
  const dropped = new Set<number>();
  for (const path of paths) {
    const s = pathSegments(path);
    const block = s && s.length === 2 && s[0] === "content" ? order[Number(s[1])] : undefined;
    if (block === undefined || types.get(block) !== "tool_use") return undefined;
    dropped.add(block);
  }
  const indexOf = (data: unknown): number | undefined => (isRec(data) && typeof data.index === "number" ? data.index : undefined);
  const lowest = Math.min(...dropped);
  // Nothing of a blocked block, and no block after one, may have gone out (indices would shift under the client).
  if (before.some(({ data }) => (indexOf(data) ?? -1) >= lowest)) return undefined;
  const shift = (at: number) => at - [...dropped].filter((d) => d < at).length;
  const callsLeft = [...types].some(([at, type]) => type === "tool_use" && !dropped.has(at));
  if (!callsLeft) return undefined;
  const next = order.length === 0 ? 0 : shift(Math.max(...order)) + 1;
  const out: string[] = [];
  let noticed = false;
  for (const frame of after) {
    const data = frame.data;
    const at = indexOf(data);
    if (at !== undefined && isRec(data) && String(data.type).startsWith("content_block_")) {
      if (dropped.has(at)) continue;
      if (shift(at) !== at) {
        out.push(sseFrame(frame.event, { ...data, index: shift(at) }));
        continue;
      }
    }
    if (isRec(data) && data.type === "message_delta" && !noticed) {
      noticed = true;
      out.push(
        sseFrame("content_block_start", { type: "content_block_start", index: next, content_block: { type: "text", text: "" } }),
        sseFrame("content_block_delta", { type: "content_block_delta", index: next, delta: { type: "text_delta", text: notice } }),
        sseFrame("content_block_stop", { type: "content_block_stop", index: next }),
      );
      if (!callsLeft && isRec(data.delta) && data.delta.stop_reason === "tool_use") {
        out.push(sseFrame(frame.event, { ...data, delta: { ...data.delta, stop_reason: "end_turn" } }));
        continue;
      }
    }
    out.push(frame.raw);
  }
  return noticed ? out : undefined;
}
