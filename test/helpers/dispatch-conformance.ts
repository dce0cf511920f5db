import { expect, it } from "vitest";
import {
  ANY_PROGRAM,
  checksFor,
  dispatchTable,
  type RuleModule,
  runRulesOnEveryCommand,
  type TraitsOf,
} from "../../src/detectors/commands/rules/dispatch.js";
import type { Hit } from "../../src/detectors/commands/rules/types.js";
import { type Analysis, analyzeShell } from "../../src/detectors/commands/shell/analyze.js";

export interface DispatchedRules {
  // biome-ignore lint/suspicious/noExplicitAny: modules of any shared state, as dispatch.ts takes them.
  readonly rules: readonly RuleModule<any>[];
  /** The detector's dispatched run over an analysis. */
  readonly hits: (analysis: Analysis) => Hit[];
  /** The per-command traits its checks declare (dispatch.ts's `traitsOf` when absent). */
  readonly traits?: TraitsOf;
  /** Hand-written commands, nearly all of which some check reports. */
  readonly commands: readonly string[];
  /** Generated texts: combinations no hand-written case lists. */
  readonly fuzz: readonly string[];
}

/**
 * What every detector on the dispatch table must show (inside a `describe`): dispatching only
 * skips work, so its hits equal every check run on every command; the fixed commands really
 * trigger checks; every check can be reached; and the table lists each check under every program
 * and name family it declares, and by trait for other programs.
 */
export function dispatchConformance(d: DispatchedRules): void {
  it("finds what every check on every command finds", () => {
    for (const text of [...d.commands, ...d.fuzz]) {
      const analysis = analyzeShell(text);
      expect(d.hits(analysis), text).toEqual(runRulesOnEveryCommand(d.rules, analysis));
    }
  });

  it("the fixed commands do trigger checks, so the comparison above is not vacuous", () => {
    const triggered = d.commands.filter((t) => d.hits(analyzeShell(t)).length > 0);
    expect(triggered.length).toBeGreaterThan(d.commands.length - 5);
  });

  it("every check can run on something: a program, a name family, a trait or any program", () => {
    for (const m of d.rules) {
      for (const c of m.commands) {
        const reachable =
          c.programs === ANY_PROGRAM ||
          c.programs.length > 0 ||
          (c.namePrefixes ?? []).length > 0 ||
          (c.traits ?? []).length > 0;
        expect(reachable, m.name).toBe(true);
      }
    }
  });

  it("lists a program's checks unconditionally and other checks by trait", () => {
    const table = dispatchTable(d.rules, d.traits);
    for (const m of d.rules) {
      for (const c of m.commands) {
        if (c.programs === ANY_PROGRAM) continue;
        for (const p of c.programs) {
          expect(
            checksFor(table, p).some((e) => e.check === c.check && e.traits === 0),
            `${m.name} ${p}`,
          ).toBe(true);
        }
        for (const p of c.namePrefixes ?? []) {
          expect(checksFor(table, `${p}9.9`).some((e) => e.check === c.check && e.traits === 0)).toBe(true);
        }
        if ((c.traits ?? []).length > 0) {
          expect(checksFor(table, "no-such-program").some((e) => e.check === c.check && e.traits !== 0)).toBe(
            true,
          );
        }
      }
    }
  });
}
