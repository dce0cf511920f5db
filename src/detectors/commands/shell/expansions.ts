import type { Pipeline, SimpleCommand, Word } from "./ast.js";

/**
 * What a script's own text fixes about a word it computes. A command name can be built at run
 * time (`X=rm; $X -rf /`, `$(printf '\x72\x6d') -rf /`, `${X:-rm}`), and a reader that only
 * looks at the words as written sees a program called `$X`. Where every part of such a word
 * comes from the script itself (variables it assigned literal text, `${X:-rm}` defaults,
 * `echo`/`printf` output, base64 or reversed text decoded in a substitution) or from the shell
 * itself (`${IFS}`, `${PATH:0:1}`), the word has one value whatever the environment, and
 * `expandWord` returns it. Anything that depends on the environment (an unset variable, `$1`,
 * a program's real output) leaves the word unresolved.
 *
 * Bounded so that hostile text cannot grow it: values are capped in length and expansion
 * recurses a fixed number of levels. What the script bound is in bindings.ts; the pipelines
 * read again with it written in, in substitution.ts.
 */

/** Longest value a binding or an expansion may have; longer ones are left unresolved. */
export const MAX_VALUE = 4096;
/** Levels of expansion within expansion (`${A:-$(echo $B)}`). */
const MAX_LEVELS = 6;

/** A shell variable's name. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What expansion reads of the script's bindings: the values the text fixed (see bindings.ts). */
export interface FixedValues {
  variable(name: string): string | undefined;
}

/**
 * What the shell itself fixes for a variable the text never set: `IFS` splits on blanks unless
 * changed (`rm${IFS}-rf${IFS}/` is `rm -rf /`).
 */
function shellDefault(name: string): string | undefined {
  return name === "IFS" ? " " : undefined;
}

/** Variables that hold an absolute path on every Unix system: their first character is `/`. */
const ABSOLUTE_PATHS: ReadonlySet<string> = new Set(["PATH", "HOME", "PWD", "OLDPWD", "SHELL"]);

/** The value of `word` fixed by the script's own text, or undefined when it depends on anything else. */
export function expandWord(word: Word, bindings: FixedValues): string | undefined {
  if (!word.dynamic) return word.text;
  return new Expander(bindings, word.substitutions, 0).expand(word.text);
}

/** Expands one word's text, taking its command substitutions' pipelines in the order they appear. */
class Expander {
  private next = 0;
  /** `${...}` defaults being expanded inside one another. */
  private depth = 0;

  constructor(
    private readonly bindings: FixedValues,
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
export function staticOutput(pipeline: Pipeline, bindings: FixedValues, level = 0): string | undefined {
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
export function closingParen(text: string, from: number): number {
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
export function closingBrace(text: string, from: number): number {
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
