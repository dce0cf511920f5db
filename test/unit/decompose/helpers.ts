import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import type { DecomposeResponse } from "../../../gen/guard/v1/decompose_pb.js";
import { seededUniform } from "../../../bench/corpus/random.js";

/** Wire samples copied into the repository (test/fixtures/wire), never read from outside it. */
export const WIRE = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "fixtures", "wire");

export function wireFiles(folder: string): string[] {
  return readdirSync(join(WIRE, folder)).sort();
}

export function wireText(folder: string, file: string): string {
  return readFileSync(join(WIRE, folder, file), "utf8");
}

export function wireJson(folder: string, file: string): unknown {
  return JSON.parse(wireText(folder, file));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Follows a dot path (`payload.messages.3.content`) into a parsed body. */
export function resolvePath(payload: unknown, path: string): { found: boolean; value: unknown } {
  const keys = path.split(".");
  if (keys[0] !== "payload") return { found: false, value: undefined };
  let current: unknown = payload;
  for (const key of keys.slice(1)) {
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(key) || Number(key) >= current.length) return { found: false, value: undefined };
      current = current[Number(key)];
    } else if (isObject(current) && Object.hasOwn(current, key)) {
      current = current[key];
    } else {
      return { found: false, value: undefined };
    }
  }
  return { found: true, value: current };
}

/** Replaces the code-point range [start, end) of the string leaf at `path`, in place. */
export function applySpan(
  payload: unknown,
  path: string,
  start: number,
  end: number,
  replacement: string,
): void {
  const keys = path.split(".").slice(1);
  const last = keys.pop();
  if (last === undefined) throw new Error("a span cannot replace the whole payload");
  const parent = resolvePath(payload, ["payload", ...keys].join(".")).value as Record<string, unknown>;
  const leaf = parent[last];
  if (typeof leaf !== "string") throw new Error(`no string leaf at ${path}`);
  const points = [...leaf];
  parent[last] = points.slice(0, start).join("") + replacement + points.slice(end).join("");
}

/** Code-point offset of `needle` in `text`. */
export function codePointIndex(text: string, needle: string): number {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`${needle} not in text`);
  return [...text.slice(0, at)].length;
}

/**
 * The invariants every decomposition keeps: an addressable segment's path names a string
 * leaf equal to its text (so code-point offsets into the text are offsets into the leaf);
 * every other path named in the response resolves in the body.
 */
export function expectConsistent(payload: unknown, response: DecomposeResponse): void {
  for (const segment of response.segments) {
    const at = resolvePath(payload, segment.path);
    expect(at.found, `segment path ${segment.path}`).toBe(true);
    expect(segment.text.length).toBeGreaterThan(0);
    if (segment.addressable) expect(at.value, `leaf at ${segment.path}`).toBe(segment.text);
  }
  for (const call of response.toolCalls) {
    expect(resolvePath(payload, call.path).found, `call path ${call.path}`).toBe(true);
    if (call.argumentsValid) expect(() => JSON.parse(call.argumentsJson)).not.toThrow();
  }
  for (const part of response.media)
    expect(resolvePath(payload, part.path).found, `media ${part.path}`).toBe(true);
  for (const path of response.unjudged)
    expect(resolvePath(payload, path).found, `unjudged ${path}`).toBe(true);
}

/** Deterministic PRNG: generated cases are reproducible from their seed. */
export const prng = seededUniform;

/** Nests `leaf` `depth` levels deep in arrays, without recursion. */
export function deepArray(depth: number, leaf: unknown = "x"): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** Nests `leaf` `depth` levels deep in objects under key `k`. */
export function deepObject(depth: number, leaf: unknown = "x"): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = { k: value };
  return value;
}
