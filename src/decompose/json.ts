/**
 * Defensive readers over an untrusted JSON value. Every provider parser goes through these
 * so that a wrong type at any level is skipped (and reported) instead of throwing.
 */

/** Deepest nesting any walker follows; deeper content is reported in `unjudged`. */
export const MAX_DEPTH = 64;

export type JsonRecord = { readonly [key: string]: unknown };

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value when it is a string, else the empty string. */
export function stringOf(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** A token count as the proto wants it; anything but a non-negative finite number is "not reported". */
export function countOf(value: unknown): bigint | undefined {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return undefined;
  return BigInt(Math.trunc(value));
}

/** Result of a bounded serialisation. */
export interface BoundedJson {
  /** JSON text, cut at `maxChars` when `truncated`. */
  readonly text: string;
  /** True when the value nests deeper than the depth bound (the text then stops there). */
  readonly tooDeep: boolean;
  /** True when the text was cut at the character budget or the depth bound. */
  readonly truncated: boolean;
}

/**
 * JSON.stringify with a depth bound and a character budget. The built-in recurses without
 * limit (a 10,000-deep body overflows the stack) and always serialises the whole value
 * (a 10 MB body costs 10 MB even when 64 KiB are wanted).
 */
export function boundedJson(
  value: unknown,
  maxDepth = MAX_DEPTH,
  maxChars = Number.POSITIVE_INFINITY,
): BoundedJson {
  const out: string[] = [];
  let length = 0;
  let full = false;
  let tooDeep = false;

  const emit = (piece: string): void => {
    if (full) return;
    const room = maxChars - length;
    if (piece.length > room) {
      out.push(cutAtCodePoint(piece, room));
      length = maxChars;
      full = true;
      return;
    }
    out.push(piece);
    length += piece.length;
  };

  const scalar = (v: unknown): string => {
    if (typeof v === "string") {
      // Escape only as much of a huge string as can still fit.
      const room = maxChars - length;
      return JSON.stringify(v.length > room ? v.slice(0, room) : v);
    }
    if (typeof v === "number") return Number.isFinite(v) ? String(v) : "null";
    if (typeof v === "boolean") return v ? "true" : "false";
    return "null";
  };

  const visit = (v: unknown, depth: number): void => {
    if (full) return;
    if (typeof v !== "object" || v === null) {
      emit(scalar(v));
      return;
    }
    if (depth >= maxDepth) {
      tooDeep = true;
      full = true;
      return;
    }
    if (Array.isArray(v)) {
      emit("[");
      for (let i = 0; i < v.length && !full; i++) {
        if (i > 0) emit(",");
        visit(v[i], depth + 1);
      }
      emit("]");
      return;
    }
    emit("{");
    let first = true;
    for (const key of Object.keys(v)) {
      if (full) break;
      const item = (v as JsonRecord)[key];
      if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
      if (!first) emit(",");
      first = false;
      emit(JSON.stringify(key));
      emit(":");
      visit(item, depth + 1);
    }
    emit("}");
  };

  visit(value, 0);
  return { text: out.join(""), tooDeep, truncated: full };
}

/** True when no object or array of `value` sits at depth `maxDepth` or deeper (the root is depth 0). */
function withinDepth(value: unknown, maxDepth: number, depth: number): boolean {
  if (typeof value !== "object" || value === null) return true;
  if (depth >= maxDepth) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!withinDepth(value[i], maxDepth, depth + 1)) return false;
    return true;
  }
  for (const key of Object.keys(value)) if (!withinDepth((value as JsonRecord)[key], maxDepth, depth + 1)) return false;
  return true;
}

/**
 * `boundedJson` without a character budget, for a value decoded from JSON: when it nests
 * within the depth bound, the built-in `JSON.stringify` writes the very same text natively
 * (JSON values hold no functions, symbols or undefined), several times faster than the
 * bounded walk, which is kept for the values that do nest too deep.
 */
export function jsonText(value: unknown, maxDepth = MAX_DEPTH): BoundedJson {
  if (value === undefined || !withinDepth(value, maxDepth, 0)) return boundedJson(value, maxDepth);
  return { text: JSON.stringify(value), tooDeep: false, truncated: false };
}

/** The first `units` UTF-16 units of `text`, never ending on half a surrogate pair. */
export function cutAtCodePoint(text: string, units: number): string {
  if (units <= 0) return "";
  if (text.length <= units) return text;
  const last = text.charCodeAt(units - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? units - 1 : units);
}
