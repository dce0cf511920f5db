import { assign, type JsonContainer, locate, pathSegments } from "./json-path.js";

/**
 * Carries out a continuation on a copy of the body (spec 2.7), so that with `?payload=true`
 * the caller can forward what Guard returns: the decision stays `block`, but the session
 * goes on without the offending part.
 */

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `withhold` on a request: the text at each path becomes the notice. Returns paths that named no text. */
export function withhold(payload: unknown, paths: readonly string[], notice: string): { payload: unknown; missed: string[] } {
  const copy = structuredClone(payload);
  const missed: string[] = [];
  for (const path of paths) {
    const place = locate(copy, path);
    if (place && typeof place.value === "string") assign(place, notice);
    else missed.push(path);
  }
  return { payload: copy, missed };
}

/** Removes array elements named by paths, from the highest index down so the rest keep theirs. */
function removeElements(root: unknown, paths: readonly string[]): { parents: Set<JsonContainer>; missed: string[] } {
  const parents = new Set<JsonContainer>();
  const missed: string[] = [];
  const located = paths
    .map((path) => ({ path, place: locate(root, path) }))
    .sort((a, b) => Number(b.place?.key ?? 0) - Number(a.place?.key ?? 0));
  for (const { path, place } of located) {
    if (!place || !Array.isArray(place.parent)) {
      missed.push(path);
      continue;
    }
    place.parent.splice(place.key as number, 1);
    parents.add(place.parent);
  }
  return { parents, missed };
}

/**
 * `drop_calls` on a response: the named tool calls are removed, the notice is appended to
 * the reply, and the finish reason is corrected when no call is left to run.
 */
export function dropCalls(
  protocol: string,
  payload: unknown,
  paths: readonly string[],
  notice: string,
): { payload: unknown; missed: string[] } {
  const copy = structuredClone(payload);
  const { missed } = removeElements(copy, paths);
  if (protocol === "vendor_a.chat") {
    const choices = isObject(copy) && Array.isArray(copy["choices"]) ? copy["choices"] : [];
    const touched = new Set(paths.map((p) => pathSegments(p)?.[1]));
    choices.forEach((choice, index) => {
      if (!touched.has(String(index)) || !isObject(choice) || !isObject(choice["message"])) return;
      const message = choice["message"];
      const calls = message["tool_calls"];
      if (Array.isArray(calls) && calls.length === 0) {
        delete message["tool_calls"];
        if (choice["finish_reason"] === "tool_calls") choice["finish_reason"] = "stop";
      }
      const content = message["content"];
      message["content"] = typeof content === "string" && content.length > 0 ? `${content}\n\n${notice}` : notice;
    });
  } else if (protocol === "vendor_b.messages" && isObject(copy) && Array.isArray(copy["content"])) {
    const blocks = copy["content"];
    blocks.push({ type: "text", text: notice });
    const callsLeft = blocks.some((b) => isObject(b) && b["type"] === "tool_use");
    if (!callsLeft && copy["stop_reason"] === "tool_use") copy["stop_reason"] = "end_turn";
  } else if (protocol === "canonical" && isObject(copy)) {
    const text = copy["text"];
    copy["text"] = typeof text === "string" && text.length > 0 ? `${text}\n\n${notice}` : notice;
  }
  return { payload: copy, missed };
}
