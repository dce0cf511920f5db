import type { WireSpan } from "../compose/wire.js";
import { PLACEHOLDER_PATTERN } from "../placeholders/tokens.js";

/**
 * Rewrites a body's string leaves in one walk: applies redaction spans (code-point ranges
 * of the leaf their path names) and restores placeholders a model wrote back. Restoration
 * touches only the text between spans, so a value redacted on the way out is not restored
 * by the same rewrite. Inside JSON-encoded tool arguments an original goes in JSON-escaped,
 * so the arguments stay valid JSON.
 */

/** Keys whose string values are JSON documents. */
const ENCODED_KEYS = new Set(["arguments"]);
const MAX_DEPTH = 256;

export type PlaceholderLookup = (placeholder: string) => string | undefined;

export interface RewriteResult {
  readonly payload: unknown;
  /** Spans that named no string leaf, or a range outside it: never applied elsewhere. */
  readonly unresolved: number;
  readonly applied: number;
  readonly restored: number;
}

export function rewriteBody(payload: unknown, spans: readonly WireSpan[], restore?: PlaceholderLookup): RewriteResult {
  const byPath = new Map<string, WireSpan[]>();
  for (const span of spans) {
    const list = byPath.get(span.path);
    if (list) list.push(span);
    else byPath.set(span.path, [span]);
  }
  let applied = 0;
  let restored = 0;
  let unresolved = 0;
  const matched = new Set<string>();

  const restoreText = (text: string, encoded: boolean): string => {
    if (!restore || !text.includes("${X_")) return text;
    return text.replace(PLACEHOLDER_PATTERN, (token) => {
      const original = restore(token);
      if (original === undefined) return token;
      restored++;
      return encoded ? JSON.stringify(original).slice(1, -1) : original;
    });
  };

  const rewriteLeaf = (text: string, path: string, encoded: boolean): string => {
    const list = byPath.get(path);
    if (!list) return restoreText(text, encoded);
    matched.add(path);
    const cps = Array.from(text);
    const pieces: string[] = [];
    let cursor = 0;
    for (const span of [...list].sort((a, b) => a.start - b.start)) {
      if (span.start < cursor || span.start > span.end || span.end > cps.length) {
        unresolved++;
        continue;
      }
      pieces.push(restoreText(cps.slice(cursor, span.start).join(""), encoded), span.replacement);
      cursor = span.end;
      applied++;
    }
    pieces.push(restoreText(cps.slice(cursor).join(""), encoded));
    return pieces.join("");
  };

  const walk = (value: unknown, path: string, key: string, depth: number): unknown => {
    if (typeof value === "string") return rewriteLeaf(value, path, ENCODED_KEYS.has(key));
    if (depth > MAX_DEPTH || typeof value !== "object" || value === null) return value;
    if (Array.isArray(value)) return value.map((item, i) => walk(item, `${path}.${i}`, key, depth + 1));
    // A null-prototype copy: a `__proto__` key in the body stays a plain key.
    const copy: Record<string, unknown> = Object.create(null);
    for (const [k, v] of Object.entries(value)) copy[k] = walk(v, `${path}.${k}`, k, depth + 1);
    return copy;
  };

  const out = walk(payload, "payload", "", 0);
  for (const [path, list] of byPath) if (!matched.has(path)) unresolved += list.length;
  return { payload: out, unresolved, applied, restored };
}
