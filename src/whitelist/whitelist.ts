/** One whitelist change, as the store journals it. */
export interface WhitelistRecord {
  readonly at: string;
  readonly org_id: string;
  readonly fp: string;
  readonly op: "add" | "remove";
  readonly note?: string;
}

/** Where whitelist changes live; the store implements it. */
export interface WhitelistSource {
  recordWhitelist(record: WhitelistRecord): Promise<void>;
  loadWhitelist(): Promise<WhitelistRecord[]>;
}

/** Replays changes in order: the last word on a fingerprint wins. */
export function replayWhitelist(records: readonly WhitelistRecord[]): Map<string, Set<string>> {
  const byOrg = new Map<string, Set<string>>();
  for (const record of records) {
    let set = byOrg.get(record.org_id);
    if (!set) {
      set = new Set();
      byOrg.set(record.org_id, set);
    }
    if (record.op === "add") set.add(record.fp);
    else set.delete(record.fp);
  }
  return byOrg;
}

/**
 * Fingerprints an operator whitelisted, per organization (spec 2.4 rule 4). Lookups are
 * in memory on the decision path; changes made by the `guard whitelist` command (another
 * process, perhaps another replica) are picked up by a reload every `refreshMs`.
 */
export class Whitelist {
  #byOrg = new Map<string, Set<string>>();
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly source: WhitelistSource) {}

  async load(): Promise<void> {
    this.#byOrg = replayWhitelist(await this.source.loadWhitelist());
  }

  /** Reloads on a timer that never keeps the process alive. */
  startRefreshing(refreshMs: number): void {
    this.#timer = setInterval(() => {
      this.load().catch(() => {
        // Keep the last good list: a store hiccup must not empty the whitelist.
      });
    }, refreshMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
  }

  has(orgId: string, fp: string): boolean {
    return this.#byOrg.get(orgId)?.has(fp) ?? false;
  }

  list(orgId: string): string[] {
    return [...(this.#byOrg.get(orgId) ?? [])].sort();
  }

  async add(orgId: string, fp: string, note?: string): Promise<void> {
    await this.source.recordWhitelist({ at: new Date().toISOString(), org_id: orgId, fp, op: "add", ...(note ? { note } : {}) });
    await this.load();
  }

  async remove(orgId: string, fp: string): Promise<void> {
    await this.source.recordWhitelist({ at: new Date().toISOString(), org_id: orgId, fp, op: "remove" });
    await this.load();
  }
}
