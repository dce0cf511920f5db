import { formatLabels, formatValue, type Labels } from "./exposition.js";
import { Family } from "./family.js";

interface Cell {
  value: number;
}

/** A monotonically increasing count, per label set. */
export class Counter extends Family<Cell> {
  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    super(name, help, labelNames, "counter");
  }

  protected create(): Cell {
    return { value: 0 };
  }

  inc(labels: Labels = {}, by = 1): void {
    // A counter never goes down; a negative or non-finite step would corrupt every rate() over it.
    if (!(by >= 0) || !Number.isFinite(by)) return;
    this.child(labels).value += by;
  }

  get(labels: Labels = {}): number {
    return this.child(labels).value;
  }

  protected samples(): string[] {
    return this.children().map(({ values, child }) => `${this.name}${formatLabels(this.labelNames, values)} ${formatValue(child.value)}`);
  }
}
