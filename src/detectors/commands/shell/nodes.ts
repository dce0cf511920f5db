import type { FunctionDef, Pipeline, Redirect, SimpleCommand, Word } from "./ast.js";

/**
 * The syntax nodes the parser makes, as classes, and the lists that hold them, made by
 * `listOf`: never as object or array literals. The analysis's pipelines follow the same rule.
 *
 * Why: V8 gives every object and array literal (and `new Array`) an allocation site, and counts
 * how many of the objects made there are still alive at each young-generation collection. When
 * 85% or more are, once the young generation has grown to its largest, V8 "pretenures" the
 * site for good: its objects are made directly in the old generation from then on, and the
 * optimised code that allocates them is thrown away. The nodes of one text all live until its
 * rules have run, so a collection that falls inside a long text finds nearly all of them alive;
 * with other work allocating between texts (other detectors, the service itself), that is
 * where collections fall often enough that in a third to a half of fresh processes the
 * parser's word, command and list sites were pretenured. Every later node then went to the old
 * generation and died there, full collections ran many times as often, and the detector read
 * at a fraction of its speed for the rest of the process.
 *
 * Objects made by `new` of a class, and arrays copied from another array, have no allocation
 * site, so V8 cannot pretenure them: the nodes stay in the young generation, where dying costs
 * nothing. Writing them back as literals (`{ text, ... }`, `[word]`) brings slow mode back;
 * `--no-allocation-site-pretenuring` also avoids it, but a service cannot depend on V8 flags.
 */

/**
 * The one-element list `listOf` copies. `Array.of(first)` has no allocation site either, but is
 * a builtin call several times the price of a literal; copying a short array is not.
 */
const ONE_SLOT: readonly unknown[] = [undefined];

/** A new list of `first` alone, made without an allocation site (see above). */
export function listOf<T>(first: T): T[] {
  const list = ONE_SLOT.slice() as T[];
  list[0] = first;
  return list;
}

export class WordNode implements Word {
  constructor(
    public text: string,
    public facts: number,
    public start: number,
    public end: number,
    public quoted: boolean,
    public dynamic: boolean,
    public substitutions: Pipeline[],
  ) {}
}

export class RedirectNode implements Redirect {
  /** Set once the here-document's body has been read, or at once for a here-string. */
  body: string | undefined = undefined;

  constructor(
    public fd: string,
    public op: string,
    public target: Word,
    public start: number,
    public end: number,
  ) {}
}

export class CommandNode implements SimpleCommand {
  constructor(
    public assignments: Word[],
    public words: Word[],
    public redirects: Redirect[],
    public start: number,
    public end: number,
  ) {}
}

export class PipelineNode implements Pipeline {
  constructor(
    public commands: SimpleCommand[],
    public start: number,
    public end: number,
    public depth: number,
  ) {}
}

export class FunctionNode implements FunctionDef {
  constructor(
    public name: string,
    public start: number,
    public end: number,
  ) {}
}
