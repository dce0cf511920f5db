import type { Segment } from "../../gen/guard/v1/types_pb.js";
import type { LabelledSample } from "./corpus.js";

/** What a check reads: the sample, and the Guard segment built from it once for all systems. */
export interface CheckInput {
  readonly sample: LabelledSample;
  readonly segment: Segment;
}

/** One check of a system under evaluation: a Guard detector, or one function of a peer package. */
export interface Check {
  readonly name: string;
  /** Category ids (or id prefixes) it can report. */
  readonly categories: readonly string[];
  /** Category ids found in one input. Throwing (or rejecting) counts as an error on that sample. */
  run(input: CheckInput): readonly string[] | Promise<readonly string[]>;
}

/**
 * A system in the comparison: Guard itself, or a peer package from npm. Guard is scored on
 * every category; a peer only on the expected ids its checks cover, so it is not charged for
 * kinds it never claimed to detect.
 */
export interface System {
  /** The "system" column of EVAL.md: `guard`, `secretlint`, `openai-guardrails`, ... */
  readonly name: string;
  /** Package and version, e.g. `secretlint@13.0.6`. */
  readonly version: string;
  /** How it is called and configured, one line for EVAL.md. */
  readonly how: string;
  readonly scope: "all" | "covered";
  readonly checks: readonly Check[];
}

/** Whether `system` is scored on expected id `id` (a peer check's category may be finer or coarser). */
export function covers(system: System, id: string): boolean {
  if (system.scope === "all") return true;
  return system.checks.some((c) =>
    c.categories.some((category) => {
      const stem = category.endsWith(".*") ? category.slice(0, -2) : category;
      return id.startsWith(stem) || stem.startsWith(id);
    }),
  );
}
