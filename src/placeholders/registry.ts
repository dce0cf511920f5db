import type { SecretBox } from "../crypto/secret-box.js";
import type { Store } from "../store/store.js";
import { normaliseKind } from "./tokens.js";

/** The part of the store the registry needs. */
export type PlaceholderStore = Pick<Store, "claimPlaceholder" | "findPlaceholder">;

/**
 * Names redacted values with `${X_<KIND>_<n>}` (DESIGN.md decision 3): per agent (org +
 * agent_id) and kind, counting from 1; the same value always gets the same token for the
 * same agent, so a model sees one consistent name across steps. The store mints and keeps
 * them (sealed), so every replica agrees; this class caches what it has seen, so a value
 * or token seen before costs no round trip. Scopes never cross organizations: the value's
 * keyed hash and its sealing key are both derived per organization.
 */
export class PlaceholderRegistry {
  readonly #tokens = new Map<string, string>();
  readonly #values = new Map<string, string>();
  /** Tokens by the value itself (kept in memory like `#values`), checked before hashing it. */
  readonly #named = new Map<string, string>();

  constructor(
    private readonly box: SecretBox,
    private readonly store: PlaceholderStore,
    private readonly cacheEntries = 100_000,
  ) {}

  #remember(cache: Map<string, string>, key: string, value: string): void {
    // Dropping the whole cache at the bound keeps memory flat; the store still knows everything.
    if (cache.size >= this.cacheEntries) cache.clear();
    cache.set(key, value);
  }

  /** The agent's token for `value`, minting one on first sight. */
  async placeholderFor(orgId: string, agentId: string, kind: string, value: string): Promise<string> {
    const normalised = normaliseKind(kind);
    // A value already named for this agent costs no keyed hash (a re-sent history repeats them).
    const valueKey = `${orgId}\0${agentId}\0${normalised}\0${value}`;
    const named = this.#named.get(valueKey);
    if (named) return named;
    const mac = this.box.mac(`placeholder:${orgId}`, `${agentId}\0${normalised}\0${value}`);
    const cacheKey = `${orgId}\0${agentId}\0${mac}`;
    const cached = this.#tokens.get(cacheKey);
    if (cached) {
      this.#remember(this.#named, valueKey, cached);
      return cached;
    }
    const token = await this.store.claimPlaceholder({
      org_id: orgId,
      agent_id: agentId,
      kind: normalised,
      value_mac: mac,
      sealed: this.box.seal(`placeholder:${orgId}`, value),
    });
    this.#remember(this.#tokens, cacheKey, token);
    this.#remember(this.#named, valueKey, token);
    this.#remember(this.#values, `${orgId}\0${agentId}\0${token}`, value);
    return token;
  }

  /** The originals behind the given tokens of this agent; unknown tokens are left out. */
  async resolve(orgId: string, agentId: string, tokens: Iterable<string>): Promise<Map<string, string>> {
    const resolved = new Map<string, string>();
    for (const token of tokens) {
      const cacheKey = `${orgId}\0${agentId}\0${token}`;
      let value = this.#values.get(cacheKey);
      if (value === undefined) {
        const record = await this.store.findPlaceholder(orgId, agentId, token);
        if (!record) continue;
        value = this.box.open(`placeholder:${orgId}`, record.sealed);
        this.#remember(this.#values, cacheKey, value);
      }
      resolved.set(token, value);
    }
    return resolved;
  }
}
