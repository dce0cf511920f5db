import type { FastifyRequest } from "fastify";
import { validateEvent } from "../../contract/validate.js";
import type { ValidationIssue } from "../../contract/validate.js";
import { errors } from "../../errors/guard-error.js";
import type { GuardEvent } from "../../pipeline/event.js";
import { isStreamProtocol, type StreamProtocol } from "../../stream/index.js";

/**
 * The event fields of a streamed `step/response` (spec 4.1, "Streamed transport"): carried
 * in `guard-*` headers because the body is the provider's SSE frames. The headers are turned
 * into the same GuardEvent a JSON caller sends and validated by the same schema, so a
 * streamed event is refused for exactly the reasons a JSON one would be, with `details`
 * naming the event field (and the header in the message).
 */

export type FailMode = "open" | "closed";

/** Everything read from the headers: the event without its payload, and the stream knobs. */
export interface StreamHead {
  readonly fields: Omit<GuardEvent, "payload" | "llm_protocol"> & Record<string, unknown>;
  readonly protocol: StreamProtocol;
  readonly headReleaseBytes: number;
  readonly failMode: FailMode;
}

/** The spec's default head release (4.1, "reference default 32 bytes"). */
export const DEFAULT_HEAD_RELEASE_BYTES = 32;

/** Header -> event field, for the fields that are strings in the event. */
const FIELD_HEADERS: readonly (readonly [string, string])[] = [
  ["guard-kind", "kind"],
  ["guard-step-id", "step_id"],
  ["guard-llm-protocol", "llm_protocol"],
  ["guard-session-hint", "session_hint"],
  ["guard-connection", "connection"],
  ["guard-llm-endpoint", "llm_endpoint"],
  ["guard-initiator", "initiator"],
  ["guard-integration", "integration"],
];

/** Identity headers: absent means the empty string ("assert nothing"), as the spec says. */
const IDENTITY_HEADERS: readonly (readonly [string, string])[] = [
  ["guard-agent-id", "agent_id"],
  ["guard-agent-type", "agent_type"],
  ["guard-agent-workspace", "agent_workspace"],
  ["guard-agent-user", "agent_user"],
];

const HEADER_OF: ReadonlyMap<string, string> = new Map(
  [...FIELD_HEADERS, ...IDENTITY_HEADERS].map(([header, field]) => [field, header]),
);

/** One header value; a repeated header is refused rather than guessed at. */
function headerValue(request: FastifyRequest, name: string, issues: ValidationIssue[]): string | undefined {
  const value = request.headers[name];
  if (Array.isArray(value)) {
    issues.push({ code: "invalid_value", path: [name], message: `header ${name} was sent more than once` });
    return value[0];
  }
  return value;
}

/** The event as far as headers describe it; `payload` is a placeholder until the stream ends. */
function eventFromHeaders(request: FastifyRequest, issues: ValidationIssue[]): Record<string, unknown> {
  const event: Record<string, unknown> = {};
  for (const [header, field] of FIELD_HEADERS) {
    const value = headerValue(request, header, issues);
    if (value !== undefined) event[field] = value;
  }
  for (const [header, field] of IDENTITY_HEADERS) event[field] = headerValue(request, header, issues) ?? "";
  return event;
}

function parseHeadBytes(raw: string | undefined, issues: ValidationIssue[]): number {
  if (raw === undefined) return DEFAULT_HEAD_RELEASE_BYTES;
  const value = /^[0-9]{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (Number.isSafeInteger(value)) return value;
  issues.push({
    code: "invalid_value",
    path: ["guard-head-release-bytes"],
    message: `header guard-head-release-bytes must be an integer >= 0, got ${JSON.stringify(raw)}`,
  });
  return DEFAULT_HEAD_RELEASE_BYTES;
}

function parseFailMode(raw: string | undefined, issues: ValidationIssue[]): FailMode {
  if (raw === undefined) return "open";
  const value = raw.trim().toLowerCase();
  if (value === "open" || value === "closed") return value;
  issues.push({
    code: "invalid_enum_value",
    path: ["guard-fail-mode"],
    message: `header guard-fail-mode must be "open" or "closed", got ${JSON.stringify(raw)}`,
  });
  return "open";
}

/** Names the header behind an event field in a schema message, so the caller knows what to fix. */
function withHeader(issue: ValidationIssue): ValidationIssue {
  const field = issue.path[0];
  const header = typeof field === "string" ? HEADER_OF.get(field) : undefined;
  return header === undefined ? issue : { ...issue, message: `header ${header}: ${issue.message}` };
}

/**
 * Reads and validates the headers of a streamed evaluate. Throws the 400 `invalid_event`
 * a JSON event with the same fields would get, plus refusals for the stream-only rules:
 * only `step/response` can be streamed, only the two decodable protocols, and well-formed
 * head-release and fail-mode values.
 */
export function readStreamHead(request: FastifyRequest): StreamHead {
  const issues: ValidationIssue[] = [];
  const event = eventFromHeaders(request, issues);
  const headReleaseBytes = parseHeadBytes(headerValue(request, "guard-head-release-bytes", issues), issues);
  const failMode = parseFailMode(headerValue(request, "guard-fail-mode", issues), issues);
  const checked = validateEvent({ ...event, payload: {} });
  if (!checked.ok) issues.push(...checked.details.map(withHeader));
  if (event.kind !== undefined && event.kind !== "step/response" && checked.ok) {
    issues.push({
      code: "invalid_value",
      path: ["kind"],
      message: "header guard-kind: only step/response can be streamed; send a step/request as JSON",
    });
  }
  const protocol = String(event.llm_protocol ?? "");
  if (checked.ok && !isStreamProtocol(protocol)) {
    issues.push({
      code: "invalid_value",
      path: ["llm_protocol"],
      message: `header guard-llm-protocol: ${protocol} has no streamed form this service decodes; stream vendor_a.chat or vendor_b.messages, or send the reassembled body as JSON`,
    });
  }
  if (issues.length > 0 || !isStreamProtocol(protocol)) throw errors.invalidEvent(issues);
  const { llm_protocol: _protocol, ...fields } = event;
  return { fields: fields as StreamHead["fields"], protocol, headReleaseBytes, failMode };
}

/** The complete event: header fields plus the reassembled body, validated like a JSON one. */
export function completeEvent(head: StreamHead, body: Record<string, unknown>): GuardEvent {
  const event = { ...head.fields, llm_protocol: head.protocol, payload: body };
  const checked = validateEvent(event);
  if (!checked.ok) throw errors.invalidEvent(checked.details);
  return event as GuardEvent;
}
