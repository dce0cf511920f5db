import { create } from "@bufbuild/protobuf";
import { type DecomposeResponse, DecomposeResponseSchema } from "../../gen/guard/v1/decompose_pb.js";
import { EventKind, LlmProtocol } from "../../gen/guard/v1/types_pb.js";
import { canonicalRequest, canonicalResponse } from "./canonical.js";
import { Collector } from "./collector.js";
import { type Digester, HASH_EVERY } from "./digest.js";
import { isRecord, type JsonRecord, stringOf } from "./json.js";
import { ROOT } from "./path.js";
import { resolveProtocol } from "./sniff.js";
import { vendorAChatRequest, vendorAChatResponse } from "./vendor-a-chat.js";
import { vendorAResponsesRequest, vendorAResponsesResponse } from "./vendor-a-responses.js";
import { vendorBMessagesRequest, vendorBMessagesResponse } from "./vendor-b-messages.js";

type Parser = (c: Collector, body: JsonRecord) => void;

const PARSERS = new Map<LlmProtocol, { readonly request: Parser; readonly response: Parser }>([
  [LlmProtocol.VENDOR_A_CHAT, { request: vendorAChatRequest, response: vendorAChatResponse }],
  [LlmProtocol.VENDOR_B_MESSAGES, { request: vendorBMessagesRequest, response: vendorBMessagesResponse }],
  [LlmProtocol.CANONICAL, { request: canonicalRequest, response: canonicalResponse }],
  [LlmProtocol.VENDOR_A_RESPONSES, { request: vendorAResponsesRequest, response: vendorAResponsesResponse }],
]);

/** The `timing` key a caller may add is read elsewhere and never judged. */
function withoutTiming(body: JsonRecord): JsonRecord {
  if (!("timing" in body)) return body;
  const { timing: _timing, ...rest } = body;
  return rest;
}

/** True when an unrecognised payload still holds something that could have been judged. */
function holdsContent(payload: unknown): boolean {
  if (payload === undefined) return false;
  return !isRecord(payload) || Object.keys(withoutTiming(payload)).length > 0;
}

function run(kind: EventKind, claimed: LlmProtocol, payload: unknown, digester: Digester): DecomposeResponse {
  const c = new Collector(digester);
  const resolution = resolveProtocol(kind, claimed, payload);
  const parsers = PARSERS.get(resolution.protocol);
  if (isRecord(payload)) {
    c.model = stringOf(payload.model);
    c.streamRequested = payload.stream === true;
  }
  const parse =
    kind === EventKind.STEP_REQUEST
      ? parsers?.request
      : kind === EventKind.STEP_RESPONSE
        ? parsers?.response
        : undefined;
  if (resolution.recognised && parse !== undefined && isRecord(payload)) parse(c, withoutTiming(payload));
  else if (holdsContent(payload)) c.skip(ROOT);
  // A literal with every field, as `create` would make it, without copying each list again.
  return {
    $typeName: "guard.v1.DecomposeResponse",
    segments: c.segments,
    toolCalls: c.toolCalls,
    unjudged: c.unjudged,
    finishReason: kind === EventKind.STEP_RESPONSE ? c.finishReason : "",
    model: c.model,
    usage: c.usage,
    protocol: resolution.protocol,
    protocolMismatch: resolution.mismatch,
    media: c.media,
    conversation: c.conversation,
    streamRequested: c.streamRequested,
  };
}

/**
 * Takes a raw provider body apart into judged segments (SPEC 1, 2.2). Pure, and total
 * over every JSON value: what is not understood is skipped and named in `unjudged`, never
 * thrown. The catch is the last line of that promise: should a parser still fail on some
 * shape nobody foresaw, the event is reported wholly unjudged ("could not look") instead
 * of failing the evaluation. `digester` turns each message's digest input into its digest
 * (repeated-digests.ts recalls those of an agent's last request instead of hashing them again).
 */
export function decompose(
  kind: EventKind,
  claimed: LlmProtocol,
  payload: unknown,
  digester: Digester = HASH_EVERY,
): DecomposeResponse {
  try {
    return run(kind, claimed, payload, digester);
  } catch {
    return create(DecomposeResponseSchema, { unjudged: [ROOT], protocol: claimed });
  }
}
