import { formatLabels, formatValue, type Labels } from "./exposition.js";
import { Family } from "./family.js";

interface Cell {
  /** Observations at or below each bound (not cumulative until rendered). */
  readonly counts: number[];
  sum: number;
  count: number;
}

/** Latency buckets in seconds, from a cache hit (1 ms) to a stuck detector (10 s). */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10] as const;

/** Observations counted into fixed buckets, rendered cumulatively with `+Inf`, `_sum` and `_count`. */
export class Histogram extends Family<Cell> {
  readonly #bounds: readonly number[];

  constructor(name: string, help: string, labelNames: readonly string[] = [], buckets: readonly number[] = LATENCY_BUCKETS) {
    super(name, help, labelNames, "histogram");
    this.#bounds = [...buckets].sort((a, b) => a - b);
  }

  protected create(): Cell {
    return { counts: this.#bounds.map(() => 0), sum: 0, count: 0 };
  }

  observe(value: number, labels: Labels = {}): void {
    if (!Number.isFinite(value)) return;
    const cell = this.child(labels);
    const index = this.#bounds.findIndex((bound) => value <= bound);
    if (index >= 0) cell.counts[index] = (cell.counts[index] ?? 0) + 1;
    cell.sum += value;
    cell.count++;
  }

  count(labels: Labels = {}): number {
    return this.child(labels).count;
  }

  protected samples(): string[] {
    const names = [...this.labelNames, "le"];
    const lines: string[] = [];
    for (const { values, child } of this.children()) {
      let cumulative = 0;
      this.#bounds.forEach((bound, i) => {
        cumulative += child.counts[i] ?? 0;
        lines.push(`${this.name}_bucket${formatLabels(names, [...values, formatValue(bound)])} ${cumulative}`);
      });
      lines.push(`${this.name}_bucket${formatLabels(names, [...values, "+Inf"])} ${child.count}`);
      const plain = formatLabels(this.labelNames, values);
      lines.push(`${this.name}_sum${plain} ${formatValue(child.sum)}`);
      lines.push(`${this.name}_count${plain} ${child.count}`);
    }
    return lines;
  }
}
