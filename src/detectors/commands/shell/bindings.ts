import type { Pipeline, SimpleCommand, Word } from "./ast.js";
import { expandWord, MAX_VALUE, VARIABLE_NAME } from "./expansions.js";
import { substitutedText } from "./substitution.js";

/**
 * What a script has bound so far, in the order its text runs it: variables (the value the text
 * fixes, and the text itself with the substitutions it runs), aliases, copies of sensitive
 * files (staging.ts) and descriptors opened on sockets. Expansion reads the values
 * (expansions.ts); the second reading of a pipeline writes the rest in (substitution.ts).
 * A script keeps a capped number of bindings.
 */

/** Bindings a script may make before later ones are ignored. */
const MAX_BINDINGS = 256;

/** Builtins whose `NAME=value` arguments assign variables. */
const DECLARERS: ReadonlySet<string> = new Set(["export", "declare", "typeset", "local", "readonly"]);

/** Every builtin that binds a name: the declarers and `alias`. */
export const BINDERS: ReadonlySet<string> = new Set([...DECLARERS, "alias"]);

/**
 * A variable as the text bound it: its value where the text fixes it, and in any case its text
 * with the substitutions that text runs (`X=$(cat .env)` binds the text `$(cat .env)` and the
 * pipeline `cat .env`), references to variables bound before it already replaced.
 */
export interface Binding {
  readonly value: string | undefined;
  readonly text: string;
  readonly substitutions: readonly Pipeline[];
}

/** What a script has bound so far, in the order its text runs it (see the top of this file). */
export class ShellBindings {
  private readonly variables = new Map<string, Binding>();
  private readonly aliases = new Map<string, string>();
  /** Copies the text made of sensitive files, by the copy's path (see staging.ts). */
  private readonly staged = new Map<string, string>();
  /** Copies noted in the pipeline being read, which only later pipelines may read as their originals. */
  private readonly pending: (readonly [string, string])[] = [];
  /** Descriptors the text opened on a network socket (`exec 3<>/dev/tcp/h/80`), by number. */
  private readonly sockets = new Map<string, string>();

  /** Whether any variable is bound: most text read as shell binds none. */
  get hasVariables(): boolean {
    return this.variables.size > 0;
  }

  /** Whether any alias is bound: most scripts bind none, and then no name needs looking up. */
  get hasAliases(): boolean {
    return this.aliases.size > 0;
  }

  /** Whether the text copied any sensitive file (readable from the pipeline after the copy). */
  get hasStaged(): boolean {
    return this.staged.size > 0;
  }

  /** Whether the text opened a descriptor on a socket. */
  get hasSockets(): boolean {
    return this.sockets.size > 0;
  }

  /** The value the text fixes for variable `name`. */
  variable(name: string): string | undefined {
    return this.variables.get(name)?.value;
  }

  /** What variable `name` was bound to, fixed or not. */
  binding(name: string): Binding | undefined {
    return this.variables.get(name);
  }

  alias(name: string): string | undefined {
    return this.aliases.get(name);
  }

  /** The socket a `>&fd` redirection writes to, if the text opened one on that descriptor. */
  socket(fd: string): string | undefined {
    return this.sockets.get(fd);
  }

  /** The sensitive file `word` names as a copy of it (`/tmp/x`, `@/tmp/x`, `f=@/tmp/x`), with the original written in. */
  unstaged(text: string): string | undefined {
    for (const [copy, original] of this.staged) {
      if (text === copy) return original;
      if (text.endsWith(copy)) {
        const before = text[text.length - copy.length - 1];
        if (before === "@" || before === "=") return text.slice(0, text.length - copy.length) + original;
      }
    }
    return undefined;
  }

  /**
   * Records what a command binds: `NAME=value` words before an empty command, the arguments of
   * `export`/`declare`/`local`/..., and `alias name=value`. A value the script cannot fix is
   * unbound again, so an older literal never stands in for it.
   */
  note(command: SimpleCommand, name: string, args: readonly Word[]): void {
    if (command.words.length === 0) {
      for (const w of command.assignments) this.assignVariable(w);
    } else if (DECLARERS.has(name)) {
      for (const w of args) if (w.text.includes("=")) this.assignVariable(w);
    } else if (name === "alias") {
      for (const w of args) if (w.text.includes("=")) this.assignAlias(w);
    }
  }

  /** Notes that `copy` holds what `original` held, from the next pipeline on (see `settle`). */
  stage(copy: string, original: string): void {
    this.pending.push([copy, original]);
  }

  /**
   * Makes the copies the last pipeline noted readable. Not sooner: the command that made a copy
   * names it as its destination (`cp /etc/shadow /dev/stdout`), which is no use of the original.
   */
  settle(): void {
    if (this.pending.length === 0) return;
    for (const [copy, original] of this.pending) {
      if (this.staged.has(copy) || this.room()) this.staged.set(copy, original);
    }
    this.pending.length = 0;
  }

  /** Notes that descriptor `fd` now writes to `socket`. */
  openSocket(fd: string, socket: string): void {
    if (this.sockets.has(fd) || this.room()) this.sockets.set(fd, socket);
  }

  /** `NAME=value`: the value where the text fixes it, and the text it was bound to in any case. */
  private assignVariable(word: Word): void {
    const eq = word.text.indexOf("=");
    const name = word.text.slice(0, eq).replace(/\+$/, "");
    if (!VARIABLE_NAME.test(name)) return;
    const value = fixedValue(word, this, eq);
    const symbolic = word.dynamic ? substitutedText(word, this) : undefined;
    const text = symbolic ? symbolic.text.slice(eq + 1) : word.text.slice(eq + 1);
    if (text.length > MAX_VALUE) {
      this.variables.delete(name);
      return;
    }
    if (!this.variables.has(name) && !this.room()) return;
    const substitutions = symbolic ? symbolic.substitutions : word.substitutions;
    this.variables.set(name, {
      value: value !== undefined && value.length <= MAX_VALUE ? value : undefined,
      text,
      substitutions,
    });
  }

  /** `alias name=value`: kept only when the text fixes the value. */
  private assignAlias(word: Word): void {
    const eq = word.text.indexOf("=");
    const name = word.text.slice(0, eq).replace(/\+$/, "");
    const value = fixedValue(word, this, eq);
    if (value === undefined || value.length > MAX_VALUE) this.aliases.delete(name);
    else if (this.aliases.has(name) || this.room()) this.aliases.set(name, value);
  }

  private room(): boolean {
    return this.variables.size + this.aliases.size + this.staged.size + this.sockets.size < MAX_BINDINGS;
  }
}

/**
 * The value after the `=` at `eq` of an assignment word, where the text fixes it. The name before
 * `=` holds no expansion, so expanding the whole word keeps it as it is.
 */
function fixedValue(word: Word, bindings: ShellBindings, eq: number): string | undefined {
  return word.dynamic ? expandWord(word, bindings)?.slice(eq + 1) : word.text.slice(eq + 1);
}
