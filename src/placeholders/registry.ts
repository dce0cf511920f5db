import type { SecretBox } from "../crypto/secret-box.js";
import type { PlaceholderRecord } from "../store/records.js";

/** Where new placeholders are persisted; the store implements it. */
export interface PlaceholderSink {
  recordPlaceholder(record: PlaceholderRecord): Promise<void>;
}

function mapFor(maps: Map<string, Map<string, string>>, key: string): Map<string, string> {
  let map = maps.get(key);
  if (!map) {
    map = new Map();
    maps.set(key, map);
  }
  return map;
}

/**
 * Mints `${X_<KIND>_<n>}` tokens (DESIGN.md decision 3): per agent (org + agent_id) and
 * kind, counting from 1; the same value always gets the same token for the same agent, so
 * a model sees one consistent name across steps. Originals are kept sealed at rest.
 */
export class PlaceholderRegistry {
  /** `${org}\0${agent}` -> value mac -> placeholder */
  readonly #byValue = new Map<string, Map<string, string>>();
  /** `${org}\0${agent}` -> placeholder -> sealed value */
  readonly #byPlaceholder = new Map<string, Map<string, string>>();
  /** `${org}\0${agent}\0${kind}` -> last ordinal */
  readonly #ordinals = new Map<string, number>();

  constructor(
    private readonly box: SecretBox,
    private readonly sink: PlaceholderSink,
    existing: readonly PlaceholderRecord[] = [],
  ) {
    for (const record of existing) this.#remember(record);
  }

  #remember(record: PlaceholderRecord): void {
    const agentKey = `${record.org_id}\0${record.agent_id}`;
    mapFor(this.#byValue, agentKey).set(record.value_mac, record.placeholder);
    mapFor(this.#byPlaceholder, agentKey).set(record.placeholder, record.sealed);
    const parsed = /^\$\{X_([A-Z0-9_]+)_(\d+)\}$/.exec(record.placeholder);
    if (parsed?.[1] && parsed[2]) {
      const ordinalKey = `${agentKey}\0${parsed[1]}`;
      this.#ordinals.set(ordinalKey, Math.max(this.#ordinals.get(ordinalKey) ?? 0, Number(parsed[2])));
    }
  }

  /** The agent's placeholder for `value`, minting (and persisting) one on first sight. */
  placeholderFor(orgId: string, agentId: string, kind: string, value: string): string {
    const agentKey = `${orgId}\0${agentId}`;
    const mac = this.box.mac(`placeholder:${orgId}`, `${agentId}\0${kind}\0${value}`);
    const known = this.#byValue.get(agentKey)?.get(mac);
    if (known) return known;
    const safeKind = kind.toUpperCase().replace(/[^A-Z0-9_]/g, "_") || "VALUE";
    const ordinalKey = `${agentKey}\0${safeKind}`;
    const ordinal = (this.#ordinals.get(ordinalKey) ?? 0) + 1;
    const record: PlaceholderRecord = {
      org_id: orgId,
      agent_id: agentId,
      placeholder: `\${X_${safeKind}_${ordinal}}`,
      value_mac: mac,
      sealed: this.box.seal(`placeholder:${orgId}`, value),
    };
    this.#remember(record);
    void this.sink.recordPlaceholder(record);
    return record.placeholder;
  }

  /** The original value behind a placeholder of this agent, or undefined. */
  valueOf(orgId: string, agentId: string, placeholder: string): string | undefined {
    const sealed = this.#byPlaceholder.get(`${orgId}\0${agentId}`)?.get(placeholder);
    return sealed === undefined ? undefined : this.box.open(`placeholder:${orgId}`, sealed);
  }
}
