import { isRecord, MAX_DEPTH } from "./json.js";
import { childKey, childPath, isPlainKey } from "./path.js";

/** Receives the string leaves of a JSON value, in document order. */
export interface LeafVisitor {
  /**
   * `key` is the dotted key path from the walk's start (`files.0.path`). `plain` is false
   * when some key on the way cannot be named by a dot-joined path; `path` then stops at
   * the last ancestor it can name, so it still resolves (to a container, not the leaf).
   */
  leaf(text: string, path: string, key: string, plain: boolean): void;
  /** Content nested deeper than the bound; `path` names the node where the walk stopped. */
  tooDeep(path: string): void;
}

/**
 * Visits every string leaf of `value`. Numbers, booleans and nulls are not text and are
 * passed over. Recursion stops at MAX_DEPTH so hostile nesting costs a bounded stack.
 */
export function walkStringLeaves(
  value: unknown,
  path: string,
  visitor: LeafVisitor,
  key = "",
  plain = true,
  depth = 0,
): void {
  if (typeof value === "string") {
    visitor.leaf(value, path, key, plain);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  if (depth >= MAX_DEPTH) {
    visitor.tooDeep(path);
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      walkStringLeaves(
        value[i],
        plain ? childPath(path, i) : path,
        visitor,
        childKey(key, i),
        plain,
        depth + 1,
      );
    }
    return;
  }
  if (!isRecord(value)) return;
  for (const k of Object.keys(value)) {
    const named = plain && isPlainKey(k);
    walkStringLeaves(
      value[k],
      named ? childPath(path, k) : path,
      visitor,
      childKey(key, k),
      named,
      depth + 1,
    );
  }
}
