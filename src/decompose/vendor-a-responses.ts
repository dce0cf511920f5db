import { create } from "@bufbuild/protobuf";
import { Channel, type Usage, UsageSchema } from "../../gen/guard/v1/types_pb.js";
import type { Collector } from "./collector.js";
import { boundedJson, countOf, isRecord, type JsonRecord, stringOf } from "./json.js";
import { ROOT } from "./path.js";

/**
 * vendor_a.responses: accepted and recorded, not decomposed (SPEC 2.2). A request is
 * judged only as a dump of its JSON text cut at DUMP_CHARS, so detectors still see the
 * start of what is sent; the dump is not a leaf of the body, hence not addressable, and
 * when it was cut the whole `payload` is named unjudged. A response yields no judged text
 * and names `payload` unjudged; its model, usage and finish reason are still read because
 * sessions need them to count tokens and to see a max-tokens stop.
 */

/** Size of the judged dump: 64 KiB counted in UTF-16 units, never splitting a surrogate pair. */
export const DUMP_CHARS = 64 * 1024;

/** Nesting followed by the dump; deeper structure is cut like an over-long body. */
const DUMP_DEPTH = 256;

export function vendorAResponsesRequest(c: Collector, body: JsonRecord): void {
  const dump = boundedJson(body, DUMP_DEPTH, DUMP_CHARS);
  // Channel USER: the dump mixes every role, and a user instruction is the strictest reading.
  c.segment({ channel: Channel.USER, messageIndex: -1 }, { path: ROOT, text: dump.text, addressable: false });
  if (dump.truncated) c.skip(ROOT);
}

function usageOf(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const input = isRecord(value.input_tokens_details) ? value.input_tokens_details : {};
  const output = isRecord(value.output_tokens_details) ? value.output_tokens_details : {};
  return create(UsageSchema, {
    inputTokens: countOf(value.input_tokens),
    cacheReadTokens: countOf(input.cached_tokens),
    outputTokens: countOf(value.output_tokens),
    reasoningTokens: countOf(output.reasoning_tokens),
  });
}

/** Finish reason from `status`, `incomplete_details.reason` and whether a function call was asked for. */
function finishOf(body: JsonRecord): string {
  const status = stringOf(body.status);
  if (status === "incomplete") {
    const reason = isRecord(body.incomplete_details) ? stringOf(body.incomplete_details.reason) : "";
    return reason === "max_output_tokens" ? "max_tokens" : reason || status;
  }
  if (status !== "completed") return status;
  const calls =
    Array.isArray(body.output) && body.output.some((item) => isRecord(item) && item.type === "function_call");
  return calls ? "tool_calls" : "stop";
}

export function vendorAResponsesResponse(c: Collector, body: JsonRecord): void {
  c.skip(ROOT);
  c.usage = usageOf(body.usage);
  c.finishReason = finishOf(body);
}
