import type { ValidateFunction } from "ajv";
import { type IssueHints, type ValidationIssue, issuesFromAjv } from "./issues.js";
import { removedKeyNote, removedKindNote } from "./removed-fields.js";
import { loadContract, schemaId } from "./schemas.js";
import type { GuardEvent, HeartbeatRequest, Verdict } from "./types.js";

/**
 * The validators the HTTP bridge runs on bodies it received (events, heartbeats) and tests run on
 * bodies the service produced (verdicts and the rest). They check against the published schema
 * files themselves, so what is served under /schema/v1/ is exactly what is enforced.
 */

export type { IssueCode, IssuePath, ValidationIssue } from "./issues.js";

/** Success carries the body typed; failure carries the `details` of a 400. */
export type ValidationResult<T = unknown> =
  | { ok: true; value: T }
  | { ok: false; details: ValidationIssue[] };

/** Names of the schema files under openapi/schemas/ (without `.json`). */
export type SchemaName =
  | "guard-event"
  | "verdict"
  | "finding"
  | "span"
  | "obligation"
  | "continuation"
  | "verdict-timing"
  | "heartbeat"
  | "heartbeat-response"
  | "limits"
  | "limits-response"
  | "error"
  | "health";

const IDENTITY_FIELDS: ReadonlySet<string> = new Set([
  "agent_id",
  "agent_type",
  "agent_workspace",
  "agent_user",
]);

/** Event refusals explain removed pre-1.0 fields and how to assert "nothing" for an identity field. */
const EVENT_HINTS: IssueHints = {
  unrecognizedKey: (path, key) => (path.length === 0 ? removedKeyNote(key) : undefined),
  enumValue: (path, value) => (path.length === 1 && path[0] === "kind" ? removedKindNote(value) : undefined),
  missing: (path, key) =>
    path.length === 0 && IDENTITY_FIELDS.has(key)
      ? 'every event carries the four identity fields; send "" to assert nothing'
      : undefined,
};

/** A GuardEvent (SPEC 2.1): a single closed JSON object. */
export function validateEvent(body: unknown): ValidationResult<GuardEvent> {
  if (Array.isArray(body)) {
    return refuseRoot("the event must be a single JSON object, not an array: batches are never accepted");
  }
  return validateAs<GuardEvent>("guard-event", body, "the event", EVENT_HINTS);
}

/** A heartbeat request (SPEC 2.9): integration or agent_id (or both) must be present. */
export function validateHeartbeat(body: unknown): ValidationResult<HeartbeatRequest> {
  return validateAs<HeartbeatRequest>("heartbeat", body, "the heartbeat");
}

/** A Verdict as the service answers it, including the `?payload=true` additions. */
export function validateVerdict(v: unknown): ValidationResult<Verdict> {
  return validateAs<Verdict>("verdict", v, "the verdict");
}

/** Any body against the named schema; for responses other than the verdict (errors, limits, health). */
export function validateAs<T>(
  name: SchemaName,
  body: unknown,
  subject = `the ${name}`,
  hints: IssueHints = {},
): ValidationResult<T> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return refuseRoot(`${subject} must be a JSON object, got ${describe(body)}`);
  }
  const validate = compiled(name);
  if (validate(body)) return { ok: true, value: body as T };
  return { ok: false, details: issuesFromAjv(validate.errors ?? [], body, subject, hints) };
}

function refuseRoot(message: string): { ok: false; details: ValidationIssue[] } {
  return { ok: false, details: [{ code: "invalid_type", path: [], message }] };
}

function describe(body: unknown): string {
  if (body === null) return "null";
  if (Array.isArray(body)) return "an array";
  return `a ${typeof body}`;
}

function compiled(name: SchemaName): ValidateFunction {
  const validate = loadContract().ajv.getSchema(schemaId(name));
  if (validate === undefined) throw new Error(`contract: schema ${name} is not loaded`);
  return validate;
}
