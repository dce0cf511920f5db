/**
 * Lookups by program name that most names miss. Every command's name is looked up in a few
 * tables (the analysis's name roles, each detector's checks), and almost none of the names met
 * in text read as shell are in any of them (`echo`, `cd`, words of prose). A name is a fresh
 * string, so a `Map` lookup first hashes all of it; a filter on its length and first and last
 * characters turns most misses away with three reads.
 */

/** Slots of the filter: a power of two, a few times the size of the largest table. */
const SLOTS = 1024;

/** The filter slot of a name: names in different slots are different names. */
function slot(name: string): number {
  const n = name.length;
  if (n === 0) return 0;
  return (name.charCodeAt(0) * 31 + name.charCodeAt(n - 1) * 7 + n) & (SLOTS - 1);
}

/** A read-only map from program names, with a filter that answers most misses without hashing. */
export class NameTable<V> {
  private readonly filter = new Uint8Array(SLOTS);
  private readonly map: ReadonlyMap<string, V>;

  constructor(entries: Iterable<readonly [string, V]>) {
    const map = new Map<string, V>();
    for (const [name, value] of entries) {
      map.set(name, value);
      this.filter[slot(name)] = 1;
    }
    this.map = map;
  }

  get(name: string): V | undefined {
    return this.filter[slot(name)] === 1 ? this.map.get(name) : undefined;
  }
}

/**
 * A read-only set of program names with NameTable's filter, for the sets that rules ask about
 * every command of a pipeline or analysis (`curl | sh` needs a fetcher, `nc ... | sh` a network
 * client): almost every name met is in none, and the filter turns it away without hashing it.
 */
export class NameSet implements Iterable<string> {
  private readonly names: readonly string[];
  private readonly table: NameTable<true>;

  constructor(names: Iterable<string>) {
    this.names = [...new Set(names)];
    this.table = new NameTable(this.names.map((name) => [name, true] as const));
  }

  has(name: string): boolean {
    return this.table.get(name) === true;
  }

  [Symbol.iterator](): Iterator<string> {
    return this.names[Symbol.iterator]();
  }
}
