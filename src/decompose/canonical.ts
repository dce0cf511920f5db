import { create } from "@bufbuild/protobuf";
import { Channel, type Usage, UsageSchema } from "../../gen/guard/v1/types_pb.js";
import type { Collector, TextContext } from "./collector.js";
import { DISCARD, MessageDigest, type PartSink } from "./digest.js";
import { declareToolList } from "./inventory.js";
import { countOf, isRecord, type JsonRecord, stringOf } from "./json.js";
import { childPath, ROOT } from "./path.js";
import { objectArguments } from "./tool-arguments.js";

/**
 * canonical: the caller's own transcription, exactly the tables of SPEC 2.2. Paths name
 * the canonical payload directly. Content is a string; anything else is not canonical
 * and is reported unjudged. One tolerance: an assistant message may repeat its calls as
 * `tool_calls` items of the response table (`id`, `name`, `arguments`), which lets a later
 * tool message carry its tool's name; without them the name is simply unknown.
 */

const ROLE_CHANNEL = new Map<string, Channel>([
  ["system", Channel.SYSTEM],
  ["user", Channel.USER],
  ["assistant", Channel.ASSISTANT_HISTORY],
  ["tool", Channel.TOOL_RESULT],
]);

/** Items of a `tool_calls` array: `id`, `name`, `arguments` (a real object, so offsets hold). */
function toolCalls(c: Collector, value: unknown, path: string, messageIndex: number, digest: PartSink): void {
  if (value === null || value === undefined) return;
  if (!Array.isArray(value)) {
    c.skip(path);
    return;
  }
  for (let k = 0; k < value.length; k++) {
    const callPath = childPath(path, k);
    const call: unknown = value[k];
    if (!isRecord(call)) {
      c.skip(callPath);
      continue;
    }
    const id = stringOf(call.id);
    const name = stringOf(call.name);
    const site = {
      id,
      name,
      path: callPath,
      argumentsPath: childPath(callPath, "arguments"),
      messageIndex,
      listed: true,
    };
    digest.part("call", id, name, objectArguments(c, site, call.arguments));
  }
}

function requestMessage(c: Collector, message: unknown, path: string, index: number): void {
  if (!isRecord(message)) {
    c.skip(path);
    return;
  }
  const role = stringOf(message.role);
  const channel = ROLE_CHANNEL.get(role);
  if (channel === undefined) {
    c.skip(path);
    return;
  }
  const digest = new MessageDigest(role);
  let ctx: TextContext = { channel, messageIndex: index };
  if (role === "tool") {
    const callId = stringOf(message.tool_call_id);
    ctx = { ...ctx, callId, toolName: c.toolNames.get(callId) ?? "" };
    digest.part("result", callId);
  }
  digest.part("text", c.text(ctx, message.content, childPath(path, "content")));
  if (role === "assistant") toolCalls(c, message.tool_calls, childPath(path, "tool_calls"), index, digest);
  c.entry(role, digest);
}

/** A canonical request: `messages` oldest first, `tools` with `name`, `description`, `schema`. */
export function canonicalRequest(c: Collector, body: JsonRecord): void {
  const path = childPath(ROOT, "messages");
  if (Array.isArray(body.messages)) {
    for (let i = 0; i < body.messages.length; i++) requestMessage(c, body.messages[i], childPath(path, i), i);
  } else if (body.messages !== undefined) {
    c.skip(path);
  }
  declareToolList(c, body.tools, childPath(ROOT, "tools"), "schema");
}

function usageOf(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  return create(UsageSchema, {
    inputTokens: countOf(value.input_tokens),
    cacheReadTokens: countOf(value.cache_read_tokens),
    cacheWriteTokens: countOf(value.cache_write_tokens),
    outputTokens: countOf(value.output_tokens),
    reasoningTokens: countOf(value.reasoning_tokens),
  });
}

/**
 * A canonical response: `text`, `reasoning`, `tool_calls`, `model`, `usage`. The table has
 * no finish reason, so the only one known is `tool_calls` when calls are present; otherwise
 * it stays empty (unknown) rather than claiming a clean `stop`.
 */
export function canonicalResponse(c: Collector, body: JsonRecord): void {
  c.text({ channel: Channel.PROSE, messageIndex: -1 }, body.text, childPath(ROOT, "text"));
  c.text({ channel: Channel.REASONING, messageIndex: -1 }, body.reasoning, childPath(ROOT, "reasoning"));
  toolCalls(c, body.tool_calls, childPath(ROOT, "tool_calls"), -1, DISCARD);
  c.usage = usageOf(body.usage);
  if (c.toolCalls.length > 0) c.finishReason = "tool_calls";
}
