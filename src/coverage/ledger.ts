import type { CoverageGap } from "./gaps.js";

export interface LedgerUpdate {
  /** Gaps seen for the first time: each is alerted exactly once. */
  readonly opened: CoverageGap[];
  /** Gaps alerted before and gone now (a beat arrived): coverage restored. */
  readonly closed: CoverageGap[];
}

/**
 * Remembers which gaps were already alerted, so a check every few seconds raises one alert per
 * gap rather than one per check. A gap is identified by its source and the last beat before the
 * silence, so a source that recovers and goes silent again raises a new alert.
 */
export class AlertLedger {
  readonly #open = new Map<string, CoverageGap>();

  update(current: readonly CoverageGap[]): LedgerUpdate {
    const seen = new Set(current.map((g) => g.id));
    const opened = current.filter((g) => !this.#open.has(g.id));
    const closed = [...this.#open.values()].filter((g) => !seen.has(g.id));
    for (const gap of closed) this.#open.delete(gap.id);
    for (const gap of opened) this.#open.set(gap.id, gap);
    return { opened, closed };
  }

  get size(): number {
    return this.#open.size;
  }
}
