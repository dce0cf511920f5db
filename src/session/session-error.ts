/** What went wrong, mapped to a Connect code at the service edge. */
export type SessionErrorCode = "invalid_argument" | "not_found";

/** The tracker's one error type: a code and a message safe to return to the caller. */
export class SessionError extends Error {
  readonly code: SessionErrorCode;

  constructor(code: SessionErrorCode, message: string) {
    super(message);
    this.name = "SessionError";
    this.code = code;
  }
}
