import { checkNames, escapeHelp, type Labels } from "./exposition.js";

/** What every metric family shares: a name, help, label names, and its samples keyed by label values. */
export abstract class Family<Child> {
  readonly #children = new Map<string, { values: string[]; child: Child }>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    readonly type: "counter" | "gauge" | "histogram",
  ) {
    checkNames(name, labelNames);
  }

  protected abstract create(): Child;

  /** The child for these labels; a label not given is the empty string (so families stay rectangular). */
  protected child(labels: Labels = {}): Child {
    const values = this.labelNames.map((n) => labels[n] ?? "");
    const key = values.join("\u0000");
    let entry = this.#children.get(key);
    if (!entry) {
      entry = { values, child: this.create() };
      this.#children.set(key, entry);
    }
    return entry.child;
  }

  protected children(): { values: string[]; child: Child }[] {
    return [...this.#children.values()];
  }

  /** Sample lines, without the HELP and TYPE header. */
  protected abstract samples(): string[];

  render(): string {
    return [`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} ${this.type}`, ...this.samples()].join(
      "\n",
    );
  }
}
