import { Counter } from "./counter.js";
import { Gauge } from "./gauge.js";
import { Histogram } from "./histogram.js";

interface Renderable {
  readonly name: string;
  render(): string;
}

/**
 * A hand-written Prometheus registry: the service needs counters, gauges and fixed-bucket
 * histograms in the text format, which is a few dozen lines and no dependency to audit.
 */
export class Registry {
  readonly #families = new Map<string, Renderable>();

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    return this.#add(new Counter(name, help, labelNames));
  }

  gauge(name: string, help: string, labelNames: readonly string[] = [], collect?: (gauge: Gauge) => void): Gauge {
    return this.#add(new Gauge(name, help, labelNames, collect));
  }

  histogram(name: string, help: string, labelNames: readonly string[] = [], buckets?: readonly number[]): Histogram {
    return this.#add(new Histogram(name, help, labelNames, buckets));
  }

  /** The whole exposition, families in registration order, ending with a newline. */
  render(): string {
    return `${[...this.#families.values()].map((f) => f.render()).join("\n")}\n`;
  }

  #add<F extends Renderable>(family: F): F {
    if (this.#families.has(family.name)) throw new Error(`metric ${family.name} registered twice`);
    this.#families.set(family.name, family);
    return family;
  }
}
