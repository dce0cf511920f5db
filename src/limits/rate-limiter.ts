/**
 * Fixed one-minute windows (spec 8): a counter per key and, when configured, per
 * organization. In-process here; a Redis implementation keeps them exact across replicas.
 */
export interface RateLimiter {
  /** Counts one request; returns the exhausted scope, or undefined when within budget. */
  take(
    orgId: string,
    keyId: string,
    perKey: number,
    perOrg: number,
    now: number,
  ): "key" | "org" | undefined | Promise<"key" | "org" | undefined>;
  close?(): Promise<void>;
}

const WINDOW_MS = 60_000;

export class InProcessRateLimiter implements RateLimiter {
  #window = -1;
  readonly #counts = new Map<string, number>();

  take(orgId: string, keyId: string, perKey: number, perOrg: number, now: number): "key" | "org" | undefined {
    const window = Math.floor(now / WINDOW_MS);
    if (window !== this.#window) {
      // A new window: the old counters can never matter again.
      this.#window = window;
      this.#counts.clear();
    }
    const keyCounter = `k:${orgId}:${keyId}`;
    const keyCount = (this.#counts.get(keyCounter) ?? 0) + 1;
    if (perKey > 0 && keyCount > perKey) return "key";
    if (perOrg > 0) {
      const orgCounter = `o:${orgId}`;
      const orgCount = (this.#counts.get(orgCounter) ?? 0) + 1;
      if (orgCount > perOrg) return "org";
      this.#counts.set(orgCounter, orgCount);
    }
    this.#counts.set(keyCounter, keyCount);
    return undefined;
  }
}
