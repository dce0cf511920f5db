import { copyRecord, isRecord, type JsonRecord, parseJson, setOwn, stringValue, utf8Bytes } from "./json.js";

/**
 * One content block of a vendor_b.messages stream, from `content_block_start` through its
 * deltas to the non-streamed block. Text, thinking and tool input stream in pieces; every
 * other block type (web_search_tool_result, redacted_thinking, types added later) arrives
 * whole in its start event and is kept as sent.
 */

/** How a block grows: prose, reasoning, tool input as JSON text, or not at all. */
type BlockKind = "text" | "thinking" | "tool" | "whole";

/** Block types whose `input` streams as `input_json_delta` and that the client sees as calls. */
const TOOL_TYPES = new Set(["tool_use", "server_tool_use", "mcp_tool_use"]);

function kindOf(type: unknown): BlockKind {
  if (type === "text") return "text";
  if (type === "thinking") return "thinking";
  if (typeof type === "string" && TOOL_TYPES.has(type)) return "tool";
  return "whole";
}

/** What a start or delta event shows the client. */
export interface BlockCost {
  readonly contentBytes: number;
  readonly toolBytes: number;
  readonly announcesTool: boolean;
  readonly opening: boolean;
}

const FREE: BlockCost = { contentBytes: 0, toolBytes: 0, announcesTool: false, opening: false };

/**
 * The cost of a `content_block_delta` payload, or `undefined` for a delta type this code
 * does not know (its visible size is then unknown, so the caller holds it).
 */
export function deltaCost(delta: JsonRecord): BlockCost | undefined {
  switch (delta.type) {
    case "text_delta":
      return { ...FREE, contentBytes: utf8Bytes(delta.text) };
    case "thinking_delta":
      return { ...FREE, contentBytes: utf8Bytes(delta.thinking) };
    case "input_json_delta": {
      const bytes = utf8Bytes(delta.partial_json);
      return { ...FREE, contentBytes: bytes, toolBytes: bytes };
    }
    case "citations_delta": {
      // A citation is visible even when it quotes nothing: at least one byte.
      const citation = isRecord(delta.citation) ? delta.citation : {};
      return { ...FREE, contentBytes: Math.max(1, utf8Bytes(citation.cited_text)) };
    }
    case "signature_delta":
      return FREE;
    default:
      return undefined;
  }
}

export class BlockAccumulator {
  private readonly start: JsonRecord;
  readonly kind: BlockKind;
  private readonly parts: string[] = [];
  private signature: string | undefined;
  private jsonSeen = false;
  private readonly citations: unknown[] = [];

  constructor(contentBlock: JsonRecord) {
    this.start = copyRecord(contentBlock);
    this.kind = kindOf(contentBlock.type);
    if (this.kind === "text") this.parts.push(stringValue(contentBlock.text) ?? "");
    if (this.kind === "thinking") this.parts.push(stringValue(contentBlock.thinking) ?? "");
  }

  /** The cost of the start event; `dataBytes` is its size, used for blocks that come whole. */
  startCost(dataBytes: number): BlockCost {
    switch (this.kind) {
      case "text":
      case "thinking":
        return { ...FREE, opening: true, contentBytes: utf8Bytes(this.parts[0]) };
      case "tool": {
        // Input normally streams; an input already filled in at the start counts in full.
        const input = this.start.input;
        const filled = isRecord(input) && Object.keys(input).length > 0 ? dataBytes : 0;
        return { ...FREE, announcesTool: true, contentBytes: filled, toolBytes: filled };
      }
      case "whole":
        return { ...FREE, contentBytes: dataBytes };
    }
  }

  /** Applies a delta; false when its type does not fit this block (nothing is changed). */
  apply(delta: JsonRecord): boolean {
    switch (delta.type) {
      case "text_delta":
        return this.append("text", delta.text);
      case "thinking_delta":
        return this.append("thinking", delta.thinking);
      case "input_json_delta":
        this.jsonSeen ||= this.kind === "tool";
        return this.append("tool", delta.partial_json);
      case "signature_delta": {
        const signature = stringValue(delta.signature);
        if (this.kind !== "thinking" || signature === undefined) return false;
        // Each signature delta carries the whole signature (the SDKs replace, not append).
        this.signature = signature;
        return true;
      }
      case "citations_delta":
        if (this.kind !== "text" || !isRecord(delta.citation)) return false;
        this.citations.push(delta.citation);
        return true;
      default:
        return false;
    }
  }

  /** The non-streamed block, and the raw input text when it did not parse to an object. */
  build(): { block: JsonRecord; truncated?: string } {
    const block = copyRecord(this.start);
    switch (this.kind) {
      case "text":
        setOwn(block, "text", this.parts.join(""));
        if (this.citations.length > 0) {
          const earlier = Array.isArray(this.start.citations) ? this.start.citations : [];
          setOwn(block, "citations", [...earlier, ...this.citations]);
        }
        return { block };
      case "thinking":
        setOwn(block, "thinking", this.parts.join(""));
        if (this.signature !== undefined) setOwn(block, "signature", this.signature);
        return { block };
      case "tool":
        return this.buildTool(block);
      case "whole":
        return { block };
    }
  }

  /**
   * Tool input: the concatenated JSON text parsed into an object. Empty text means `{}` (a
   * call without arguments). Text that does not parse, typically cut short by max_tokens,
   * leaves `{}` and is returned raw so the caller can judge it.
   */
  private buildTool(block: JsonRecord): { block: JsonRecord; truncated?: string } {
    if (!this.jsonSeen) {
      if (!isRecord(block.input)) setOwn(block, "input", {});
      return { block };
    }
    const text = this.parts.join("");
    if (text.trim() === "") {
      setOwn(block, "input", {});
      return { block };
    }
    const input = parseJson(text);
    if (isRecord(input)) {
      setOwn(block, "input", input);
      return { block };
    }
    setOwn(block, "input", {});
    return { block, truncated: text };
  }

  private append(kind: BlockKind, value: unknown): boolean {
    if (this.kind !== kind || typeof value !== "string") return false;
    this.parts.push(value);
    return true;
  }
}
