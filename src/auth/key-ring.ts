import type { GuardConfig, KeyConfig, OrgConfig } from "../config/types.js";
import { errors, type GuardError } from "../errors/guard-error.js";
import { bearerToken, hashKey } from "./keys.js";

/** Who a request is: the organization its key proves, and the key itself. */
export interface Principal {
  readonly org: OrgConfig;
  readonly key: KeyConfig;
}

/** A key as the ring holds it: its expiry read once, when the configuration is swapped in. */
interface Entry {
  readonly principal: Principal;
  /** Epoch milliseconds; +Infinity for a key without `expires_at`. */
  readonly expiresAt: number;
}

export type AuthResult = { readonly ok: true; readonly principal: Principal } | { readonly ok: false; readonly error: GuardError };

/** Resolves bearer keys to organizations by their hash; never sees or keeps a key in plain text. */
export class KeyRing {
  #byHash = new Map<string, Entry>();

  constructor(config: GuardConfig) {
    this.replace(config);
  }

  /** Swaps in a new configuration at once: a revoked key stops working with the next request. */
  replace(config: GuardConfig): void {
    const byHash = new Map<string, Entry>();
    for (const org of config.orgs)
      for (const key of org.keys) {
        // The loader rejects an unparseable expiry; NaN here would only ever compare false.
        const expiresAt = key.expires_at === undefined ? Number.POSITIVE_INFINITY : Date.parse(key.expires_at);
        byHash.set(key.sha256, { principal: { org, key }, expiresAt });
      }
    this.#byHash = byHash;
  }

  /** Spec 5.6: missing, malformed, unknown, revoked or expired is 401; no subscription is 402. */
  authenticate(authorization: string | undefined, now: number): AuthResult {
    if (authorization === undefined) return { ok: false, error: errors.unauthorized("missing Authorization header") };
    const token = bearerToken(authorization);
    if (token === undefined) return { ok: false, error: errors.unauthorized("malformed Authorization header") };
    const entry = this.#byHash.get(hashKey(token));
    if (entry === undefined) return { ok: false, error: errors.unauthorized("unknown key") };
    const { principal, expiresAt } = entry;
    const { key, org } = principal;
    if (key.revoked === true) return { ok: false, error: errors.unauthorized("revoked key") };
    if (expiresAt <= now)
      return { ok: false, error: errors.unauthorized("expired key") };
    if (org.subscription !== "active") return { ok: false, error: errors.paymentRequired() };
    return { ok: true, principal };
  }
}
