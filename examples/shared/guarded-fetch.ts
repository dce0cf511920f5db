import { randomUUID } from "node:crypto";
import type { Dialect } from "./dialect.js";
import type { EvaluateOutcome, Fetch, GuardClient } from "./guard-client.js";
import { isRecord, withoutTiming, withTiming } from "./raw-json.js";
import { applySpans } from "./spans.js";
import type { Identity, Verdict } from "./verdict.js";

export type FailMode = "open" | "closed";

/** What happened to one model call, for logs and tests. */
export interface StepRecord {
  readonly stepId: string;
  request?: HalfRecord;
  response?: HalfRecord;
  /** False when the model was never called (a block on `step/request` without `withhold`). */
  modelCalled: boolean;
}

export interface HalfRecord {
  /** `none` means no verdict came back and the fail mode decided. */
  readonly decision: "allow" | "block" | "none";
  readonly continuation?: string;
  readonly spans: number;
  readonly unjudged: number;
}

export interface GuardedFetchOptions {
  readonly guard: GuardClient;
  readonly dialect: Dialect;
  readonly identity: Identity;
  /** What a missing verdict costs (spec 4.1); open unless the deployment says otherwise. */
  readonly failMode?: FailMode;
  /** Where each model call's record is appended. */
  readonly steps: StepRecord[];
  /** The transport to the model; defaults to the global fetch. */
  readonly upstream?: Fetch;
}

/** What the SDK is handed: the model's bytes untouched, SSE frames Guard rendered, or a body. */
type Answer =
  | { readonly raw: string }
  | { readonly sse: string }
  | { readonly body: Record<string, unknown> };

/**
 * A `fetch` for the provider SDK that carries out spec 4.1's recipe around every model call.
 * The SDK builds and serializes the request; this function sees the exact bytes it would
 * send, so Guard judges what the model would really receive, not a reconstruction:
 *
 * 1. mint a fresh `step_id`;
 * 2. evaluate `step/request` with the captured body; apply the spans (code points) or, on a
 *    block, forward Guard's `withhold` body or answer the SDK with Guard's refusal without
 *    calling the model;
 * 3. call the model with the fixed body;
 * 4. evaluate `step/response` with the complete body (a stream is held whole and reassembled
 *    here, from the raw bytes) and hand the SDK Guard's fixed body: placeholders restored,
 *    blocked tool calls dropped (`?payload=true`), re-framed as SSE when the SDK streamed.
 *
 * Because the SDK only ever sees the fixed reply, the agent loop runs exactly the tool calls
 * the verdict allowed. Heartbeats (step 5) run on their own timer (shared/heartbeat.ts).
 */
export function guardedFetch(options: GuardedFetchOptions): Fetch {
  const upstream = options.upstream ?? globalThis.fetch;
  const failMode = options.failMode ?? "open";
  const { dialect, guard } = options;

  const evaluate = (kind: "step/request" | "step/response", stepId: string, rawPayload: string) =>
    guard.evaluate({
      kind,
      stepId,
      protocol: dialect.protocol,
      identity: options.identity,
      rawPayload,
    });

  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const rawRequest = typeof init?.body === "string" ? init.body : undefined;
    if (rawRequest === undefined || init?.method !== "POST" || !dialect.isModelCall(url))
      return upstream(input, init);

    const record: StepRecord = { stepId: randomUUID(), modelCalled: false };
    options.steps.push(record);
    const parsedRequest = JSON.parse(rawRequest) as Record<string, unknown>;
    const model = typeof parsedRequest["model"] === "string" ? parsedRequest["model"] : "model";
    const streamed = parsedRequest["stream"] === true;

    // Step 2: judge the request the SDK built.
    const requestOutcome = await evaluate("step/request", record.stepId, rawRequest);
    record.request = summarize(requestOutcome);
    const toSend = requestToSend(requestOutcome, rawRequest, parsedRequest, model, failMode, dialect, guard);
    if ("refusal" in toSend) return respond(toSend.refusal, streamed, dialect);

    // Step 3: call the model with the fixed body.
    const headers = new Headers(init.headers);
    headers.delete("content-length");
    const startedAt = new Date().toISOString();
    const reply = await upstream(input, { ...init, headers, body: toSend.body });
    record.modelCalled = true;
    if (!reply.ok) return reply; // A provider error carries no content to judge; the SDK reports it.
    const { text: rawReply, firstChunkAt } = await readWhole(reply);
    const isStream = (reply.headers.get("content-type") ?? "").includes("text/event-stream");

    // Step 4: judge the complete response; a stream is reassembled from the bytes received.
    const body = isStream ? JSON.stringify(dialect.reassemble(rawReply)) : rawReply;
    const timing = {
      started_at: startedAt,
      ...(isStream && firstChunkAt ? { first_token_at: firstChunkAt } : {}),
      completed_at: new Date().toISOString(),
    };
    const responseOutcome = await evaluate("step/response", record.stepId, withTiming(body, timing));
    record.response = summarize(responseOutcome);
    return respond(
      responseToDeliver(responseOutcome, rawReply, model, failMode, dialect, guard),
      isStream,
      dialect,
    );
  };
}

/** The request body to send, or the refusal to answer with instead of calling the model. */
function requestToSend(
  outcome: EvaluateOutcome,
  raw: string,
  parsed: Record<string, unknown>,
  model: string,
  failMode: FailMode,
  dialect: Dialect,
  guard: GuardClient,
): { body: string } | { refusal: Answer } {
  if (!outcome.ok) {
    if (failMode === "open") return { body: raw };
    return { refusal: { body: dialect.textReply(failedClosedNotice(outcome.reason), model) } };
  }
  const { verdict } = outcome;
  if (verdict.decision === "allow") {
    // The caller applies the spans itself (spec 4.1 table): Guard's copy would be identical.
    const spans = verdict.modifications?.spans ?? [];
    if (spans.length === 0) return { body: raw };
    const { applied, unresolved } = applySpans(parsed, spans);
    guard.counters.unresolvedSpans += unresolved;
    return { body: applied > 0 ? JSON.stringify(parsed) : raw };
  }
  // `withhold`: Guard replaced the offending text with its notice; the request goes on.
  if (verdict.continuation?.style === "withhold" && isRecord(verdict.payload))
    return { body: JSON.stringify(verdict.payload) };
  return { refusal: refusalOf(verdict, model, dialect) };
}

/** What the SDK gets back for a model reply, following the `?payload=true` table of spec 4.1. */
function responseToDeliver(
  outcome: EvaluateOutcome,
  raw: string,
  model: string,
  failMode: FailMode,
  dialect: Dialect,
  guard: GuardClient,
): Answer {
  if (!outcome.ok) {
    // Fail open: the reply goes through unjudged; it may still hold placeholders, since only
    // Guard can restore them.
    return failMode === "open"
      ? { raw }
      : { body: dialect.textReply(failedClosedNotice(outcome.reason), model) };
  }
  const { verdict } = outcome;
  guard.counters.unresolvedSpans += verdict.unresolved_spans ?? 0;
  if (verdict.payload === "unchanged") return { raw };
  if (isRecord(verdict.payload)) return { body: withoutTiming(verdict.payload) };
  if (verdict.decision === "allow") return { raw };
  return { body: dialect.textReply(verdict.continuation?.notice ?? "Guard refused this step.", model) };
}

/** Guard's rendered refusal: a document, or SSE frames for a streamed request (spec 4.1). */
function refusalOf(verdict: Verdict, model: string, dialect: Dialect): Answer {
  if (typeof verdict.payload === "string" && verdict.payload_stream) return { sse: verdict.payload };
  if (isRecord(verdict.payload)) return { body: verdict.payload };
  return { body: dialect.textReply(verdict.continuation?.notice ?? "Guard refused this step.", model) };
}

function failedClosedNotice(reason: string): string {
  return `Guard could not judge this step (${reason}) and this deployment fails closed.`;
}

/** A Response the SDK parses as the model's answer: JSON, or SSE when it asked for a stream. */
function respond(answer: Answer, streamed: boolean, dialect: Dialect): Response {
  let text: string;
  if ("raw" in answer) text = answer.raw;
  else if ("sse" in answer) text = answer.sse;
  else text = streamed ? dialect.toSse(answer.body) : JSON.stringify(answer.body);
  return new Response(text, {
    status: 200,
    headers: { "content-type": streamed ? "text/event-stream" : "application/json" },
  });
}

/** Reads a reply whole, noting when its first bytes arrived (`timing.first_token_at`). */
async function readWhole(reply: Response): Promise<{ text: string; firstChunkAt?: string }> {
  if (!reply.body) return { text: "" };
  const decoder = new TextDecoder();
  let text = "";
  let firstChunkAt: string | undefined;
  for await (const chunk of reply.body) {
    firstChunkAt ??= new Date().toISOString();
    text += decoder.decode(chunk as Uint8Array, { stream: true });
  }
  text += decoder.decode();
  return firstChunkAt ? { text, firstChunkAt } : { text };
}

function summarize(outcome: EvaluateOutcome): HalfRecord {
  if (!outcome.ok) return { decision: "none", spans: 0, unjudged: 0 };
  const { verdict } = outcome;
  return {
    decision: verdict.decision,
    ...(verdict.continuation ? { continuation: verdict.continuation.style } : {}),
    spans: verdict.modifications?.spans.length ?? 0,
    unjudged: verdict.unjudged?.length ?? 0,
  };
}
