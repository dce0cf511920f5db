import type { Evaluation } from "../pipeline/evaluate.js";

/**
 * The Verdict as written on the wire (spec 2.3). `responded_at` is taken here, the instant
 * the verdict is serialised; `latency_ms` covers the evaluation alone.
 */
export function verdictBody(evaluation: Evaluation, receivedAt: Date): Record<string, unknown> {
  const body: Record<string, unknown> = {
    event_id: evaluation.eventId,
    provider: evaluation.provider,
    decision: evaluation.decision,
    latency_ms: Math.round(evaluation.latencyMs * 1000) / 1000,
    timing: { received_at: receivedAt.toISOString(), responded_at: new Date().toISOString() },
    findings: evaluation.findings,
    modifications: { spans: evaluation.spans },
    unjudged: evaluation.unjudged,
  };
  if (evaluation.obligations && evaluation.obligations.length > 0) body["obligations"] = evaluation.obligations;
  if (evaluation.continuation) body["continuation"] = evaluation.continuation;
  return body;
}
