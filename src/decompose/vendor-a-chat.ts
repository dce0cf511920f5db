import { create } from "@bufbuild/protobuf";
import { Channel, type Usage, UsageSchema } from "../../gen/guard/v1/types_pb.js";
import type { Collector, TextContext } from "./collector.js";
import { DISCARD, MessageDigest, type PartSink } from "./digest.js";
import { vendorAFinish } from "./finish-reason.js";
import { declareTool, declareToolList } from "./inventory.js";
import { countOf, isRecord, type JsonRecord, stringOf } from "./json.js";
import { base64Bytes, inlineBytes, urlBytes } from "./media.js";
import { childPath, ROOT } from "./path.js";
import { encodedArguments, objectArguments } from "./tool-arguments.js";

/**
 * vendor_a.chat (chat completions). Content is a string or an array of typed parts;
 * assistant tool calls carry their arguments JSON-encoded in a string; tool results are
 * `tool` messages naming the call by `tool_call_id`. Legacy `function` roles and
 * `function_call` fields are still read, since old clients and gateways send them.
 */

const ROLE_CHANNEL = new Map<string, Channel>([
  ["system", Channel.SYSTEM],
  ["developer", Channel.SYSTEM],
  ["user", Channel.USER],
  ["assistant", Channel.ASSISTANT_HISTORY],
  ["tool", Channel.TOOL_RESULT],
  ["function", Channel.TOOL_RESULT],
]);

/** Conversation roles: a developer prompt is a system prompt, a function result a tool result. */
const CONVERSATION_ROLE = new Map<string, string>([
  ["developer", "system"],
  ["function", "tool"],
]);

/** Content as a string or a parts array, judged with the context of its message. */
function content(c: Collector, ctx: TextContext, value: unknown, path: string, digest: PartSink): void {
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
  for (let j = 0; j < value.length; j++) contentPart(c, ctx, value[j], childPath(path, j), digest);
}

function contentPart(c: Collector, ctx: TextContext, part: unknown, path: string, digest: PartSink): void {
  if (!isRecord(part)) {
    c.skip(path);
    return;
  }
  switch (part.type) {
    case "text":
      digest.part("text", c.text(ctx, part.text, childPath(path, "text")));
      return;
    case "refusal":
      digest.part("refusal", c.text(ctx, part.refusal, childPath(path, "refusal")));
      return;
    case "image_url": {
      const url = isRecord(part.image_url) ? stringOf(part.image_url.url) : stringOf(part.image_url);
      c.mediaPart("image", path, urlBytes(url));
      digest.part("media", "image", url);
      return;
    }
    case "input_audio": {
      const data = isRecord(part.input_audio) ? stringOf(part.input_audio.data) : "";
      c.mediaPart("audio", path, base64Bytes(data));
      digest.part("media", "audio", data);
      return;
    }
    case "file": {
      const file = isRecord(part.file) ? part.file : {};
      const data = stringOf(file.file_data);
      c.mediaPart("file", path, data === "" ? 0 : inlineBytes(data));
      digest.part("media", "file", data === "" ? stringOf(file.file_id) : data);
      return;
    }
    default:
      c.skip(path);
  }
}

/** Tool calls of an assistant message, in a request's history or a response. */
function toolCalls(c: Collector, value: unknown, path: string, messageIndex: number, digest: PartSink): void {
  if (value === null || value === undefined) return;
  if (!Array.isArray(value)) {
    c.skip(path);
    return;
  }
  for (let k = 0; k < value.length; k++) {
    const callPath = childPath(path, k);
    const call = value[k];
    if (!isRecord(call)) {
      c.skip(callPath);
      continue;
    }
    const id = stringOf(call.id);
    // Custom tools take free text: `custom.input` is a verbatim string leaf, so it stays addressable.
    const custom = call.custom;
    if (isRecord(custom)) {
      const name = stringOf(custom.name);
      const argumentsPath = childPath(childPath(callPath, "custom"), "input");
      const site = { id, name, path: callPath, argumentsPath, messageIndex, listed: true };
      digest.part("call", id, name, objectArguments(c, site, custom.input));
      continue;
    }
    const fn = call.function;
    if (!isRecord(fn)) {
      c.skip(callPath);
      continue;
    }
    const name = stringOf(fn.name);
    const argumentsPath = childPath(childPath(callPath, "function"), "arguments");
    const site = { id, name, path: callPath, argumentsPath, messageIndex, listed: true };
    digest.part("call", id, name, encodedArguments(c, site, fn.arguments));
  }
}

/** The legacy single `function_call` of an assistant message (no call id). */
function functionCall(
  c: Collector,
  value: unknown,
  path: string,
  messageIndex: number,
  digest: PartSink,
): void {
  if (value === null || value === undefined) return;
  if (!isRecord(value)) {
    c.skip(path);
    return;
  }
  const name = stringOf(value.name);
  const site = {
    id: "",
    name,
    path,
    argumentsPath: childPath(path, "arguments"),
    messageIndex,
    listed: true,
  };
  digest.part("call", "", name, encodedArguments(c, site, value.arguments));
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
  const digest = new MessageDigest(CONVERSATION_ROLE.get(role) ?? role);
  let ctx: TextContext = { channel, messageIndex: index };
  if (role === "tool") {
    const callId = stringOf(message.tool_call_id);
    ctx = { ...ctx, callId, toolName: c.toolNames.get(callId) ?? "" };
    digest.part("result", callId);
  } else if (role === "function") {
    ctx = { ...ctx, toolName: stringOf(message.name) };
    digest.part("result", stringOf(message.name));
  }
  content(c, ctx, message.content, childPath(path, "content"), digest);
  if (role === "assistant") {
    const refusal = c.text(ctx, message.refusal, childPath(path, "refusal"));
    if (refusal !== "") digest.part("refusal", refusal);
    toolCalls(c, message.tool_calls, childPath(path, "tool_calls"), index, digest);
    functionCall(c, message.function_call, childPath(path, "function_call"), index, digest);
  }
  c.entry(CONVERSATION_ROLE.get(role) ?? role, digest);
}

function declaredTools(c: Collector, body: JsonRecord): void {
  const toolsPath = childPath(ROOT, "tools");
  if (Array.isArray(body.tools)) {
    for (let i = 0; i < body.tools.length; i++) {
      const path = childPath(toolsPath, i);
      const tool: unknown = body.tools[i];
      const inner = isRecord(tool)
        ? isRecord(tool.function)
          ? "function"
          : isRecord(tool.custom)
            ? "custom"
            : ""
        : "";
      if (!isRecord(tool) || inner === "") {
        c.skip(path);
        continue;
      }
      const decl = tool[inner] as JsonRecord;
      const declPath = childPath(path, inner);
      const schemaKey = inner === "function" ? "parameters" : "format";
      declareTool(c, {
        name: decl.name,
        namePath: childPath(declPath, "name"),
        description: decl.description,
        descriptionPath: childPath(declPath, "description"),
        schema: decl[schemaKey],
        schemaPath: childPath(declPath, schemaKey),
      });
    }
  } else if (body.tools !== undefined && body.tools !== null) {
    c.skip(toolsPath);
  }
  // Legacy `functions`: the declaration itself is the array item.
  declareToolList(c, body.functions, childPath(ROOT, "functions"), "parameters");
}

/** A chat-completions request: the conversation and the declared tools. */
export function vendorAChatRequest(c: Collector, body: JsonRecord): void {
  const path = childPath(ROOT, "messages");
  if (Array.isArray(body.messages)) {
    for (let i = 0; i < body.messages.length; i++) requestMessage(c, body.messages[i], childPath(path, i), i);
  } else if (body.messages !== undefined) {
    c.skip(path);
  }
  declaredTools(c, body);
}

function responseMessage(c: Collector, message: JsonRecord, path: string): void {
  const prose: TextContext = { channel: Channel.PROSE, messageIndex: -1 };
  const reasoning: TextContext = { channel: Channel.REASONING, messageIndex: -1 };
  // Gateways that normalise other providers to this shape put reasoning in one of these.
  c.text(reasoning, message.reasoning_content, childPath(path, "reasoning_content"));
  c.text(reasoning, message.reasoning, childPath(path, "reasoning"));
  content(c, prose, message.content, childPath(path, "content"), DISCARD);
  c.text(prose, message.refusal, childPath(path, "refusal"));
  const audio = message.audio;
  if (isRecord(audio)) {
    c.text(prose, audio.transcript, childPath(childPath(path, "audio"), "transcript"));
    const data = stringOf(audio.data);
    if (data !== "") c.mediaPart("audio", childPath(path, "audio"), base64Bytes(data));
  }
  toolCalls(c, message.tool_calls, childPath(path, "tool_calls"), -1, DISCARD);
  functionCall(c, message.function_call, childPath(path, "function_call"), -1, DISCARD);
}

function usageOf(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const prompt = isRecord(value.prompt_tokens_details) ? value.prompt_tokens_details : {};
  const completion = isRecord(value.completion_tokens_details) ? value.completion_tokens_details : {};
  return create(UsageSchema, {
    // prompt_tokens already counts cached tokens: it is the total input.
    inputTokens: countOf(value.prompt_tokens),
    cacheReadTokens: countOf(prompt.cached_tokens),
    outputTokens: countOf(value.completion_tokens),
    reasoningTokens: countOf(completion.reasoning_tokens),
  });
}

/**
 * A chat-completions response. Every choice is judged (n > 1 gives `choices.<i>` paths);
 * the finish reason is that of choice 0, the one clients present. A refusal ends with
 * `stop` on the wire, and is reported as `refusal` so sessions can tell the two apart.
 */
export function vendorAChatResponse(c: Collector, body: JsonRecord): void {
  c.usage = usageOf(body.usage);
  const path = childPath(ROOT, "choices");
  if (!Array.isArray(body.choices)) {
    if (body.choices !== undefined && body.choices !== null) c.skip(path);
    return;
  }
  for (let i = 0; i < body.choices.length; i++) {
    const choicePath = childPath(path, i);
    const choice: unknown = body.choices[i];
    if (!isRecord(choice)) {
      c.skip(choicePath);
      continue;
    }
    const message = choice.message;
    if (isRecord(message)) responseMessage(c, message, childPath(choicePath, "message"));
    else if (message !== undefined && message !== null) c.skip(childPath(choicePath, "message"));
    if (i === 0) {
      const finish = vendorAFinish(stringOf(choice.finish_reason));
      const refused = isRecord(message) && typeof message.refusal === "string" && message.refusal !== "";
      c.finishReason = finish === "stop" && refused ? "refusal" : finish;
    }
  }
}
