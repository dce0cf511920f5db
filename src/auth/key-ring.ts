import type { GuardConfig, KeyConfig, OrgConfig } from "../config/types.js";
import { errors, type GuardError } from "../errors/guard-error.js";
import { bearerToken, hashKey } from "./keys.js";

/** Who a request is: the organization its key proves, and the key itself. */
export interface Principal {
  readonly org: OrgConfig;
  readonly key: KeyConfig;
}

export type AuthResult = { readonly ok: true; readonly principal: Principal } | { readonly ok: false; readonly error: GuardError };

/** Resolves bearer keys to organizations by their hash; never sees or keeps a key in plain text. */
export class KeyRing {
  #byHash = new Map<string, Principal>();

  constructor(config: GuardConfig) {
    this.replace(config);
  }

  /** Swaps in a new configuration at once: a revoked key stops working with the next request. */
  replace(config: GuardConfig): void {
    const byHash = new Map<string, Principal>();
    for (const org of config.orgs) for (const key of org.keys) byHash.set(key.sha256, { org, key });
    this.#byHash = byHash;
  }

  /** Spec 5.6: missing, malformed, unknown, revoked or expired is 401; no subscription is 402. */
  authenticate(authorization: string | undefined, now: number): AuthResult {
    if (authorization === undefined) return { ok: false, error: errors.unauthorized("missing Authorization header") };
    const token = bearerToken(authorization);
    if (token === undefined) return { ok: false, error: errors.unauthorized("malformed Authorization header") };
    const principal = this.#byHash.get(hashKey(token));
    if (principal === undefined) return { ok: false, error: errors.unauthorized("unknown key") };
    const { key, org } = principal;
    if (key.revoked === true) return { ok: false, error: errors.unauthorized("revoked key") };
    if (key.expires_at !== undefined && Date.parse(key.expires_at) <= now)
      return { ok: false, error: errors.unauthorized("expired key") };
    if (org.subscription !== "active") return { ok: false, error: errors.paymentRequired() };
    return { ok: true, principal };
  }
}
