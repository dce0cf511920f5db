import type { FastifyInstance } from "fastify";
import { validateEvent } from "../../contract/validate.js";
import { errors } from "../../errors/guard-error.js";
import { evaluate } from "../../pipeline/evaluate.js";
import { payloadOutcome } from "../../payload/outcome.js";
import { tokensIn } from "../../placeholders/tokens.js";
import type { GuardEvent } from "../../pipeline/event.js";
import { principalOf } from "../auth-hooks.js";
import type { BridgeContext } from "../context.js";
import { parseJsonBody } from "../json-body.js";
import { handleStreamedEvaluate, isEventStream } from "../stream/handler.js";
import { streamSettingsFromEnv } from "../stream/settings.js";
import { verdictBody } from "../verdict-body.js";

/** `?payload=true` (spec 4.1); any other value leaves the verdict as it is. */
function wantsPayload(query: unknown): boolean {
  return typeof query === "object" && query !== null && (query as Record<string, unknown>)["payload"] === "true";
}

/** POST /v1/evaluate: one GuardEvent in, one Verdict out (spec 4.1). */
export function registerEvaluate(app: FastifyInstance, ctx: BridgeContext): void {
  const streamSettings = streamSettingsFromEnv();
  app.post("/v1/evaluate", async (request, reply) => {
    // A `step/response` streamed as SSE, its fields in guard-* headers (spec 4.1).
    if (isEventStream(request.headers["content-type"]))
      return handleStreamedEvaluate(request, reply, ctx, streamSettings, wantsPayload(request.query));
    const principal = principalOf(request);
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const parsed = parseJsonBody(raw);
    if (!parsed.ok) throw errors.invalidEvent([{ code: "invalid_json", path: [], message: parsed.message }]);
    const checked = validateEvent(parsed.value);
    if (!checked.ok) throw errors.invalidEvent(checked.details);
    const evaluation = await evaluate(ctx.pipeline, {
      principal,
      event: parsed.value as GuardEvent,
      raw,
      eventId: ctx.mintEventId(),
      receivedAt: request.receivedAt,
    });
    const body = verdictBody(evaluation, request.receivedAt);
    if (wantsPayload(request.query)) {
      const event = parsed.value as GuardEvent;
      // Only a response gets placeholders restored; resolve the tokens it holds before rewriting.
      const originals =
        event.kind === "step/response"
          ? await ctx.pipeline.placeholders.resolve(evaluation.orgId, evaluation.agentId, tokensIn(event.payload))
          : new Map<string, string>();
      Object.assign(
        body,
        payloadOutcome({
          kind: event.kind,
          protocol: event.llm_protocol,
          payload: event.payload,
          composition: evaluation,
          streamRequested: evaluation.streamRequested,
          restore: (token) => originals.get(token),
          eventId: evaluation.eventId,
          now: ctx.now(),
        }),
      );
    }
    return reply.type("application/json").send(JSON.stringify(body));
  });
}
