import { Channel } from "../../gen/guard/v1/types_pb.js";
import type { Collector, TextContext } from "./collector.js";
import { isRecord, jsonText } from "./json.js";
import { walkStringLeaves } from "./leaves.js";

/** Where a tool call sits and who it is. */
export interface CallSite {
  readonly id: string;
  readonly name: string;
  /** Path of the call element (`payload.choices.0.message.tool_calls.1`). */
  readonly path: string;
  /** Path of the arguments value (object or JSON-encoded string). */
  readonly argumentsPath: string;
  readonly messageIndex: number;
  /**
   * False for calls the provider already ran itself (vendor_b server tools): their
   * arguments are judged, but they are not calls the caller could still refuse.
   */
  readonly listed: boolean;
}

function argumentsContext(call: CallSite): TextContext {
  return {
    channel: Channel.TOOL_CALL_ARGUMENTS,
    messageIndex: call.messageIndex,
    toolName: call.name,
    callId: call.id,
  };
}

function record(c: Collector, call: CallSite, argumentsJson: string, argumentsValid: boolean): void {
  if (call.listed) {
    c.toolCall({
      id: call.id,
      name: call.name,
      path: call.path,
      argumentsPath: call.argumentsPath,
      argumentsJson,
      argumentsValid,
    });
  } else if (call.id !== "") {
    c.toolNames.set(call.id, call.name);
  }
}

/**
 * Arguments sent as a real JSON value (vendor_b `input`, canonical `arguments`): every
 * string leaf is a verbatim leaf of the body, so its segment is addressable at its own
 * path and findings keep offsets. Returns the arguments as JSON text for digests.
 */
export function objectArguments(c: Collector, call: CallSite, value: unknown): string {
  const ctx = argumentsContext(call);
  walkStringLeaves(value, call.argumentsPath, {
    leaf: (text, path, key, plain) => c.segment(ctx, { path, text, addressable: plain, argumentKey: key }),
    tooDeep: (path) => c.skip(path),
  });
  if (value === undefined) {
    record(c, call, "", false);
    return "";
  }
  const json = jsonText(value);
  record(c, call, json.tooDeep ? "" : json.text, !json.tooDeep);
  return json.text;
}

/**
 * Arguments sent JSON-encoded inside a string (vendor_a `function.arguments`). The inner
 * values are judged, but none of them is a leaf of the body: every segment names the
 * encoded string's path, is not addressable (findings carry no offsets, no span is ever
 * aimed into the string) and says which inner key it came from. Text that does not parse
 * is judged whole, as the raw string. Returns parsed-and-re-encoded JSON for digests, so
 * the same call digests alike whatever its whitespace.
 */
export function encodedArguments(c: Collector, call: CallSite, raw: unknown): string {
  if (typeof raw !== "string") {
    // Some gateways forward the object itself; then it is a real leaf tree after all.
    if (isRecord(raw) || Array.isArray(raw)) return objectArguments(c, call, raw);
    if (raw !== undefined && raw !== null) c.skip(call.argumentsPath);
    record(c, call, "", false);
    return "";
  }
  const ctx = argumentsContext(call);
  // A call without parameters is often sent with "" for arguments: that is an empty object.
  if (raw.trim() === "") {
    record(c, call, "{}", true);
    return "{}";
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    c.segment(ctx, { path: call.argumentsPath, text: raw, addressable: false });
    record(c, call, raw, false);
    return raw;
  }
  walkStringLeaves(parsed, call.argumentsPath, {
    leaf: (text, _path, key) =>
      c.segment(ctx, { path: call.argumentsPath, text, addressable: false, argumentKey: key }),
    tooDeep: () => c.skip(call.argumentsPath),
  });
  record(c, call, raw, true);
  const canonical = jsonText(parsed);
  return canonical.tooDeep ? raw : canonical.text;
}
