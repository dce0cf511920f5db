import { append } from "../append.js";
import { persistenceKind } from "../paths.js";
import type { FunctionDef, Pipeline, Redirect, SimpleCommand, Word } from "./ast.js";
import { extractCodeStrings, quoteForShell } from "./code-strings.js";
import { BINDERS, ShellBindings } from "./bindings.js";
import { braceWords, expandWord, staticOutput } from "./expansions.js";
import { NameTable } from "./name-table.js";
import { openedSocket, STAGING_PROGRAMS, stagedCopy } from "./staging.js";
import { mayUseShellFixed, substitutedPipeline } from "./substitution.js";
import { listOf } from "./nodes.js";
import { parseShell } from "./parser.js";
import { WordFact } from "./word-facts.js";
import { basename, NOT_WRAPPED, unwrap, WRAPPER_NAMES } from "./wrappers.js";

/**
 * Turns parsed shell into what rules judge: every program that runs, after wrappers
 * (`sudo`, `env`, `xargs`, ...) are peeled off, including programs run by text that is itself
 * shell (`bash -c '...'`, `eval`, `su -c`, `ssh host '...'`, `echo '...' | sh`, a here-document
 * fed to a shell) or by an interpreter one-liner's `system("...")`. Re-parsing is bounded in
 * depth and in total characters, so the whole analysis stays linear in the input.
 */

/** How many times text found inside a command is parsed again as shell. */
export const MAX_NESTING = 4;

export interface Invocation {
  /** Program name without its directory (`/bin/rm` is `rm`); empty when only wrappers ran. */
  readonly name: string;
  /** Every word of the command, wrappers included. */
  readonly words: readonly string[];
  /** The `WordFact` bits of any of `words` (see word-facts.ts). */
  readonly facts: number;
  /** The program as written (`/bin/sh`). */
  readonly program: string;
  /** Arguments after the program, quote-removed. */
  readonly args: readonly string[];
  readonly argWords: readonly Word[];
  /** Assignments before the command and those passed through `env`/`sudo`. */
  readonly assignments: readonly string[];
  readonly redirects: readonly Redirect[];
  /** Run through sudo, doas, pkexec, chroot or runuser. */
  readonly elevated: boolean;
  /** Position in its pipeline and the pipeline's size. */
  readonly position: number;
  readonly pipelineSize: number;
  /** Index of its pipeline in `Analysis.pipelines`. */
  readonly pipeline: number;
  /** 0 for text as given, +1 per re-parse of an inner string. */
  readonly nesting: number;
  readonly start: number;
  readonly end: number;
}

export interface PipelineView {
  readonly invocations: readonly Invocation[];
  readonly start: number;
  readonly end: number;
}

export interface Analysis {
  readonly invocations: readonly Invocation[];
  readonly pipelines: readonly PipelineView[];
  readonly functions: readonly FunctionDef[];
  /** Interpreter source code seen (`python -c`, `perl -e`, here-documents fed to them). */
  readonly code: readonly CodeFragment[];
  readonly truncated: boolean;
}

export interface CodeFragment {
  /** The interpreter, `echo output`/`here-document` for text written to a file, or a session program. */
  readonly interpreter: string;
  /** The source a code-execution tool was given, as opposed to code found inside a command. */
  readonly tool?: boolean;
  readonly code: string;
  readonly start: number;
  readonly end: number;
}

/** Shell names: their arguments and input are read as shell. */
export const SHELLS: ReadonlySet<string> = new Set([
  "sh",
  "bash",
  "dash",
  "zsh",
  "ksh",
  "ash",
  "mksh",
  "yash",
  "posh",
  "csh",
  "tcsh",
  "fish",
  "elvish",
  "sash",
  "pwsh",
  "rc",
]);

export function isShell(name: string): boolean {
  return SHELLS.has(name);
}

/** Interpreters and the option that introduces inline code. */
const INLINE_CODE: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["python", new Set(["-c"])],
  ["python2", new Set(["-c"])],
  ["python3", new Set(["-c"])],
  ["perl", new Set(["-e", "-E"])],
  ["ruby", new Set(["-e"])],
  ["php", new Set(["-r"])],
  ["node", new Set(["-e", "--eval", "-p", "--print"])],
  ["nodejs", new Set(["-e", "--eval", "-p", "--print"])],
  ["lua", new Set(["-e"])],
  ["julia", new Set(["-e"])],
  ["Rscript", new Set(["-e"])],
  ["R", new Set(["-e"])],
  ["tclsh", new Set([])],
  ["jrunscript", new Set(["-e"])],
  ["groovy", new Set(["-e"])],
  ["scala", new Set(["-e"])],
  ["awk", new Set([])],
  ["gawk", new Set([])],
  ["mawk", new Set([])],
  ["nawk", new Set([])],
]);

/** Whether `name` runs inline code, under its own name or a versioned one (`python3.11`). */
function runsInlineCode(name: string, roles: number): boolean {
  if ((roles & NameRole.inlineCode) !== 0) return true;
  const interpreter = interpreterName(name);
  return interpreter !== name && INLINE_CODE.has(interpreter);
}

function interpreterName(name: string): string {
  // python3.11 -> python3; the test on the prefix spares the regex for every other name.
  if (!name.startsWith("python")) return name;
  const m = /^(python[23]?)\.[0-9]+$/.exec(name);
  return m ? m[1]! : name;
}

/**
 * Programs that run what they read on standard input: text echoed into them is their source.
 * Shells are handled apart, since their input is parsed as shell.
 */
const STDIN_CODE: ReadonlySet<string> = new Set([
  "python",
  "python2",
  "python3",
  "perl",
  "ruby",
  "php",
  "node",
  "nodejs",
  "lua",
  "tclsh",
  "wish",
  "expect",
  "m4",
  "jjs",
  "jshell",
  "irb",
  "gdb",
]);

/**
 * Interactive programs whose session the text goes on to type: GTFOBins and attack write-ups
 * show `tclsh` or `ftp host` on one line and the session's input on the next ones. When such a
 * program is started with no script, the rest of the text is kept as its session input.
 */
const SESSIONS: ReadonlySet<string> = new Set(["jjs", "jshell", "tclsh", "wish", "irb"]);

/** File-transfer clients: interactive sessions too (see SESSIONS), whose typed `put` lines send files away. */
export const TRANSFER_SESSIONS: ReadonlySet<string> = new Set([
  "ftp",
  "sftp",
  "tftp",
  "lftp",
  "ncftp",
  "smbclient",
]);

/** SESSIONS and TRANSFER_SESSIONS, for the one lookup every command gets. */
const ALL_SESSIONS: ReadonlySet<string> = new Set([...SESSIONS, ...TRANSFER_SESSIONS]);

/** Container clients whose `exec` runs a command inside a container. */
const CONTAINER_EXEC: ReadonlySet<string> = new Set(["kubectl", "oc", "docker", "podman", "nerdctl"]);

/** Programs whose arguments may hold more shell. */
const MAY_NEST: ReadonlySet<string> = new Set([
  ...SHELLS,
  "eval",
  "su",
  "script",
  "ssh",
  "watch",
  "echo",
  "printf",
  ...CONTAINER_EXEC,
  "ansible",
]);

/**
 * What a command's first word or program name is to the analysis, as bits. Every command's name
 * was looked up in each set in turn; one lookup in ROLES answers all of them.
 */
const NameRole = {
  /** In LEADING_RESERVED. */
  leadingReserved: 1,
  /** In HEADER_RESERVED. */
  headerReserved: 2,
  /** A wrapper that `unwrap` peels off. */
  wrapper: 4,
  /** In MAY_NEST. */
  mayNest: 8,
  /** A key of INLINE_CODE. */
  inlineCode: 16,
  /** In ALL_SESSIONS. */
  session: 32,
  /** In BINDERS: `alias`, `export` and the other builtins that bind names. */
  binds: 64,
  /** In STAGING_PROGRAMS: copies a file (staging.ts). */
  stages: 128,
} as const;

/** The roles that make a first word something other than the program that runs. */
const NOT_PROGRAM = NameRole.leadingReserved | NameRole.headerReserved | NameRole.wrapper;

/** Every name of the sets above with its `NameRole` bits, derived from the sets themselves. */
function nameRoles(sets: readonly (readonly [Iterable<string>, number])[]): NameTable<number> {
  const roles = new Map<string, number>();
  for (const [names, role] of sets) for (const name of names) roles.set(name, (roles.get(name) ?? 0) | role);
  return new NameTable(roles);
}

/** Shared by the lists of commands that have none (no arguments, say): most commands' lists are short, some empty. */
const NO_STRINGS: readonly string[] = [];
const NO_WORDS: readonly Word[] = [];

/**
 * An `Invocation` whose word lists are made when first read. Text read as shell yields about
 * 40 commands per kilobyte, most of them programs whose arguments neither the analysis nor any
 * rule reads (words of prose, table rows), and making three arrays for each was much of the
 * analysis's garbage.
 */
class CommandInvocation implements Invocation {
  readonly facts: number;
  readonly redirects: readonly Redirect[];
  readonly start: number;
  readonly end: number;
  private argTexts: readonly string[] | undefined;
  private argWordList: readonly Word[] | undefined;

  constructor(
    command: SimpleCommand,
    /** The command's words from the first that is not a reserved word. */
    private readonly source: readonly Word[],
    /** Index in `source` of the program. */
    private readonly at: number,
    /** The texts of `source`, when already made. */
    private texts: readonly string[] | undefined,
    readonly name: string,
    readonly program: string,
    readonly assignments: readonly string[],
    readonly elevated: boolean,
    readonly position: number,
    readonly pipelineSize: number,
    readonly pipeline: number,
    readonly nesting: number,
  ) {
    this.facts = factsOfAll(source);
    this.redirects = command.redirects;
    this.start = command.start;
    this.end = command.end;
  }

  get words(): readonly string[] {
    if (this.texts === undefined) this.texts = wordTexts(this.source);
    return this.texts;
  }

  get args(): readonly string[] {
    if (this.argTexts === undefined)
      this.argTexts = this.at + 1 < this.source.length ? this.words.slice(this.at + 1) : NO_STRINGS;
    return this.argTexts;
  }

  get argWords(): readonly Word[] {
    if (this.argWordList === undefined)
      this.argWordList = this.at + 1 < this.source.length ? this.source.slice(this.at + 1) : NO_WORDS;
    return this.argWordList;
  }
}

/** A `PipelineView`, made by a class rather than a literal for the reason nodes.ts gives. */
class PipelineOfInvocations implements PipelineView {
  constructor(
    readonly invocations: readonly Invocation[],
    readonly start: number,
    readonly end: number,
  ) {}
}

const OPEN_BRACE = 123;

/** Items xargs is fed that are written into the command line read again; more add nothing to judge. */
const MAX_XARGS_ITEMS = 64;

/**
 * The command line xargs runs when fed `input` (`echo / | xargs rm -rf`, `xargs -I{} rm -rf {}
 * <<< /`): the program with its arguments and the items, or with the items in place of the
 * replace string. Undefined when `inv` is not run through xargs.
 */
function xargsLine(inv: Invocation, input: string): string | undefined {
  const words = inv.words;
  const x = words.findIndex((w) => basename(w) === "xargs");
  if (x === -1 || inv.program === "") return undefined;
  let replace: string | undefined;
  for (let k = x + 1; k < words.length && words[k] !== inv.program; k++) {
    const w = words[k]!;
    if (w === "-I") replace = words[k + 1];
    else if (w.startsWith("-I")) replace = w.slice(2);
    else if (w === "-i" || w === "--replace") replace = "{}";
    else if (w.startsWith("--replace=")) replace = w.slice("--replace=".length);
  }
  const items = input
    .split(/\s+/)
    .filter((item) => item.length > 0)
    .slice(0, MAX_XARGS_ITEMS);
  if (items.length === 0) return undefined;
  const args =
    replace === undefined || replace === ""
      ? [...inv.args, ...items]
      : inv.args.map((a) => a.replaceAll(replace, items[0]!));
  return [inv.program, ...args].map(quoteForShell).join(" ");
}

/** A redirection that writes its target: `>`, `>>`, `>|`. */
function isWrite(r: Redirect): boolean {
  return r.op === ">" || r.op === ">>" || r.op === ">|";
}

/** Whether a here-document or here-string is among `redirects`: the text a program is fed. */
function hasBody(redirects: readonly Redirect[]): boolean {
  for (const r of redirects) if (r.body !== undefined) return true;
  return false;
}

/** A file whose lines a shell runs: a start-up file (`~/.bashrc`) or a script by its extension. */
function isShellScript(path: string): boolean {
  return persistenceKind(path) === "shell-rc" || /\.(?:sh|bash|zsh)$/.test(path);
}

class Analyzer {
  readonly invocations: Invocation[] = [];
  readonly pipelines: PipelineView[] = [];
  readonly functions: FunctionDef[] = [];
  readonly code: CodeFragment[] = [];
  /**
   * Invocations of the text as given (nesting 0) whose program is in ALL_SESSIONS, noted as they
   * are made; in the order of `invocations`, since only nested text is analysed out of turn.
   */
  private readonly sessions: Invocation[] = [];
  /** What the text has bound so far, shared by all its nesting levels (see bindings.ts). */
  private readonly bindings = new ShellBindings();
  /** Aliases whose expansion is being read, which their own text does not expand again. */
  private readonly aliasesExpanding = new Set<string>();
  truncated = false;
  private budget: number;

  constructor(length: number) {
    // Inner text is a slice of outer text, so a small multiple of the input bounds all re-parsing.
    this.budget = 4 * length + 4096;
  }

  analyze(text: string, span: { start: number; end: number } | undefined, nesting: number): void {
    if (text.length > this.budget) {
      this.truncated = true;
      return;
    }
    this.budget -= text.length;
    const script = parseShell(text, span);
    if (script.truncated) this.truncated = true;
    append(this.functions, script.functions);
    const shellFixed = mayUseShellFixed(text);
    for (const pipeline of script.pipelines) {
      this.read(pipeline, nesting);
      // The same pipeline as it will run, with the variables the text bound and the expansions
      // the shell fixes (`${IFS}`) written in.
      const substituted = substitutedPipeline(pipeline, this.bindings, shellFixed);
      if (substituted !== undefined) this.read(substituted, nesting);
      this.bindings.settle();
    }
  }

  /** Adds a pipeline's invocations, and what they nest. */
  private read(pipeline: Pipeline, nesting: number): void {
    const index = this.pipelines.length;
    const members = this.membersOf(pipeline.commands, index, nesting);
    this.pipelines.push(new PipelineOfInvocations(members, pipeline.start, pipeline.end));
    append(this.invocations, members);
    this.feedThrough(pipeline.commands, members, nesting);
  }

  /** The first bare interactive session in the text and the lines typed into it (see SESSIONS). */
  session(text: string): void {
    for (const inv of this.sessions) {
      if (inv.redirects.length > 0 || inv.position + 1 < inv.pipelineSize) continue;
      const scripted = inv.args.some(
        (a) => a === "-b" || a === "-c" || a === "-f" || a === "-e" || a === "-s",
      );
      const operand = inv.args.find((a) => !a.startsWith("-"));
      const remote =
        inv.name === "ftp" ||
        inv.name === "sftp" ||
        inv.name === "tftp" ||
        inv.name === "lftp" ||
        inv.name === "ncftp" ||
        inv.name === "smbclient";
      if (scripted || (!remote && operand !== undefined)) continue;
      const nl = text.indexOf("\n", inv.end);
      if (nl === -1) return;
      this.code.push({ interpreter: inv.name, code: text.slice(nl + 1), start: inv.start, end: text.length });
      return;
    }
  }

  /** The invocations of a pipeline's commands, in order, each followed by those of the `find -exec` it carries. */
  private membersOf(commands: readonly SimpleCommand[], pipeline: number, nesting: number): Invocation[] {
    const size = commands.length;
    // Started as `listOf` the first invocation: a list pushed to from empty gets room for 17, and
    // most pipelines have one command. Not a literal, which V8 may pretenure (see nodes.ts).
    let members: Invocation[] | undefined;
    for (let position = 0; position < size; position++) {
      const invocation = this.invocationOf(commands[position]!, position, size, pipeline, nesting);
      if (members === undefined) members = listOf(invocation);
      else members.push(invocation);
      if (invocation.name === "find") this.findExecs(members, invocation);
    }
    return members ?? [];
  }

  /** The invocation of a simple command. */
  private invocationOf(
    command: SimpleCommand,
    position: number,
    size: number,
    pipeline: number,
    nesting: number,
  ): Invocation {
    const first = command.words[0];
    let roles = first === undefined ? 0 : rolesOf(first.text);
    // Most commands run their first word, named without a directory: then it is the program and
    // its roles are the program's, and neither reserved words nor wrappers need looking for.
    const plain =
      first === undefined || ((roles & NOT_PROGRAM) === 0 && (first.facts & WordFact.slash) === 0);
    const words = plain ? command.words : withoutReservedWords(command.words);
    // Only wrappers need the texts now; a plain command's are made if a rule reads them.
    const texts = plain ? undefined : wordTexts(words);
    const unwrapped = texts === undefined ? NOT_WRAPPED : unwrap(texts);
    const assignments =
      command.assignments.length === 0 && unwrapped.assignments.length === 0
        ? NO_STRINGS
        : [...command.assignments.map((w) => w.text), ...unwrapped.assignments.map((k) => texts?.[k] ?? "")];
    const at = unwrapped.index;
    const programWord = words[at];
    const program = programWord?.text ?? "";
    // Most programs are named without a directory, and then the name is the word as it stands.
    const name =
      programWord === undefined || (programWord.facts & WordFact.slash) === 0 ? program : basename(program);
    if (!plain) roles = rolesOf(name);
    if (first === undefined || (roles & NameRole.binds) !== 0)
      this.bindings.note(command, name, words.slice(at + 1));
    const invocation = new CommandInvocation(
      command,
      words,
      at,
      texts,
      name,
      program,
      assignments,
      unwrapped.elevated,
      position,
      size,
      pipeline,
      nesting,
    );
    this.noteSession(invocation, roles);
    // `env > f` runs no program (env alone is a wrapper): its name is empty.
    if ((roles & NameRole.stages) !== 0 || (name === "" && invocation.redirects.length > 0)) {
      const staged = stagedCopy(invocation);
      if (staged !== undefined) this.bindings.stage(staged[0], staged[1]);
      const socket = name === "" ? openedSocket(invocation) : undefined;
      if (socket !== undefined) this.bindings.openSocket(socket[0], socket[1]);
    }
    this.nested(invocation, nesting, roles);
    if (
      programWord?.dynamic ||
      (programWord !== undefined && program.charCodeAt(0) === OPEN_BRACE && !programWord.quoted) ||
      (this.bindings.hasAliases && this.bindings.alias(name) !== undefined)
    ) {
      this.expanded(words, at, invocation, nesting);
    }
    return invocation;
  }

  /**
   * A command whose name the script computes (`$X`, `$(printf ...)`, an alias): when the
   * script's own text fixes it, the command as it will run is read as shell again. Unquoted
   * expansions are left to split into words, as the shell splits them; quoted ones and the
   * other words keep their bounds.
   */
  private expanded(words: readonly Word[], at: number, inv: Invocation, nesting: number): void {
    const program = words[at]!;
    const alias = program.dynamic ? undefined : this.bindings.alias(program.text);
    // An alias is not expanded again inside its own expansion (`alias ls='ls --color'`).
    if (alias !== undefined && this.aliasesExpanding.has(program.text)) return;
    const head =
      alias ?? (program.dynamic ? expandWord(program, this.bindings) : braceWords(program.text)?.join(" "));
    if (head === undefined || head === program.text) return;
    if (nesting >= MAX_NESTING) {
      this.truncated = true;
      return;
    }
    let line = program.quoted && alias === undefined ? quoteForShell(head) : head;
    for (let k = at + 1; k < words.length; k++) {
      const w = words[k]!;
      const value = w.dynamic ? expandWord(w, this.bindings) : undefined;
      line += ` ${value !== undefined && !w.quoted ? value : quoteForShell(value ?? w.text)}`;
    }
    if (alias !== undefined) this.aliasesExpanding.add(program.text);
    this.analyze(line, { start: inv.start, end: inv.end }, nesting + 1);
    if (alias !== undefined) this.aliasesExpanding.delete(program.text);
  }

  /** Adds to `out` an invocation for each program `find`'s `-exec` (and kin) runs. */
  private findExecs(out: Invocation[], invocation: Invocation): void {
    const args = invocation.args;
    for (let k = 0; k < args.length; k++) {
      const a = args[k];
      if (a !== "-exec" && a !== "-execdir" && a !== "-ok" && a !== "-okdir") continue;
      let end = k + 1;
      while (end < args.length && args[end] !== ";" && args[end] !== "+") end++;
      const inner = args.slice(k + 1, end);
      const innerWrapped = unwrap(inner);
      const innerProgram = inner[innerWrapped.index] ?? "";
      const execInvocation: Invocation = {
        name: basename(innerProgram),
        words: invocation.words,
        facts: invocation.facts,
        program: innerProgram,
        args: inner.slice(innerWrapped.index + 1),
        argWords: invocation.argWords.slice(k + 2 + innerWrapped.index, end),
        assignments: invocation.assignments,
        redirects: [],
        elevated: invocation.elevated || innerWrapped.elevated,
        position: invocation.position,
        pipelineSize: invocation.pipelineSize,
        pipeline: invocation.pipeline,
        nesting: invocation.nesting,
        start: invocation.start,
        end: invocation.end,
      };
      out.push(execInvocation);
      const execRoles = rolesOf(execInvocation.name);
      this.noteSession(execInvocation, execRoles);
      this.nested(execInvocation, execInvocation.nesting, execRoles);
      k = end;
    }
  }

  /** Keeps the text's own commands that start a session (see `session`), in the order met. */
  private noteSession(inv: Invocation, roles: number): void {
    if (inv.nesting === 0 && (roles & NameRole.session) !== 0) this.sessions.push(inv);
  }

  /** Text run by the invocation (whose name has the `NameRole`s `roles`) that is itself shell or interpreter code. */
  private nested(inv: Invocation, nesting: number, roles: number): void {
    // Only programs that may nest (shells, `echo` and `printf` among them) or run inline code
    // hold any, or a here-document or here-string any program is given: a pipe, a `tee` or a
    // redirection to a file adds nothing then. Text read as shell pipes much of its commands into
    // others (tables, logs), and HTML reads as redirections (`<div class="x">`).
    if ((roles & NameRole.mayNest) === 0 && !runsInlineCode(inv.name, roles) && !hasBody(inv.redirects)) {
      return;
    }
    const span = { start: inv.start, end: inv.end };
    const scripts: string[] = [];
    const stdin = inv.redirects.find(
      (r) => r.body !== undefined && (r.op === "<<" || r.op === "<<-" || r.op === "<<<"),
    );
    if (stdin?.body !== undefined && nesting < MAX_NESTING) {
      const fed = xargsLine(inv, stdin.body);
      if (fed !== undefined) this.analyze(fed, span, nesting + 1);
    }
    if (isShell(inv.name)) {
      const c = shellCommandString(inv.args);
      if (c !== undefined) scripts.push(c);
      else if (stdin?.body !== undefined) scripts.push(stdin.body);
      else {
        const fed = this.processSubstitutionScript(inv.argWords);
        if (fed !== undefined) scripts.push(fed);
      }
    } else if (inv.name === "eval") {
      scripts.push(inv.args.join(" "));
    } else if (inv.name === "su" || inv.name === "script") {
      const k = inv.args.findIndex((a) => a === "-c" || a === "--command");
      if (k !== -1 && inv.args[k + 1] !== undefined) scripts.push(inv.args[k + 1]!);
    } else if (inv.name === "ssh") {
      const rest = sshRemoteCommand(inv.args);
      if (rest !== undefined) scripts.push(rest);
    } else if (inv.name === "watch") {
      const command = watchCommand(inv.args);
      if (command !== undefined) scripts.push(command);
    } else if (CONTAINER_EXEC.has(inv.name)) {
      const command = containerExecCommand(inv.name, inv.args);
      if (command !== undefined) scripts.push(command);
    } else if (inv.name === "ansible") {
      const command = ansibleShellCommand(inv.args);
      if (command !== undefined) scripts.push(command);
    }
    this.writtenText(inv, nesting);
    const interpreter = interpreterName(inv.name);
    const codeOptions = INLINE_CODE.get(interpreter);
    if (codeOptions) {
      let code: string | undefined;
      const k = inv.args.findIndex((a) => codeOptions.has(a));
      if (k !== -1) code = inv.args[k + 1];
      else if (codeOptions.size === 0) code = inv.args.find((a) => !a.startsWith("-"));
      else if (stdin?.body !== undefined) code = stdin.body;
      if (code !== undefined) {
        this.code.push({ interpreter, code, start: inv.start, end: inv.end });
        if (nesting < MAX_NESTING) for (const s of extractCodeStrings(code)) scripts.push(s);
      }
    }
    if (nesting >= MAX_NESTING) {
      if (scripts.length > 0) this.truncated = true;
      return;
    }
    for (const s of scripts) this.analyze(s, span, nesting + 1);
  }

  /** `sh <(echo '...')`: the script a shell reads from a process substitution whose output the text fixes. */
  private processSubstitutionScript(args: readonly Word[]): string | undefined {
    const operand = args.find((w) => !w.text.startsWith("-"));
    const pipeline = operand?.text.startsWith("<(") ? operand.substitutions[0] : undefined;
    return pipeline && staticOutput(pipeline, this.bindings);
  }

  /**
   * Text a command writes into a file (`echo '...' > x.go`, `cat > x.py <<EOF`) is source code
   * that something will run later; it is judged as code so a reverse shell cannot be staged
   * in a file first.
   */
  private writtenText(inv: Invocation, nesting: number): void {
    const writes = inv.redirects.some(isWrite);
    const piped = inv.position + 1 < inv.pipelineSize;
    if (!writes && !piped && inv.name !== "tee") return;
    if (inv.name === "echo" || inv.name === "printf") {
      const text = inv.args.filter((a) => !/^-[neE]+$/.test(a)).join(" ");
      if (text.length > 0)
        this.code.push({ interpreter: `${inv.name} output`, code: text, start: inv.start, end: inv.end });
      // A line written to a file is usually a script line (cron entry, rc file, hook): judge it as shell.
      if (writes && text.length > 0 && nesting < MAX_NESTING) {
        this.analyze(text, { start: inv.start, end: inv.end }, nesting + 1);
      }
    }
    const script = writes && inv.redirects.some((r) => isWrite(r) && isShellScript(r.target.text));
    for (const r of inv.redirects) {
      if (r.body !== undefined && (r.op === "<<" || r.op === "<<-") && !isShell(inv.name)) {
        this.code.push({ interpreter: "here-document", code: r.body, start: inv.start, end: inv.end });
        // Written into a shell start-up file or script, the here-document is shell that runs later.
        if (script && nesting < MAX_NESTING)
          this.analyze(r.body, { start: inv.start, end: inv.end }, nesting + 1);
      }
    }
  }

  /** `echo 'cmd' | sh`, `printf ... | bash`: the text echoed is the script the shell runs. */
  private feedThrough(
    commands: readonly SimpleCommand[],
    members: readonly Invocation[],
    nesting: number,
  ): void {
    if (nesting >= MAX_NESTING) return;
    for (let k = 0; k + 1 < members.length; k++) {
      const from = members[k]!;
      const to = members[k + 1]!;
      if (to.position !== from.position + 1) continue;
      if (from.name !== "echo" && from.name !== "printf") continue;
      const text = from.args.filter((a) => !/^-[neE]+$/.test(a)).join(" ");
      const source = commands[from.position];
      if (!source) continue;
      const interpreter = interpreterName(to.name);
      const inline = INLINE_CODE.get(interpreter);
      const reads =
        to.args.every((a) => a.startsWith("-") && !inline?.has(a)) &&
        (inline === undefined || inline.size > 0);
      if (STDIN_CODE.has(interpreter) && reads) {
        // `echo 'esyscmd(...)' | m4`, `echo 'exec /bin/sh' | tclsh`: the text is the program.
        this.code.push({ interpreter, code: text, start: source.start, end: to.end });
      }
      const fed = xargsLine(to, text);
      // Spanned as the xargs command, so a hit it already had there is not reported twice.
      if (fed !== undefined) this.analyze(fed, { start: to.start, end: to.end }, nesting + 1);
      if (!isShell(to.name) || shellCommandString(to.args) !== undefined) continue;
      this.analyze(text, { start: source.start, end: to.end }, nesting + 1);
    }
  }
}

const LEADING_RESERVED: ReadonlySet<string> = new Set([
  "{",
  "}",
  "!",
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "esac",
  "coproc",
]);
/** Words that open a loop or case header, which names no program. */
const HEADER_RESERVED: ReadonlySet<string> = new Set(["for", "case", "select", "in"]);

const ROLES = nameRoles([
  [LEADING_RESERVED, NameRole.leadingReserved],
  [HEADER_RESERVED, NameRole.headerReserved],
  [WRAPPER_NAMES, NameRole.wrapper],
  [MAY_NEST, NameRole.mayNest],
  [INLINE_CODE.keys(), NameRole.inlineCode],
  [ALL_SESSIONS, NameRole.session],
  [BINDERS, NameRole.binds],
  [STAGING_PROGRAMS, NameRole.stages],
]);

function rolesOf(name: string): number {
  return ROLES.get(name) ?? 0;
}

/** The `WordFact` bits of any of `words`. */
function factsOfAll(words: readonly Word[]): number {
  let facts = 0;
  for (let k = 0; k < words.length; k++) facts |= words[k]!.facts;
  return facts;
}

function textOf(word: Word): string {
  return word.text;
}

/**
 * The words' texts. `map` makes an array of the exact size without holes; pushing to an empty
 * array gives it room for 17 elements, and commands have two or three words.
 */
function wordTexts(words: readonly Word[]): readonly string[] {
  return words.length === 0 ? NO_STRINGS : words.map(textOf);
}

/** The command's words without the compound-command keywords before (or instead of) a program. */
function withoutReservedWords(words: readonly Word[]): readonly Word[] {
  let k = 0;
  while (k < words.length && !words[k]!.quoted && LEADING_RESERVED.has(words[k]!.text)) k++;
  const first = words[k];
  if (first && !first.quoted && HEADER_RESERVED.has(first.text)) return NO_WORDS;
  return k === 0 ? words : words.slice(k);
}

/** The string after `-c` (or an option group holding `c`, as in `bash -lc`), if any. */
export function shellCommandString(args: readonly string[]): string | undefined {
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (!a.startsWith("-") || a === "-" || a === "--") return undefined;
    if (a.startsWith("--")) continue;
    if (a.includes("c")) return args[k + 1];
    if (a === "-o" || a === "-O") k++;
  }
  return undefined;
}

const SSH_OPTIONS_WITH_VALUE = new Set(
  "-b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w -B".split(" "),
);

/** The command `watch [options] cmd...` runs through `sh -c`. */
function watchCommand(args: readonly string[]): string | undefined {
  let k = 0;
  while (k < args.length && args[k]!.startsWith("-")) {
    const a = args[k]!;
    k += a === "-n" || a === "--interval" || a === "-q" || a === "--equexit" ? 2 : 1;
  }
  return k < args.length ? args.slice(k).join(" ") : undefined;
}

/** Options of `docker exec` (and podman's, nerdctl's) that take a value. */
const EXEC_OPTIONS_WITH_VALUE = new Set(
  "-e --env --env-file -u --user -w --workdir --detach-keys".split(" "),
);

/**
 * The command `kubectl exec ... -- cmd...` or `docker exec [options] container cmd...` runs in
 * the container, as shell text. The words are passed as they are (no shell joins them), so they
 * are quoted back one by one.
 */
function containerExecCommand(name: string, args: readonly string[]): string | undefined {
  if (args[0] !== "exec") return undefined;
  let rest: readonly string[];
  if (name === "kubectl" || name === "oc") {
    const k = args.indexOf("--");
    if (k === -1) return undefined;
    rest = args.slice(k + 1);
  } else {
    let k = 1;
    while (k < args.length && args[k]!.startsWith("-")) k += EXEC_OPTIONS_WITH_VALUE.has(args[k]!) ? 2 : 1;
    rest = args.slice(k + 1);
  }
  if (rest.length === 0) return undefined;
  // A shell without `-c` (`bash`, `/bin/sh -l`) is an interactive session in the container, not a command line.
  if (isShell(basename(rest[0]!)) && shellCommandString(rest.slice(1)) === undefined) return undefined;
  return rest.map(quoteForShell).join(" ");
}

/** The command `ansible hosts -m shell|command|raw -a '...'` runs on each host (`command` is the default module). */
function ansibleShellCommand(args: readonly string[]): string | undefined {
  let module = "command";
  let command: string | undefined;
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (a === "-m" || a === "--module-name") module = args[k + 1] ?? module;
    else if (a.startsWith("--module-name=")) module = a.slice(14);
    else if (a === "-a" || a === "--args") command = args[k + 1];
    else if (a.startsWith("--args=")) command = a.slice(7);
  }
  const shellModule =
    module === "shell" ||
    module === "command" ||
    module === "raw" ||
    module.endsWith(".shell") ||
    module.endsWith(".command") ||
    module.endsWith(".raw");
  return shellModule ? command : undefined;
}

/** The remote command given to `ssh host cmd...`, joined as the remote shell would see it. */
function sshRemoteCommand(args: readonly string[]): string | undefined {
  let k = 0;
  while (k < args.length && args[k]!.startsWith("-")) k += SSH_OPTIONS_WITH_VALUE.has(args[k]!) ? 2 : 1;
  const rest = args.slice(k + 1);
  return rest.length > 0 ? rest.join(" ") : undefined;
}

/** Analyses interpreter source (a code-execution tool's input) and the command lines in its strings. */
export function analyzeCode(code: string, interpreter: string): Analysis {
  const analyzer = new Analyzer(code.length);
  const span = { start: 0, end: code.length };
  analyzer.code.push({ interpreter, code, start: 0, end: code.length, tool: true });
  for (const s of extractCodeStrings(code)) analyzer.analyze(s, span, 1);
  return analyzer;
}

/** Analyses shell text; never throws, linear in its length. */
export function analyzeShell(text: string, span?: { start: number; end: number }): Analysis {
  const analyzer = new Analyzer(text.length);
  analyzer.analyze(text, span, 0);
  if (span === undefined) analyzer.session(text);
  return analyzer;
}
