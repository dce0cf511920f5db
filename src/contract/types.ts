/**
 * TypeScript shapes of the external JSON contract, written to match `openapi/schemas/*.json`
 * (the schemas are the authority; these types only let code that received a validated body, or that
 * builds a response, say so to the compiler).
 */

export type EventKind = "step/request" | "step/response";
export type LlmProtocol = "vendor_a.chat" | "vendor_a.responses" | "vendor_b.messages" | "canonical";

/** SPEC 2.1. */
export interface GuardEvent {
  kind: EventKind;
  step_id: string;
  agent_id: string;
  agent_type: string;
  agent_workspace: string;
  agent_user: string;
  llm_protocol: LlmProtocol;
  payload: Record<string, unknown>;
  integration?: string;
  connection?: string;
  session_hint?: string;
  obligation_results?: unknown;
  redaction?: unknown;
  initiator?: unknown;
  llm_endpoint?: unknown;
  transport?: unknown;
}

export type Severity = "low" | "medium" | "high" | "critical";

/** SPEC 2.4. */
export interface Finding {
  category: string;
  severity?: Severity;
  path?: string;
  start?: number;
  end?: number;
  score?: number;
  detector?: string;
  fp?: string;
  whitelisted?: boolean;
  subject?: string;
}

/** SPEC 2.5. */
export interface Span {
  path: string;
  start: number;
  end: number;
  replacement: string;
}

/** SPEC 2.6. */
export interface Obligation {
  id: string;
  type: "scan_artifact";
  call_id: string;
  artifact: { kind: "file" | "package" | "url" | "text"; locator: string; declared_type?: string };
  provider_hint?: string;
  on_unfulfilled: "flag" | "block";
  expires_at?: string;
}

/** SPEC 2.7. */
export interface Continuation {
  style: "drop_calls" | "withhold" | "answer";
  paths?: string[];
  notice: string;
}

/** SPEC 2.8. */
export interface VerdictTiming {
  received_at: string;
  responded_at: string;
}

/** SPEC 2.3, with the `?payload=true` additions of 4.1. */
export interface Verdict {
  event_id: string;
  provider: string;
  decision: "allow" | "block";
  latency_ms?: number;
  timing?: VerdictTiming;
  findings?: Finding[];
  modifications?: { spans: Span[] };
  unjudged?: string[];
  obligations?: Obligation[];
  continuation?: Continuation;
  payload?: Record<string, unknown> | string;
  payload_stream?: boolean;
  unresolved_spans?: number;
}

/** SPEC 2.9. */
export interface HeartbeatRequest {
  integration?: string;
  agent_id?: string;
  interval_s?: number;
  counters?: Record<string, number>;
  [extra: string]: unknown;
}

/** SPEC 2.10. */
export interface Limits {
  max_request_bytes: number;
  media: { image: number; audio: number; document: number; file: number; video: number };
  media_parts_max: number;
}

export type ErrorCode =
  | "invalid_event"
  | "identity_refused"
  | "invalid_body"
  | "unauthorized"
  | "payment_required"
  | "payload_too_large"
  | "rate_limited"
  | "not_found"
  | "method_not_allowed"
  | "unsupported_media_type";

/** SPEC 7: every error body. */
export interface ErrorBody {
  error: ErrorCode;
  message?: string;
  details?: Array<{ code: string; keys?: string[]; path: (string | number)[]; message: string }>;
  field?: "agent_id" | "agent_workspace";
  expected?: string;
  limit_bytes?: number;
  limit?: number;
  scope?: "key" | "org";
}

/** GET /v1/health (SPEC 4.3 leaves the body open; see openapi/schemas/health.json). */
export interface HealthBody {
  status: "ok";
  version: string;
  uptime_s: number;
}
