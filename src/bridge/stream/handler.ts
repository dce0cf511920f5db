import type { FastifyReply, FastifyRequest } from "fastify";
import { evaluate } from "../../pipeline/evaluate.js";
import { principalOf } from "../auth-hooks.js";
import type { BridgeContext } from "../context.js";
import { verdictBody } from "../verdict-body.js";
import { completeEvent, readStreamHead, type StreamHead } from "./headers.js";
import { DISCARD, ingest } from "./ingest.js";
import type { StreamSettings } from "./settings.js";
import { streamPayload } from "./stream-payload.js";

/**
 * POST /v1/evaluate with `Content-Type: text/event-stream` (spec 4.1, "Streamed transport"):
 * the event's fields in `guard-*` headers, the provider's SSE frames as the body.
 *
 * Order of refusals matches the JSON route: auth, rate limit and a declared over-limit
 * length are refused by the hooks before this runs; the headers are validated before a byte
 * of the body is read; the reassembled event is validated like a JSON one before it is
 * judged. Without `?payload=true` the stream is consumed and the ordinary Verdict answered;
 * with it, the answer is itself an event stream (see stream-payload.ts).
 *
 * A client that disconnects aborts everything at once: the body stops being read, no
 * evaluation is started if the stream had not ended, and a running one is discarded.
 */
export async function handleStreamedEvaluate(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: BridgeContext,
  settings: StreamSettings,
  wantsPayload: boolean,
): Promise<void> {
  const aborted = new AbortController();
  const onClose = () => {
    if (!reply.raw.writableFinished) aborted.abort();
  };
  reply.raw.on("close", onClose);
  try {
    const head = readStreamHead(request);
    if (wantsPayload) await streamPayload({ request, reply, ctx, settings, head, signal: aborted.signal });
    else await verdictOnly(request, reply, ctx, head, aborted.signal);
  } catch (error) {
    drain(request.body);
    if (!aborted.signal.aborted) throw error;
  } finally {
    reply.raw.off("close", onClose);
    // Nothing is answered to a client that left; the bridge must not try either.
    if (aborted.signal.aborted && !reply.sent) reply.hijack();
  }
}

async function verdictOnly(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: BridgeContext,
  head: StreamHead,
  signal: AbortSignal,
): Promise<void> {
  const principal = principalOf(request);
  const limit = principal.org.limits.max_request_bytes;
  const reassembled = await ingest(request.body, head.protocol, undefined, limit, DISCARD, signal);
  const event = completeEvent(head, reassembled.body);
  const evaluation = await evaluate(ctx.pipeline, {
    principal,
    event,
    raw: Buffer.from(JSON.stringify(reassembled.body)),
    eventId: ctx.mintEventId(),
    receivedAt: request.receivedAt,
  });
  if (signal.aborted) return;
  await reply.type("application/json").send(JSON.stringify(verdictBody(evaluation, request.receivedAt)));
}

/** Lets an unread body flow to nowhere so the connection can finish (the byte limit still cuts it). */
function drain(body: unknown): void {
  const stream = body as { resume?: () => void; readableEnded?: boolean } | undefined;
  if (stream?.resume && !stream.readableEnded) stream.resume();
}

/** True for `text/event-stream`, with or without parameters. */
export function isEventStream(contentType: string | undefined): boolean {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() === "text/event-stream";
}
