import type { Composition } from "../compose/wire.js";
import type { GuardEvent } from "../pipeline/event.js";
import { dropCalls, withhold } from "./carry-out.js";
import { refusalDocument, refusalStream } from "./refusal.js";
import { type PlaceholderLookup, rewriteBody } from "./rewrite.js";

export interface PayloadOutcomeInput {
  readonly kind: GuardEvent["kind"];
  readonly protocol: GuardEvent["llm_protocol"];
  readonly payload: Record<string, unknown>;
  readonly composition: Composition;
  /** The request asked the provider to stream: a refusal then goes out as SSE frames. */
  readonly streamRequested: boolean;
  /** The agent's placeholder registry, for restoring what the model wrote back. */
  readonly restore: PlaceholderLookup;
  readonly eventId: string;
  readonly now: number;
}

/** The fields `?payload=true` adds to the Verdict (spec 4.1). */
export interface PayloadOutcome {
  payload?: unknown;
  payload_stream?: boolean;
  unresolved_spans: number;
}

const DEFAULT_NOTICE = "Guard refused this step.";

/**
 * The table of spec 4.1 for `?payload=true`: `unchanged`, the fixed body on allow, the
 * carried-out continuation on block, a refusal document in the caller's protocol, SSE
 * frames for a streaming request, or nothing for a blocked canonical event.
 */
export function payloadOutcome(input: PayloadOutcomeInput): PayloadOutcome {
  const { composition, kind, protocol, payload } = input;
  const restore = kind === "step/response" ? input.restore : undefined;

  if (composition.decision === "allow") {
    const rewritten = rewriteBody(payload, composition.spans, restore);
    const changed = rewritten.applied + rewritten.restored > 0;
    return { payload: changed ? rewritten.payload : "unchanged", unresolved_spans: rewritten.unresolved };
  }

  // A canonical body has no client protocol to render a refusal or a carried-out body into.
  if (protocol === "canonical") return { unresolved_spans: 0 };

  const continuation = composition.continuation;
  const decomposable = protocol !== "vendor_a.responses";
  if (continuation?.style === "withhold" && kind === "step/request" && decomposable) {
    const withheld = new Set(continuation.paths);
    const spans = composition.spans.filter((s) => !withheld.has(s.path));
    const rewritten = rewriteBody(payload, spans);
    const carried = withhold(rewritten.payload, continuation.paths, continuation.notice);
    return { payload: carried.payload, unresolved_spans: rewritten.unresolved };
  }
  if (continuation?.style === "drop_calls" && kind === "step/response" && decomposable) {
    // Spans first: their offsets index the body as sent, before any call is removed.
    const rewritten = rewriteBody(payload, composition.spans, restore);
    const carried = dropCalls(protocol, rewritten.payload, continuation.paths, continuation.notice);
    return { payload: carried.payload, unresolved_spans: rewritten.unresolved };
  }

  const context = {
    eventId: input.eventId,
    model: typeof payload["model"] === "string" ? payload["model"] : "guard",
    notice: continuation?.notice ?? DEFAULT_NOTICE,
    created: Math.floor(input.now / 1000),
  };
  if (kind === "step/request" && input.streamRequested)
    return { payload: refusalStream(protocol, context), payload_stream: true, unresolved_spans: 0 };
  return { payload: refusalDocument(protocol, context), unresolved_spans: 0 };
}
