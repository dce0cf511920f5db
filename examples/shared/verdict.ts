/**
 * The parts of a Verdict (spec 2.3) that an enforcement point acts on. Only what the examples
 * read is typed; a caller ignores keys it does not understand (spec 9.4), so the verdict is
 * never validated more strictly than this.
 */

/** One redaction span (spec 2.5): `start`/`end` count code points in the string at `path`. */
export interface Span {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
}

/** How a block is rendered so that one refused step does not end the session (spec 2.7). */
export interface Continuation {
  readonly style: "drop_calls" | "withhold" | "answer";
  readonly paths?: readonly string[];
  readonly notice: string;
}

export interface Finding {
  readonly category: string;
  readonly severity: string;
  readonly path?: string;
  readonly start?: number;
  readonly end?: number;
}

export interface Verdict {
  readonly event_id: string;
  readonly decision: "allow" | "block";
  readonly findings?: readonly Finding[];
  readonly modifications?: { readonly spans: readonly Span[] };
  readonly unjudged?: readonly string[];
  readonly continuation?: Continuation;
  /** With `?payload=true`: `unchanged`, the fixed body, a refusal document, or SSE frames. */
  readonly payload?: unknown;
  readonly payload_stream?: boolean;
  readonly unresolved_spans?: number;
}

export type EventKind = "step/request" | "step/response";
export type LlmProtocol = "vendor_a.chat" | "vendor_b.messages";

/** The four identity fields every event carries (spec 2.1); empty strings assert nothing. */
export interface Identity {
  readonly agent_id: string;
  readonly agent_type: string;
  readonly agent_workspace: string;
  readonly agent_user: string;
}
