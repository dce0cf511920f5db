import { isRecord } from "./raw-json.js";
import type { Span } from "./verdict.js";

/**
 * Applies redaction spans to a parsed provider body, in place. Offsets count Unicode code
 * points inside the decoded string at `path` (DESIGN.md decision 1), so a string is split
 * with `Array.from` (code points), never indexed by UTF-16 units: an emoji before an email
 * would otherwise shift the cut by one. Spans of one string are applied from the last to
 * the first so that earlier offsets stay valid. A span that cannot be applied (its path
 * names no string, its range is out of bounds or overlaps another) is counted, not guessed
 * at: spec 2.5 asks the caller to report it as `unresolved_spans`.
 */
export function applySpans(body: unknown, spans: readonly Span[]): { applied: number; unresolved: number } {
  const byPath = new Map<string, Span[]>();
  for (const span of spans) byPath.set(span.path, [...(byPath.get(span.path) ?? []), span]);
  let applied = 0;
  let unresolved = 0;
  for (const [path, group] of byPath) {
    const leaf = locateString(body, path);
    if (!leaf) {
      unresolved += group.length;
      continue;
    }
    const points = Array.from(leaf.value);
    let limit = points.length;
    for (const span of [...group].sort((a, b) => b.start - a.start)) {
      if (span.start < 0 || span.start > span.end || span.end > limit) {
        unresolved += 1;
        continue;
      }
      points.splice(span.start, span.end - span.start, span.replacement);
      limit = span.start;
      applied += 1;
    }
    leaf.set(points.join(""));
  }
  return { applied, unresolved };
}

type Container = Record<string, unknown> | unknown[];

/**
 * Resolves a dot-joined verdict path (`payload.messages.1.content`, DESIGN.md decision 2)
 * to the string leaf it names, or undefined when any step is missing or the leaf is not a string.
 */
function locateString(body: unknown, path: string): { value: string; set(text: string): void } | undefined {
  const steps = path.split(".");
  if (steps.shift() !== "payload") return undefined;
  const last = steps.pop();
  if (last === undefined) return undefined;
  let container: unknown = body;
  for (const step of steps) container = child(container, step);
  if (!Array.isArray(container) && !isRecord(container)) return undefined;
  const holder: Container = container;
  const value = child(holder, last);
  if (typeof value !== "string") return undefined;
  return {
    value,
    set(text) {
      if (Array.isArray(holder)) holder[Number(last)] = text;
      else holder[last] = text;
    },
  };
}

function child(container: unknown, step: string): unknown {
  if (Array.isArray(container)) return /^\d+$/.test(step) ? container[Number(step)] : undefined;
  if (isRecord(container) && Object.hasOwn(container, step)) return container[step];
  return undefined;
}
