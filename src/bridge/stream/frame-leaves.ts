import type { SseFrame, StreamProtocol } from "../../stream/index.js";

/**
 * Where the text of a frame lands in the reassembled body. Placeholder restoration and
 * redaction spans are defined on the body's string leaves (a message's content, a block's
 * text), while the held tail goes out frame by frame; this module names, for each frame,
 * the string deltas it carries, the leaf each one extends, and the object that holds it,
 * so a rewrite can edit a delta in place and the frame be serialized again.
 */

/** One string delta inside one frame. */
export interface LeafPiece {
  /** Identity of the leaf the delta extends (stable across frames of one stream). */
  readonly leaf: string;
  /** The object holding the delta (inside the frame's parsed data) and its key. */
  readonly holder: Record<string, unknown>;
  readonly key: string;
  readonly text: string;
  /** The leaf is JSON text (tool arguments): an inserted original must be JSON-escaped. */
  readonly encoded: boolean;
}

export interface ParsedFrame {
  readonly frame: SseFrame;
  /** The frame's data parsed (mutated by a rewrite), or undefined when it is not JSON. */
  readonly data: unknown;
  readonly pieces: LeafPiece[];
}

type Rec = Record<string, unknown>;

function isRec(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function index(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : fallback;
}

function parse(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/** Leaf ids are structured strings; these turn them into body paths once ranks are known. */
const A_FIELDS = ["content", "refusal", "reasoning_content", "reasoning"] as const;
const B_FIELDS: Record<string, string> = { text_delta: "text", thinking_delta: "thinking", input_json_delta: "partial_json" };

function push(pieces: LeafPiece[], leaf: string, holder: Rec, key: string, encoded: boolean): void {
  const text = holder[key];
  if (typeof text === "string" && text !== "") pieces.push({ leaf, holder, key, text, encoded });
}

function vendorAPieces(chunk: Rec, pieces: LeafPiece[]): void {
  if (!Array.isArray(chunk.choices)) return;
  chunk.choices.forEach((item: unknown, k: number) => {
    if (!isRec(item) || !isRec(item.delta)) return;
    const choice = index(item.index, k);
    const delta = item.delta;
    for (const field of A_FIELDS) push(pieces, `a/${choice}/${field}`, delta, field, false);
    if (!Array.isArray(delta.tool_calls)) return;
    delta.tool_calls.forEach((call: unknown, j: number) => {
      if (isRec(call) && isRec(call.function))
        push(pieces, `a/${choice}/t/${index(call.index, j)}`, call.function, "arguments", true);
    });
  });
}

function vendorBPieces(event: Rec, pieces: LeafPiece[]): void {
  const block = index(event.index, -1);
  if (block < 0) return;
  if (event.type === "content_block_start" && isRec(event.content_block)) {
    const start = event.content_block;
    if (start.type === "text") push(pieces, `b/${block}/text`, start, "text", false);
    if (start.type === "thinking") push(pieces, `b/${block}/thinking`, start, "thinking", false);
    return;
  }
  if (event.type !== "content_block_delta" || !isRec(event.delta)) return;
  const kind = typeof event.delta.type === "string" ? B_FIELDS[event.delta.type] : undefined;
  if (kind === "text") push(pieces, `b/${block}/text`, event.delta, "text", false);
  if (kind === "thinking") push(pieces, `b/${block}/thinking`, event.delta, "thinking", false);
  if (kind === "partial_json") push(pieces, `b/${block}/input`, event.delta, "partial_json", true);
}

/** Parses a frame and lists its string deltas. */
export function parseFrame(protocol: StreamProtocol, frame: SseFrame): ParsedFrame {
  const data = parse(frame.data);
  const pieces: LeafPiece[] = [];
  if (isRec(data)) {
    if (protocol === "vendor_a.chat") vendorAPieces(data, pieces);
    else vendorBPieces(data, pieces);
  }
  return { frame, data, pieces };
}

/**
 * Body paths of the leaves, as the verdict's spans name them. The reassembler sorts choices,
 * tool calls and blocks by index, so a leaf's position is its index's rank among those seen.
 * Tool input of vendor_b has no path: the body holds it parsed, not as the streamed text.
 */
export function leafPaths(protocol: StreamProtocol, frames: readonly ParsedFrame[]): Map<string, string> {
  const parents = new Map<string, Set<number>>();
  const note = (parent: string, at: number) => {
    const set = parents.get(parent) ?? new Set<number>();
    parents.set(parent, set);
    set.add(at);
  };
  for (const { data } of frames) {
    if (!isRec(data)) continue;
    if (protocol === "vendor_a.chat" && Array.isArray(data.choices)) {
      data.choices.forEach((item: unknown, k: number) => {
        if (!isRec(item)) return;
        const choice = index(item.index, k);
        note("a", choice);
        const calls = isRec(item.delta) ? item.delta.tool_calls : undefined;
        if (!Array.isArray(calls)) return;
        calls.forEach((c: unknown, j: number) => {
          if (isRec(c)) note(`a/${choice}`, index(c.index, j));
        });
      });
    }
    if (protocol === "vendor_b.messages" && data.type === "content_block_start") note("b", index(data.index, -1));
  }
  const rank = (parent: string, at: number) => [...(parents.get(parent) ?? [])].sort((x, y) => x - y).indexOf(at);
  const paths = new Map<string, string>();
  for (const { pieces } of frames) {
    for (const { leaf } of pieces) {
      if (paths.has(leaf)) continue;
      const [vendor, first = "", second = "", third = ""] = leaf.split("/");
      const at = Number(first);
      if (vendor === "a" && second === "t") {
        paths.set(leaf, `payload.choices.${rank("a", at)}.message.tool_calls.${rank(`a/${at}`, Number(third))}.function.arguments`);
      } else if (vendor === "a") {
        paths.set(leaf, `payload.choices.${rank("a", at)}.message.${second}`);
      } else if (vendor === "b" && second !== "input") {
        paths.set(leaf, `payload.content.${rank("b", at)}.${second}`);
      }
    }
  }
  return paths;
}

/** The frame's raw text with its data lines replaced by one line of new data. */
export function withData(raw: string, data: string): string {
  const out: string[] = [];
  let placed = false;
  for (const line of raw.split(/\r\n|\r|\n/)) {
    if (line === "data" || line.startsWith("data:")) {
      if (!placed) out.push(`data: ${data}`);
      placed = true;
    } else {
      out.push(line);
    }
  }
  return out.join("\n");
}
