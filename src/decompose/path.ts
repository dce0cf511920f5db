/**
 * Payload paths (DESIGN.md decision 2): dot-joined keys and array indexes from the root
 * `payload`, e.g. `payload.messages.3.content.1.text`. The format has no escape, so a key
 * that is empty or holds a dot cannot be named unambiguously; text under such a key is
 * still judged but never marked addressable, so no span is ever aimed at the wrong leaf.
 */

/** The root every path starts from: the GuardEvent's `payload` field. */
export const ROOT = "payload";

/** Path of a child of `path` (object key or array index). */
export function childPath(path: string, key: string | number): string {
  return `${path}.${key}`;
}

/** True when a dot-joined path names this key without ambiguity. */
export function isPlainKey(key: string): boolean {
  return key.length > 0 && !key.includes(".");
}

/** Dotted key path inside decoded tool arguments (`files.0.path`); empty at the top. */
export function childKey(key: string, child: string | number): string {
  return key === "" ? String(child) : `${key}.${child}`;
}
