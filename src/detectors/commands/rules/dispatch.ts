import type { Analysis, Invocation } from "../shell/analyze.js";
import { NameTable } from "../shell/name-table.js";
import { WordFact } from "../shell/word-facts.js";
import type { Hit } from "./types.js";

/**
 * Runs rule modules over an analysis, each per-command check only on the commands whose
 * program it can judge. Text parsed as shell yields about 40 commands per kilobyte, almost all
 * of them programs no rule cares about (`echo`, `cd`, words of prose read as commands), so
 * asking every check about every command was most of the detectors' time.
 *
 * Which checks run for a program is derived from the checks' own `programs` declarations, not
 * from a list kept apart, so a new check cannot be skipped by forgetting to register it: a
 * check either names its programs or says it reads every command.
 */

/** Declared by checks that can find something in a command whatever its program is. */
export const ANY_PROGRAM = "any";

/**
 * Facts about a command, computed once per command, that checks reading every program need
 * before they can find anything: a check of block-device writes needs a slash somewhere, a
 * check of hook variables needs an assignment.
 */
export const Trait = {
  /** Some redirection (`>`, `<`, `<<EOF`, ...). */
  redirect: 1,
  /** Some word or redirection target holds a `/`. */
  slash: 2,
  /** Some `NAME=value` before the program or passed through `env`/`sudo`. */
  assignment: 4,
  /** Run through sudo, doas, pkexec, chroot or runuser. */
  elevated: 8,
  /** Some argument holds a command substitution. */
  substitution: 16,
  /** Some word holds a `_` (key file names such as `id_rsa` do). */
  underscore: 32,
  /**
   * Some argument or redirection target holds `/dev/`: every disk device and `/dev/tcp` socket
   * does. Most commands with a slash name URLs and project paths, and checks of devices ask this
   * rather than `slash`.
   */
  device: 64,
} as const;
export type Trait = (typeof Trait)[keyof typeof Trait];

/**
 * Computes a command's traits as a bit set. A rule set whose checks gate on other facts (a host
 * among the arguments, say) builds its table with its own function and bits; `traitsOf` and
 * `Trait` are the commands detector's.
 */
export type TraitsOf = (inv: Invocation) => number;

/** The traits of `inv`, as a bit set of `Trait` values. */
export function traitsOf(inv: Invocation): number {
  let traits = 0;
  if (inv.redirects.length > 0) traits |= Trait.redirect;
  if (inv.assignments.length > 0) traits |= Trait.assignment;
  if (inv.elevated) traits |= Trait.elevated;
  if ((inv.facts & WordFact.underscore) !== 0) traits |= Trait.underscore;
  if ((inv.facts & WordFact.slash) !== 0) traits |= Trait.slash;
  else for (const r of inv.redirects) if ((r.target.facts & WordFact.slash) !== 0) traits |= Trait.slash;
  if ((traits & Trait.slash) !== 0 && namesDevice(inv)) traits |= Trait.device;
  // Most commands have no substitution anywhere, which their words' facts tell without reading each word.
  if ((inv.facts & WordFact.substitutionMark) !== 0) {
    for (const w of inv.argWords) {
      if (w.substitutions.length > 0) {
        traits |= Trait.substitution;
        break;
      }
    }
  }
  return traits;
}

/** Whether an argument or a redirection target of `inv` holds `/dev/` (see `Trait.device`). */
function namesDevice(inv: Invocation): boolean {
  for (const r of inv.redirects)
    if ((r.target.facts & WordFact.slash) !== 0 && r.target.text.includes("/dev/")) return true;
  // Only words with a slash can hold it, and a command with none is spared making its arguments.
  if ((inv.facts & WordFact.slash) === 0) return false;
  for (const w of inv.argWords) if ((w.facts & WordFact.slash) !== 0 && w.text.includes("/dev/")) return true;
  return false;
}

export interface CommandCheck<State> {
  /** `Invocation.name` values the check can report on, or ANY_PROGRAM. */
  readonly programs: readonly string[] | typeof ANY_PROGRAM;
  /** Also run on programs whose name starts with one of these: families such as `python3.11`. */
  readonly namePrefixes?: readonly string[];
  /** Also run on commands of any program that have one of these traits: bits of the table's `TraitsOf`. */
  readonly traits?: readonly number[];
  /**
   * Adds what the check finds in `inv` to `hits`. It must hold on any command, not only those
   * it declares (the dispatch only skips calls that would find nothing), which the tests check
   * by running every check on every command.
   */
  readonly check: (inv: Invocation, hits: Hit[], state: State) => void;
}

export interface RuleModule<State = undefined> {
  readonly name: string;
  /** What the checks share over one analysis (files staged so far, ...), made before the first command. */
  readonly prepare?: (analysis: Analysis) => State;
  /** Checks over the whole analysis whose hits come before the per-command ones. */
  readonly before?: (analysis: Analysis, hits: Hit[], state: State) => void;
  /** Per-command checks, run in this order on each command. */
  readonly commands: readonly CommandCheck<State>[];
  /** Checks over pipelines, functions and interpreter code, after the per-command ones. */
  readonly after?: (analysis: Analysis, hits: Hit[], state: State) => void;
  /**
   * When set, `before` and `after` can find something only in an analysis that runs one of these
   * programs or holds interpreter code (`Analysis.code`), and are skipped on any other: hooks that
   * look through pipelines for a fetcher, a network client or a database client, which most texts
   * read as shell have none of. Like the checks' declarations, this may only spare work.
   */
  readonly hooksNeed?: readonly string[];
}

/** Declares a module, its state type inferred from `prepare`. */
export function ruleModule<State = undefined>(module: RuleModule<State>): RuleModule<State> {
  return module;
}

// biome-ignore lint/suspicious/noExplicitAny: modules differ in state type; each state only meets its own checks.
type AnyModule = RuleModule<any>;

/** One check in a program's list: `traits` 0 when it runs on every command of that program. */
interface Entry {
  readonly module: number;
  readonly traits: number;
  // biome-ignore lint/suspicious/noExplicitAny: see AnyModule.
  readonly check: CommandCheck<any>["check"];
}

interface Declared {
  readonly module: number;
  // biome-ignore lint/suspicious/noExplicitAny: see AnyModule.
  readonly declaration: CommandCheck<any>;
}

/**
 * The checks for one program, and the sublists that a command of each set of traits runs. Most
 * commands have no trait, and skipping a dozen trait checks one by one on each of them was much
 * of the dispatch's own time; a sublist is made the first time a command needs it.
 */
interface ProgramChecks {
  readonly entries: readonly Entry[];
  /** The traits any of `entries` asks for: 0 when none does, and the command's traits are not needed. */
  readonly gates: number;
  /** Indexed by a command's traits, restricted to `gates`. */
  readonly byTraits: (readonly Entry[] | undefined)[];
}

function programChecks(entries: readonly Entry[]): ProgramChecks {
  let gates = 0;
  for (const e of entries) gates |= e.traits;
  return { entries, gates, byTraits: [] };
}

/** The entries of `checks` a command with `traits` runs, in their order. */
function entriesWithTraits(checks: ProgramChecks, traits: number): readonly Entry[] {
  const key = traits & checks.gates;
  let list = checks.byTraits[key];
  if (list === undefined) {
    list = checks.entries.filter((e) => e.traits === 0 || (e.traits & key) !== 0);
    checks.byTraits[key] = list;
  }
  return list;
}

export interface DispatchTable {
  /** Every check, in module order then declaration order. */
  readonly declared: readonly Declared[];
  /** Checks for each program a check names, in that order. */
  readonly byProgram: NameTable<ProgramChecks>;
  /** Checks for a program nothing names: the ANY_PROGRAM checks and those asking for traits. */
  readonly otherPrograms: ProgramChecks;
  readonly namePrefixes: readonly string[];
  /**
   * Set at the first character code (modulo 128) of each of `namePrefixes`: most names start
   * with none of them, and skip comparing.
   */
  readonly prefixInitials: Uint8Array;
  readonly traitsOf: TraitsOf;
  /** The modules whose hooks declare `hooksNeed`, as bits by module index. */
  readonly gatedHooks: number;
  /** For each program a `hooksNeed` names, the bits of the modules that name it. */
  readonly hookPrograms: NameTable<number>;
}

/** Where `prefixInitials` marks names starting like `name`; the empty name shares slot 0. */
function initial(name: string): number {
  return name.charCodeAt(0) & 127;
}

function initials(prefixes: Iterable<string>): Uint8Array {
  const marks = new Uint8Array(128);
  for (const p of prefixes) marks[initial(p)] = 1;
  return marks;
}

function entriesFor(declared: readonly Declared[], name: string | undefined): Entry[] {
  const out: Entry[] = [];
  for (const { module, declaration: d } of declared) {
    const named =
      d.programs === ANY_PROGRAM ||
      (name !== undefined &&
        (d.programs.includes(name) || (d.namePrefixes ?? []).some((p) => name.startsWith(p))));
    let traits = 0;
    for (const t of d.traits ?? []) traits |= t;
    if (named) out.push({ module, traits: 0, check: d.check });
    else if (traits !== 0) out.push({ module, traits, check: d.check });
  }
  return out;
}

/**
 * Builds the table of which checks run for which program, from the checks' declarations;
 * `traits` computes the bits the checks' `traits` name.
 */
export function dispatchTable(modules: readonly AnyModule[], traits: TraitsOf = traitsOf): DispatchTable {
  const declared: Declared[] = [];
  modules.forEach((m, module) => {
    for (const declaration of m.commands) declared.push({ module, declaration });
  });
  const names = new Set<string>();
  const namePrefixes = new Set<string>();
  for (const { declaration: d } of declared) {
    if (d.programs !== ANY_PROGRAM) for (const p of d.programs) names.add(p);
    for (const p of d.namePrefixes ?? []) namePrefixes.add(p);
  }
  // Module indices are bits of `gatedHooks`, which a 32-bit integer holds.
  if (modules.length > 31) throw new Error(`too many rule modules for hook bits: ${modules.length}`);
  let gatedHooks = 0;
  const hookPrograms = new Map<string, number>();
  modules.forEach((m, module) => {
    if (m.hooksNeed === undefined) return;
    gatedHooks |= 1 << module;
    for (const p of m.hooksNeed) hookPrograms.set(p, (hookPrograms.get(p) ?? 0) | (1 << module));
  });
  return {
    gatedHooks,
    hookPrograms: new NameTable(hookPrograms),
    declared,
    byProgram: new NameTable(
      [...names].map((name) => [name, programChecks(entriesFor(declared, name))] as const),
    ),
    otherPrograms: programChecks(entriesFor(declared, undefined)),
    namePrefixes: [...namePrefixes],
    prefixInitials: initials(namePrefixes),
    traitsOf: traits,
  };
}

function programChecksFor(table: DispatchTable, name: string): ProgramChecks {
  const listed = table.byProgram.get(name);
  if (listed !== undefined) return listed;
  if (table.prefixInitials[initial(name)] === 0) return table.otherPrograms;
  // Family members (`python3.11`) are rare; their lists are made when met, not kept.
  for (const p of table.namePrefixes)
    if (name.startsWith(p)) return programChecks(entriesFor(table.declared, name));
  return table.otherPrograms;
}

/** The checks that can apply to a program's commands. */
export function checksFor(table: DispatchTable, name: string): readonly Entry[] {
  return programChecksFor(table, name).entries;
}

/**
 * Runs `modules` over `analysis`. Hits come out in the order running each module in turn over
 * every command would give (module by module: `before`, per command, `after`), since the
 * detectors keep the first of equally strong hits on one span.
 */
export function runRules(modules: readonly AnyModule[], table: DispatchTable, analysis: Analysis): Hit[] {
  const states = modules.map((m) => m.prepare?.(analysis));
  const perModule: Hit[][] = modules.map(() => []);
  const hooks = modulesWithHooks(table, analysis);
  for (let m = 0; m < modules.length; m++)
    if ((hooks & (1 << m)) !== 0) modules[m]!.before?.(analysis, perModule[m]!, states[m]);
  for (const inv of analysis.invocations) {
    const checks = programChecksFor(table, inv.name);
    // The command's traits are computed only for a list with checks that ask for them.
    const entries = checks.gates === 0 ? checks.entries : entriesWithTraits(checks, table.traitsOf(inv));
    for (const e of entries) e.check(inv, perModule[e.module]!, states[e.module]);
  }
  const hits: Hit[] = [];
  for (let m = 0; m < modules.length; m++) {
    const own = perModule[m]!;
    if ((hooks & (1 << m)) !== 0) modules[m]!.after?.(analysis, own, states[m]);
    for (const h of own) hits.push(h);
  }
  return hits;
}

/**
 * The modules whose `before` and `after` run on `analysis`, as bits by module index: those that
 * declare no `hooksNeed`, and those that do when the analysis holds code or runs a program named.
 */
function modulesWithHooks(table: DispatchTable, analysis: Analysis): number {
  let hooks = ~table.gatedHooks;
  if (table.gatedHooks === 0 || analysis.code.length > 0) return ~0;
  for (const inv of analysis.invocations) hooks |= table.hookPrograms.get(inv.name) ?? 0;
  return hooks;
}

/** Every check on every command, ignoring the declarations: the reference the dispatch is tested against. */
export function runRulesOnEveryCommand(modules: readonly AnyModule[], analysis: Analysis): Hit[] {
  const hits: Hit[] = [];
  for (const m of modules) {
    const state = m.prepare?.(analysis);
    const own: Hit[] = [];
    m.before?.(analysis, own, state);
    for (const inv of analysis.invocations) for (const c of m.commands) c.check(inv, own, state);
    m.after?.(analysis, own, state);
    for (const h of own) hits.push(h);
  }
  return hits;
}
