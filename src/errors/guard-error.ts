/**
 * The one error type of the HTTP edge. It carries the status, the stable `error` code of
 * spec section 7, the extra fields of that code's body, and the cause kept for logs only.
 * Handlers throw it; the bridge's error handler writes `body()` and nothing else.
 */
export type ErrorCode =
  | "invalid_event"
  | "invalid_body"
  | "identity_refused"
  | "unauthorized"
  | "payment_required"
  | "not_found"
  | "method_not_allowed"
  | "unsupported_media_type"
  | "payload_too_large"
  | "rate_limited"
  | "unavailable"
  | "internal";

export class GuardError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly fields: Readonly<Record<string, unknown>>;

  constructor(status: number, code: ErrorCode, message: string, fields: Record<string, unknown> = {}, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "GuardError";
    this.status = status;
    this.code = code;
    this.fields = fields;
  }

  /** The JSON body of the reply: `{error, ...fields}` (spec 7). */
  body(): Record<string, unknown> {
    return { error: this.code, ...this.fields };
  }

  /** Normalises anything thrown into a GuardError; unknown failures become a bodiless 500. */
  static from(thrown: unknown): GuardError {
    if (thrown instanceof GuardError) return thrown;
    return new GuardError(500, "internal", "internal error", {}, thrown);
  }
}

/** The catalogue: one constructor per error the service answers. */
export const errors = {
  invalidEvent: (details: unknown[]) =>
    new GuardError(400, "invalid_event", "event failed schema validation", { details }),
  invalidBody: (message: string, details?: unknown[]) =>
    new GuardError(400, "invalid_body", message, details ? { message, details } : { message }),
  identityRefused: (field: string, expected: string) =>
    new GuardError(400, "identity_refused", `key may not assert this ${field}`, { field, expected }),
  unauthorized: (why: string) => new GuardError(401, "unauthorized", why),
  paymentRequired: () => new GuardError(402, "payment_required", "organization has no active subscription"),
  notFound: (what: string) => new GuardError(404, "not_found", `no such route: ${what}`, { message: `no such route: ${what}` }),
  methodNotAllowed: (method: string, path: string, allowed: readonly string[]) =>
    new GuardError(405, "method_not_allowed", `${method} is not allowed on ${path}`, {
      message: `${method} is not allowed on ${path}`,
      allowed: [...allowed],
    }),
  unsupportedMediaType: (type: string) =>
    new GuardError(415, "unsupported_media_type", `content type ${type || "(none)"} is not accepted`, {
      message: `send Content-Type: application/json (got ${type || "none"})`,
    }),
  payloadTooLarge: (limitBytes: number) =>
    new GuardError(413, "payload_too_large", "request body over the organization's limit", {
      limit_bytes: limitBytes,
    }),
  rateLimited: (limit: number, scope: "key" | "org") =>
    new GuardError(429, "rate_limited", `${scope} rate limit exhausted`, { limit, scope }),
  unavailable: (why: string, cause?: unknown) => new GuardError(503, "unavailable", why, {}, cause),
};
