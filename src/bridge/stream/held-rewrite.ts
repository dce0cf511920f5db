import type { WireSpan } from "../../compose/wire.js";
import { PLACEHOLDER_PATTERN } from "../../placeholders/tokens.js";
import type { SseFrame, StreamProtocol } from "../../stream/index.js";
import { leafPaths, type ParsedFrame, parseFrame, withData } from "./frame-leaves.js";

/**
 * The held tail, made releasable on `allow`: placeholders the model wrote back are restored
 * and the verdict's redaction spans applied, both per frame, as spec 4.1 asks.
 *
 * Both act on the reassembled leaf (a choice's content, a block's text), not on a frame in
 * isolation, so a `${X_EMAIL_1}` split over two deltas is still found: its original goes
 * into the frame where the token starts and the token's remaining characters are removed
 * from the frames that carried them. What already went out in the head cannot be edited: a
 * token that starts there stays as it is, and a span that reaches into it is unresolved.
 * Offsets of spans are code points of the leaf, as in the JSON transport. Only frames that
 * change are serialized again; every other frame goes out byte for byte as received.
 */

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
}

interface Located {
  readonly frame: number;
  readonly piece: number;
  readonly start: number;
  readonly chars: string[];
}

export interface HeldRewrite {
  /** The raw text to write for each held frame, in order. */
  readonly raws: string[];
  readonly restored: number;
  readonly applied: number;
  /** Spans that could not be applied to held text (unknown leaf, or reaching into the head). */
  readonly unresolved: number;
}

/** Code-point index of a UTF-16 index within `text`. */
function codePointIndex(text: string, utf16: number): number {
  return Array.from(text.slice(0, utf16)).length;
}

export class StreamText {
  private readonly frames: ParsedFrame[];
  private readonly paths: Map<string, string>;
  private readonly leaves = new Map<string, { encoded: boolean; parts: Located[] }>();

  constructor(
    protocol: StreamProtocol,
    released: readonly SseFrame[],
    private readonly held: readonly SseFrame[],
  ) {
    this.frames = [...released, ...held].map((frame) => parseFrame(protocol, frame));
    this.paths = leafPaths(protocol, this.frames);
    this.frames.forEach((parsed, f) => {
      parsed.pieces.forEach((piece, p) => {
        const leaf = this.leaves.get(piece.leaf) ?? { encoded: piece.encoded, parts: [] };
        this.leaves.set(piece.leaf, leaf);
        const last = leaf.parts.at(-1);
        const start = last ? last.start + last.chars.length : 0;
        leaf.parts.push({ frame: f, piece: p, start, chars: Array.from(piece.text) });
      });
    });
  }

  /** Index of the first held frame in `frames`. */
  private get firstHeld(): number {
    return this.frames.length - this.held.length;
  }

  /** Every placeholder token in a leaf that still has held text (whole-leaf, across deltas). */
  tokens(): Set<string> {
    const found = new Set<string>();
    for (const leaf of this.leaves.values()) {
      if (!leaf.parts.some((part) => part.frame >= this.firstHeld)) continue;
      const text = leaf.parts.map((part) => part.chars.join("")).join("");
      if (text.includes("${X_")) for (const match of text.matchAll(PLACEHOLDER_PATTERN)) found.add(match[0]);
    }
    return found;
  }

  rewrite(spans: readonly WireSpan[], originals: ReadonlyMap<string, string>): HeldRewrite {
    const byPath = new Map<string, WireSpan[]>();
    for (const span of spans) byPath.set(span.path, [...(byPath.get(span.path) ?? []), span]);
    let unresolved = 0;
    let applied = 0;
    let restored = 0;
    const rewritten = new Map<number, Map<number, string>>();
    const matched = new Set<string>();

    for (const [id, leaf] of this.leaves) {
      const path = this.paths.get(id);
      const heldFrom = leaf.parts.find((part) => part.frame >= this.firstHeld)?.start;
      const length = leaf.parts.reduce((sum, part) => sum + part.chars.length, 0);
      const released = heldFrom ?? length;
      const edits: Edit[] = [];
      let cursor = released;
      const leafSpans = path === undefined ? [] : [...(byPath.get(path) ?? [])].sort((a, b) => a.start - b.start);
      if (path !== undefined && leafSpans.length > 0) matched.add(path);
      for (const span of leafSpans) {
        if (span.start < cursor || span.start > span.end || span.end > length) {
          unresolved++;
          continue;
        }
        edits.push({ start: span.start, end: span.end, replacement: span.replacement });
        cursor = span.end;
        applied++;
      }
      if (heldFrom !== undefined) {
        const text = leaf.parts.map((part) => part.chars.join("")).join("");
        for (const match of text.includes("${X_") ? text.matchAll(PLACEHOLDER_PATTERN) : []) {
          const original = originals.get(match[0]);
          const start = codePointIndex(text, match.index);
          const end = start + match[0].length;
          if (original === undefined || start < released) continue;
          if (edits.some((edit) => start < edit.end && edit.start < end)) continue;
          edits.push({ start, end, replacement: leaf.encoded ? JSON.stringify(original).slice(1, -1) : original });
          restored++;
        }
      }
      if (edits.length === 0) continue;
      edits.sort((a, b) => a.start - b.start);
      for (const part of leaf.parts) {
        if (part.frame < this.firstHeld) continue;
        const next = applyEdits(part, edits);
        if (next === undefined) continue;
        const frameEdits = rewritten.get(part.frame) ?? new Map<number, string>();
        rewritten.set(part.frame, frameEdits);
        frameEdits.set(part.piece, next);
      }
    }
    for (const path of byPath.keys()) if (!matched.has(path)) unresolved += byPath.get(path)?.length ?? 0;

    const raws = this.held.map((frame, h) => {
      const f = this.firstHeld + h;
      const edits = rewritten.get(f);
      const parsed = this.frames[f];
      if (!edits || !parsed) return frame.raw;
      for (const [p, text] of edits) {
        const piece = parsed.pieces[p];
        if (piece) piece.holder[piece.key] = text;
      }
      return withData(frame.raw, JSON.stringify(parsed.data));
    });
    return { raws, restored, applied, unresolved };
  }
}

/** True when the edit removes or inserts something inside [from, to). */
function touches(edit: Edit, from: number, to: number): boolean {
  return edit.start === edit.end ? edit.start >= from && edit.start < to : edit.start < to && edit.end > from;
}

/**
 * The piece's text with the edits applied to its share of the leaf, or undefined if no edit
 * touches it. Edits are sorted and do not overlap; a replacement goes where its edit starts.
 */
function applyEdits(part: Located, edits: readonly Edit[]): string | undefined {
  const from = part.start;
  const to = part.start + part.chars.length;
  const relevant = edits.filter((edit) => touches(edit, from, to));
  if (relevant.length === 0) return undefined;
  const out: string[] = [];
  let e = 0;
  for (let pos = from; pos < to; pos++) {
    let inside = false;
    while (e < relevant.length) {
      const edit = relevant[e] as Edit;
      if (edit.start > pos) break;
      if (edit.start === pos) out.push(edit.replacement);
      if (pos < edit.end) {
        inside = true;
        break;
      }
      e++;
    }
    if (!inside) out.push(part.chars[pos - from] ?? "");
  }
  return out.join("");
}
