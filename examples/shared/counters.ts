/**
 * The named heartbeat counters of spec 2.9. They are cumulative since the integration
 * started, so a lost heartbeat loses nothing: the service compares each beat with the last
 * one it got, and reconciles `events_sent` against the events it actually received.
 */
export interface CounterSnapshot {
  readonly events_sent: number;
  readonly evaluate_errors: number;
  readonly unresolved_spans: number;
}

export class Counters {
  eventsSent = 0;
  /** Evaluations that produced no verdict: the integration ran degraded (spec 4.2 rule 3). */
  evaluateErrors = 0;
  /** Spans that named nothing the integration could apply (spec 2.5). */
  unresolvedSpans = 0;

  snapshot(): CounterSnapshot {
    return {
      events_sent: this.eventsSent,
      evaluate_errors: this.evaluateErrors,
      unresolved_spans: this.unresolvedSpans,
    };
  }
}
