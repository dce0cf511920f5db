import { formatLabels, formatValue, type Labels } from "./exposition.js";
import { Family } from "./family.js";

interface Cell {
  value: number;
}

/**
 * A value that goes up and down. With `collect`, the value is read at scrape time (queue depth,
 * the store's own counts) so nothing has to keep it current between scrapes.
 */
export class Gauge extends Family<Cell> {
  readonly #collect: ((gauge: Gauge) => void) | undefined;

  constructor(name: string, help: string, labelNames: readonly string[] = [], collect?: (gauge: Gauge) => void) {
    super(name, help, labelNames, "gauge");
    this.#collect = collect;
  }

  protected create(): Cell {
    return { value: 0 };
  }

  set(value: number, labels: Labels = {}): void {
    this.child(labels).value = value;
  }

  inc(labels: Labels = {}, by = 1): void {
    this.child(labels).value += by;
  }

  get(labels: Labels = {}): number {
    return this.child(labels).value;
  }

  protected samples(): string[] {
    this.#collect?.(this);
    return this.children().map(({ values, child }) => `${this.name}${formatLabels(this.labelNames, values)} ${formatValue(child.value)}`);
  }
}
