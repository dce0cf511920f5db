import type { FastifyReply, FastifyRequest } from "fastify";
import { GuardError } from "../../errors/guard-error.js";
import { type Evaluation, evaluate } from "../../pipeline/evaluate.js";
import type { RefusalContext } from "../../payload/refusal.js";
import { HeadRelease, type SseFrame } from "../../stream/index.js";
import { principalOf } from "../auth-hooks.js";
import type { BridgeContext } from "../context.js";
import { completeEvent, type StreamHead } from "./headers.js";
import { dropHeldCalls } from "./held-drop.js";
import { StreamText } from "./held-rewrite.js";
import { ingest } from "./ingest.js";
import { judge } from "./judge.js";
import { ReleasedView } from "./released-view.js";
import { formFor, refusalTail } from "./refusal-tail.js";
import type { StreamSettings } from "./settings.js";
import { SseResponse } from "./sse-response.js";
import { terminated, type VerdictLine, verdictLine } from "./verdict-line.js";

/**
 * The `?payload=true` form of the streamed transport (spec 4.1): frames go out live while
 * the bounded head release allows, the rest is held; keepalives cover the wait; at the end
 * the held frames are released (placeholders restored, spans applied) or the stream ends in
 * one of the four refusal forms; the verdict rides the last line.
 *
 * What a missing verdict costs is the caller's `guard-fail-mode`: `open` releases the held
 * frames as received (with no verdict there is no agent placement to restore placeholders
 * from), `closed` ends with the refusal. A fail-closed caller also treats an `allow` whose
 * `unjudged` is not empty as a failure to judge (spec 4.1, enforcement rules).
 */
export interface StreamPayloadInput {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly ctx: BridgeContext;
  readonly settings: StreamSettings;
  readonly head: StreamHead;
  readonly signal: AbortSignal;
}

const BLOCK_NOTICE = "Guard refused this step.";
const UNJUDGED_NOTICE = "Guard could not judge this response, so it was withheld.";
const UNREDACTED_NOTICE = "Guard could not redact this streamed response, so it was withheld.";
const TOO_LARGE_NOTICE = "The response was larger than Guard accepts, so it was withheld.";

export async function streamPayload(input: StreamPayloadInput): Promise<void> {
  const { request, reply, ctx, settings, head, signal } = input;
  const principal = principalOf(request);
  const limit = principal.org.limits.max_request_bytes;
  const eventId = ctx.mintEventId();
  const out = new SseResponse(reply, signal);
  const view = new ReleasedView(head.protocol);
  const release = new HeadRelease(head.headReleaseBytes);
  const released: SseFrame[] = [];
  const held: SseFrame[] = [];
  let model = "guard";
  const line = (fields: Omit<VerdictLine, "step_id" | "event_id" | "llm_protocol">) =>
    verdictLine({ ...fields, step_id: String(head.fields.step_id), event_id: eventId, llm_protocol: head.protocol });
  const refuse = (notice: string, fields: Omit<VerdictLine, "step_id" | "event_id" | "llm_protocol">) => {
    const context: RefusalContext = { eventId, model, notice, created: Math.floor(ctx.now() / 1000) };
    return out.end(refusalTail(head.protocol, formFor(release.state), view, context) + line(fields));
  };
  /** Before anything went out an error is still answered as JSON; afterwards it ends the stream. */
  const fail = (error: unknown): Promise<void> => {
    if (signal.aborted) return Promise.resolve();
    if (!out.committed || !(error instanceof GuardError)) throw error;
    const notice = error.code === "payload_too_large" ? TOO_LARGE_NOTICE : BLOCK_NOTICE;
    return refuse(notice, { decision: "block", error: error.code });
  };

  out.startKeepalive(settings.keepaliveMs);
  try {
    let evaluation: Promise<Evaluation>;
    try {
      const sink = {
        release: async (frame: SseFrame) => {
          view.observe(frame);
          released.push(frame);
          await out.write(terminated(frame.raw));
        },
        hold: (frame: SseFrame) => {
          held.push(frame);
        },
      };
      const reassembled = await ingest(request.body, head.protocol, release, limit, sink, signal);
      if (typeof reassembled.body.model === "string") model = reassembled.body.model;
      const event = completeEvent(head, reassembled.body);
      evaluation = evaluate(ctx.pipeline, {
        principal,
        event,
        raw: Buffer.from(JSON.stringify(reassembled.body)),
        eventId,
        receivedAt: request.receivedAt,
      });
    } catch (error) {
      return await fail(error);
    }
    const judgement = await judge(evaluation, settings.judgeTimeoutMs, signal);
    switch (judgement.kind) {
      case "aborted":
        return;
      case "refused":
        return await fail(judgement.error);
      case "missing":
        return await unjudged();
      case "verdict":
        return await conclude(judgement.evaluation);
    }
  } finally {
    out.stopKeepalive();
  }

  /** No verdict to act on: the caller's fail mode decides. */
  async function unjudged(): Promise<void> {
    if (head.failMode === "closed") return refuse(UNJUDGED_NOTICE, { decision: "block", unjudged: true });
    out.stopKeepalive();
    for (const frame of held) await out.write(terminated(frame.raw));
    return out.end(line({ decision: "allow", unjudged: true }));
  }

  /**
   * `drop_calls` on the held tail (see held-drop.ts), after placeholders are restored and spans
   * applied as on `allow`; undefined when it cannot be carried out without editing what went out.
   */
  async function dropped(evaluation: Evaluation, paths: readonly string[], notice: string): Promise<string[] | undefined> {
    const text = new StreamText(head.protocol, released, held);
    try {
      const originals = await ctx.pipeline.placeholders.resolve(evaluation.orgId, evaluation.agentId, text.tokens());
      const rewrite = text.rewrite(evaluation.spans, originals);
      if (rewrite.unresolved > 0) return undefined;
      return dropHeldCalls(head.protocol, released, rewrite.raws, paths, notice);
    } catch (error) {
      request.log.warn({ err: error }, "carrying out drop_calls on a streamed response failed");
      return undefined;
    }
  }

  async function conclude(evaluation: Evaluation): Promise<void> {
    if (evaluation.decision === "block") {
      if (evaluation.continuation?.style === "drop_calls") {
        const kept = await dropped(evaluation, evaluation.continuation.paths, evaluation.continuation.notice);
        if (signal.aborted) return;
        if (kept) {
          out.stopKeepalive();
          for (const raw of kept) await out.write(terminated(raw));
          return out.end(line({ decision: "block" }));
        }
      }
      return refuse(evaluation.continuation?.notice ?? BLOCK_NOTICE, { decision: "block" });
    }
    if (head.failMode === "closed" && evaluation.unjudged.length > 0) {
      return refuse(UNJUDGED_NOTICE, { decision: "block", unjudged: true });
    }
    const text = new StreamText(head.protocol, released, held);
    let originals: Map<string, string>;
    try {
      originals = await ctx.pipeline.placeholders.resolve(evaluation.orgId, evaluation.agentId, text.tokens());
    } catch (error) {
      request.log.warn({ err: error }, "placeholder restoration failed on a streamed response");
      return unjudged();
    }
    if (signal.aborted) return;
    const rewrite = text.rewrite(evaluation.spans, originals);
    // Releasing text the verdict said to redact would leak it: a span that cannot be applied withholds the tail.
    if (rewrite.unresolved > 0) {
      return refuse(UNREDACTED_NOTICE, { decision: "allow", unresolved_spans: rewrite.unresolved });
    }
    out.stopKeepalive();
    for (const raw of rewrite.raws) await out.write(terminated(raw));
    return out.end(line({ decision: "allow" }));
  }
}
