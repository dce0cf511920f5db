import { create } from "@bufbuild/protobuf";
import { Channel, type Usage, UsageSchema } from "../../gen/guard/v1/types_pb.js";
import type { Collector, TextContext } from "./collector.js";
import { DISCARD, MessageDigest, type PartSink } from "./digest.js";
import { vendorBFinish } from "./finish-reason.js";
import { declareToolList } from "./inventory.js";
import { countOf, isRecord, type JsonRecord, jsonText, stringOf } from "./json.js";
import { walkStringLeaves } from "./leaves.js";
import { base64Bytes } from "./media.js";
import { childPath, ROOT } from "./path.js";
import { objectArguments } from "./tool-arguments.js";

/**
 * vendor_b.messages. Content is a string or an array of typed blocks; tool calls carry
 * `input` as a real object (its string leaves keep offsets); tool results travel as
 * `tool_result` blocks inside user messages; the system prompt is the top-level `system`.
 * Server tools run at the provider: their calls are judged but not listed as calls the
 * caller could refuse, and their results are judged as untrusted tool output.
 */

/** Which channel reasoning gets: the model's own in a response, history in a request. */
interface BlockMode {
  readonly thinking: Channel;
}

/** Leaves of server tool results that are identifiers or metadata, not text. */
const METADATA_KEYS = new Set(["type", "id", "tool_use_id", "file_id", "media_type", "page_age"]);

/** Reference of a media source for digests: inline data, URL or file id. */
function sourceRef(source: JsonRecord): string {
  return stringOf(source.data) || stringOf(source.url) || stringOf(source.file_id);
}

function media(c: Collector, kind: string, block: JsonRecord, path: string, digest: PartSink): void {
  const source = isRecord(block.source) ? block.source : {};
  c.mediaPart(kind, path, source.type === "base64" ? base64Bytes(stringOf(source.data)) : 0);
  digest.part("media", kind, sourceRef(source));
}

/** A document is text when its source is text or content blocks, media otherwise. */
function documentBlock(
  c: Collector,
  ctx: TextContext,
  mode: BlockMode,
  block: JsonRecord,
  path: string,
  digest: PartSink,
): void {
  // Title and context are judged texts of the message, so its digest covers them too.
  digest.part(
    "document_meta",
    c.text(ctx, block.title, childPath(path, "title")),
    c.text(ctx, block.context, childPath(path, "context")),
  );
  const source = block.source;
  const sourcePath = childPath(path, "source");
  if (isRecord(source) && source.type === "text") {
    digest.part("document", c.text(ctx, source.data, childPath(sourcePath, "data")));
  } else if (isRecord(source) && source.type === "content") {
    blocks(c, ctx, mode, source.content, childPath(sourcePath, "content"), digest);
  } else {
    media(c, "document", block, path, digest);
  }
}

function citations(c: Collector, ctx: TextContext, value: unknown, path: string, digest: PartSink): void {
  if (!Array.isArray(value)) return;
  // Cited text is quoted from a document or web page: untrusted like any tool output.
  const cited: TextContext = { ...ctx, channel: Channel.TOOL_RESULT };
  for (let k = 0; k < value.length; k++) {
    const citation: unknown = value[k];
    if (isRecord(citation)) {
      digest.part("cited", c.text(cited, citation.cited_text, childPath(childPath(path, k), "cited_text")));
    }
  }
}

/** A tool result's text context: its call's id, and the tool's name from that earlier call. */
function resultContext(c: Collector, ctx: TextContext, block: JsonRecord): TextContext & { callId: string } {
  const callId = stringOf(block.tool_use_id);
  return {
    channel: Channel.TOOL_RESULT,
    messageIndex: ctx.messageIndex,
    callId,
    toolName: c.toolNames.get(callId) ?? "",
  };
}

function toolResult(
  c: Collector,
  ctx: TextContext,
  mode: BlockMode,
  block: JsonRecord,
  path: string,
  digest: PartSink,
): void {
  const result = resultContext(c, ctx, block);
  digest.part("result", result.callId);
  if (block.is_error === true) digest.part("error");
  blocks(c, result, mode, block.content, childPath(path, "content"), digest);
}

/** Results of server tools (web search, fetch, code execution, ...): every text leaf is judged. */
function serverToolResult(
  c: Collector,
  ctx: TextContext,
  block: JsonRecord,
  path: string,
  digest: PartSink,
): void {
  const result = resultContext(c, ctx, block);
  const callId = result.callId;
  walkStringLeaves(block.content, childPath(path, "content"), {
    leaf: (text, leafPath, key, plain) => {
      const last = key.slice(key.lastIndexOf(".") + 1);
      // Encrypted page content reaches the model but cannot be read here: say so.
      if (last.startsWith("encrypted_")) c.skip(leafPath);
      else if (!METADATA_KEYS.has(last)) c.segment(result, { path: leafPath, text, addressable: plain });
    },
    tooDeep: (deepPath) => c.skip(deepPath),
  });
  digest.part("result", callId, jsonText(block.content).text);
}

function block(
  c: Collector,
  ctx: TextContext,
  mode: BlockMode,
  value: unknown,
  path: string,
  digest: PartSink,
): void {
  if (!isRecord(value)) {
    c.skip(path);
    return;
  }
  const type = stringOf(value.type);
  switch (type) {
    case "text":
      digest.part("text", c.text(ctx, value.text, childPath(path, "text")));
      citations(c, ctx, value.citations, childPath(path, "citations"), digest);
      return;
    case "image":
      media(c, "image", value, path, digest);
      return;
    case "document":
      documentBlock(c, ctx, mode, value, path, digest);
      return;
    case "search_result": {
      const found: TextContext = { ...ctx, channel: Channel.TOOL_RESULT };
      digest.part("search_result", c.text(found, value.title, childPath(path, "title")));
      blocks(c, found, mode, value.content, childPath(path, "content"), digest);
      return;
    }
    case "thinking":
      digest.part(
        "thinking",
        c.text({ ...ctx, channel: mode.thinking }, value.thinking, childPath(path, "thinking")),
      );
      return;
    case "redacted_thinking":
      // Encrypted by the provider: the model reads it, nobody else can.
      c.skip(path);
      digest.part("redacted_thinking", stringOf(value.data));
      return;
    case "tool_use":
    case "server_tool_use":
    case "mcp_tool_use": {
      const id = stringOf(value.id);
      const name = stringOf(value.name);
      const argumentsPath = childPath(path, "input");
      const site = {
        id,
        name,
        path,
        argumentsPath,
        messageIndex: ctx.messageIndex,
        listed: type === "tool_use",
      };
      digest.part("call", id, name, objectArguments(c, site, value.input));
      return;
    }
    case "tool_result":
      toolResult(c, ctx, mode, value, path, digest);
      return;
    default:
      if (type.endsWith("_tool_result")) serverToolResult(c, ctx, value, path, digest);
      else c.skip(path);
  }
}

/** Content as a string or an array of blocks. */
function blocks(
  c: Collector,
  ctx: TextContext,
  mode: BlockMode,
  value: unknown,
  path: string,
  digest: PartSink,
): void {
  if (typeof value === "string") {
    c.text(ctx, value, path);
    digest.part("text", value);
    return;
  }
  if (value === null || value === undefined) return;
  if (!Array.isArray(value)) {
    c.skip(path);
    return;
  }
  for (let j = 0; j < value.length; j++) block(c, ctx, mode, value[j], childPath(path, j), digest);
}

/** A user message made only of tool results is the provider's way of sending `tool` messages. */
function conversationRole(role: string, content: unknown): string {
  if (role !== "user" || !Array.isArray(content) || content.length === 0) return role;
  return content.every((b) => isRecord(b) && b.type === "tool_result") ? "tool" : role;
}

const HISTORY: BlockMode = { thinking: Channel.ASSISTANT_HISTORY };

function requestMessage(c: Collector, message: unknown, path: string, index: number): void {
  if (!isRecord(message)) {
    c.skip(path);
    return;
  }
  const role = stringOf(message.role);
  if (role !== "user" && role !== "assistant") {
    c.skip(path);
    return;
  }
  const digest = new MessageDigest(conversationRole(role, message.content));
  const ctx: TextContext = {
    channel: role === "user" ? Channel.USER : Channel.ASSISTANT_HISTORY,
    messageIndex: index,
  };
  blocks(c, ctx, HISTORY, message.content, childPath(path, "content"), digest);
  c.entry(conversationRole(role, message.content), digest);
}

function declaredTools(c: Collector, body: JsonRecord): void {
  declareToolList(c, body.tools, childPath(ROOT, "tools"), "input_schema");
}

/** A messages request: top-level system (the first conversation entry), messages, tools. */
export function vendorBMessagesRequest(c: Collector, body: JsonRecord): void {
  if (body.system !== undefined && body.system !== null) {
    const digest = new MessageDigest("system");
    const ctx: TextContext = { channel: Channel.SYSTEM, messageIndex: -1 };
    blocks(c, ctx, HISTORY, body.system, childPath(ROOT, "system"), digest);
    c.entry("system", digest);
  }
  const path = childPath(ROOT, "messages");
  if (Array.isArray(body.messages)) {
    for (let i = 0; i < body.messages.length; i++) requestMessage(c, body.messages[i], childPath(path, i), i);
  } else if (body.messages !== undefined) {
    c.skip(path);
  }
  declaredTools(c, body);
}

function usageOf(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const input = countOf(value.input_tokens);
  const read = countOf(value.cache_read_input_tokens);
  const write = countOf(value.cache_creation_input_tokens);
  const details = isRecord(value.output_tokens_details) ? value.output_tokens_details : {};
  const reported = input !== undefined || read !== undefined || write !== undefined;
  return create(UsageSchema, {
    // input_tokens excludes cached tokens here; the contract's input is the total.
    inputTokens: reported ? (input ?? 0n) + (read ?? 0n) + (write ?? 0n) : undefined,
    cacheReadTokens: read,
    cacheWriteTokens: write,
    outputTokens: countOf(value.output_tokens),
    reasoningTokens: countOf(details.thinking_tokens),
  });
}

/** A messages response: prose, thinking, tool calls, server tool traffic, stop reason, usage. */
export function vendorBMessagesResponse(c: Collector, body: JsonRecord): void {
  c.usage = usageOf(body.usage);
  c.finishReason = vendorBFinish(stringOf(body.stop_reason));
  const ctx: TextContext = { channel: Channel.PROSE, messageIndex: -1 };
  blocks(c, ctx, { thinking: Channel.REASONING }, body.content, childPath(ROOT, "content"), DISCARD);
}
