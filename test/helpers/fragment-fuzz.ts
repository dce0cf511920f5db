import { seededUniform } from "../../bench/corpus/random.js";

/**
 * `count` strings of 1 to 30 fragments each, drawn with the project's seeded generator: shell-like
 * text that exercises a detector's rules in combinations no hand-written case lists.
 */
export function fragmentFuzz(fragments: readonly string[], count: number, seed: number): string[] {
  const next = seededUniform(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = "";
    const n = 1 + Math.floor(next() * 30);
    for (let k = 0; k < n; k++) text += fragments[Math.floor(next() * fragments.length)];
    out.push(text);
  }
  return out;
}
