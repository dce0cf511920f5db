/**
 * A small seeded generator (mulberry32). The replay corpus must be byte-identical from one run
 * to the next so figures taken on different days compare the same work; `Math.random` cannot
 * be seeded, hence this.
 */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A child generator for one sub-stream (one session), independent of how much the parent drew. */
  fork(salt: number): Random {
    return new Random(Math.imul(this.#state ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt + 1, 0xc2b2ae35));
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }

  /** Log-uniform integer in [min, max]: sizes of real tool output are skewed towards small. */
  logUniform(min: number, max: number): number {
    return Math.round(Math.exp(Math.log(min) + this.next() * (Math.log(max) - Math.log(min))));
  }

  /** `length` characters drawn from `alphabet`. */
  chars(alphabet: string, length: number): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}

export const UPPER_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
export const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const HEX = "0123456789abcdef";

/**
 * The same generator as a plain function, for callers that only draw uniform numbers in [0, 1)
 * (seeded test cases, the classifier's training shuffle): one mulberry32 in the codebase.
 */
export function seededUniform(seed: number): () => number {
  const random = new Random(seed);
  return () => random.next();
}
