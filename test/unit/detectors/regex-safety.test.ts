import { describe, expect, it } from "vitest";
import { growthRatio } from "../../helpers/growth.js";
import { findPii, piiPatterns } from "../../../src/detectors/pii/index.js";
import { findSecrets, secretPatterns, secretRules } from "../../../src/detectors/secrets/index.js";

/**
 * Every regular expression of the secrets and PII detectors must run in linear time on
 * hostile input. Absolute times depend on the machine, so the test compares growth: a
 * 100 KB input may take at most 30 times as long as a 10 KB one (linear is 10x; a
 * quadratic pattern would be about 100x).
 */

const SMALL = 10_000;
const LARGE = 100_000;
const MAX_RATIO = 30;
/** Below this, timer and GC noise dominate; the baseline is floored to it (a quadratic
 * pattern on 100 KB takes far longer than 30 times this). */
const FLOOR_MS = 2;

/** Characters that patterns accept in long runs. */
const FILLERS = ["a", "A", "0", "f", "x", "-", "_", ".", " ", ":", "/", "=", "@", "|", "+", "~", "\n", "\\n"];

/** Partial triggers: keywords followed by what the patterns expect, cut short and repeated. */
const TRIGGERS = [
  ...new Set(secretRules.flatMap((r) => r.keywords)),
  "eyJ",
  "-----BEGIN PRIVATE KEY-----\n",
  "https://u:",
  "postgres://user:p@",
  "key = ",
  'password: "',
  "Authorization: Bearer ",
  "-u a:",
  "+1 (",
  "192.168.",
  "fe80::",
  "DE89 ",
];

function hostile(length: number): string[] {
  const inputs = FILLERS.map((c) => c.repeat(Math.ceil(length / c.length)).slice(0, length));
  for (const t of TRIGGERS) {
    inputs.push(`${t}${"aA0".repeat(20)}`.repeat(Math.ceil(length / (t.length + 60))).slice(0, length));
    inputs.push(t + "a".repeat(length - t.length));
  }
  return inputs;
}

function scan(pattern: RegExp, text: string): void {
  const re = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  for (let m = re.exec(text); m !== null; m = re.exec(text)) if (m[0].length === 0) re.lastIndex++;
}

/** Growth factor from `small` to `large` (test/helpers/growth.ts). */
function growth(fn: (text: string) => void, small: string, large: string): number {
  return growthRatio(fn, small, large, { bar: MAX_RATIO, runs: 5, floorMs: FLOOR_MS });
}

const smallInputs = hostile(SMALL);
const largeInputs = hostile(LARGE);
const patterns = [...secretPatterns, ...piiPatterns];

describe("regex safety", () => {
  it("collects the patterns of both detectors", () => {
    expect(secretPatterns.length).toBeGreaterThan(50);
    expect(piiPatterns.length).toBeGreaterThan(5);
  });

  it.each(patterns.map((p) => [p.source.slice(0, 60), p] as const))("%s grows linearly", (_name, pattern) => {
    for (let i = 0; i < largeInputs.length; i++) {
      const ratio = growth((t) => scan(pattern, t), smallInputs[i] ?? "", largeInputs[i] ?? "");
      expect(ratio, `input #${i}`).toBeLessThan(MAX_RATIO);
    }
  });

  it.each([
    ["findSecrets", findSecrets],
    ["findPii", findPii],
  ] as const)("%s grows linearly on hostile text, up to 1 MB", (_name, detect) => {
    for (let i = 0; i < largeInputs.length; i++) {
      const large = largeInputs[i] ?? "";
      expect(growth(detect, smallInputs[i] ?? "", large), `input #${i}`).toBeLessThan(MAX_RATIO);
    }
    // 1 MB: the plain runs and one input per trigger family, to keep the test fast.
    const sample = largeInputs.filter((_, k) => k < FILLERS.length || k % 25 === 0);
    for (let i = 0; i < sample.length; i++) {
      const large = sample[i] ?? "";
      expect(growth(detect, large, large.repeat(10)), `1 MB input #${i}`).toBeLessThan(MAX_RATIO);
    }
  }, 300_000);
});
