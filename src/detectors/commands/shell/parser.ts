import type { FunctionDef, Pipeline, Redirect, Script, SimpleCommand, Word } from "./ast.js";
import { CommandNode, FunctionNode, listOf, PipelineNode, RedirectNode, WordNode } from "./nodes.js";
import { factsOf, factTable } from "./word-facts.js";

/**
 * A small POSIX/bash parser written for hostile input rather than for execution. It is total
 * (any string parses; unterminated quotes or substitutions run to the end of the text), it
 * reads each character a bounded number of times, and nesting past `MAX_DEPTH` is skipped by
 * a flat scan instead of recursion, so 100 KB of `$(` costs linear time and a fixed stack.
 *
 * tree-sitter-bash through web-tree-sitter was tried first: it aborts the WebAssembly runtime
 * on 100 KB of `a|` and needs an asynchronous start, which a synchronous detector cannot wait for.
 */

/** Nesting of subshells and substitutions parsed structurally; deeper text is skipped. */
export const MAX_DEPTH = 24;

const NONE = -1;
const NL = 10;
const SPACE = 32;
const TAB = 9;
const HASH = 35;
const SEMI = 59;
const AMP = 38;
const PIPE = 124;
const LT = 60;
const GT = 62;
const LPAREN = 40;
const RPAREN = 41;
const BACKSLASH = 92;
const SQUOTE = 39;
const DQUOTE = 34;
const DOLLAR = 36;
const BACKTICK = 96;
const LBRACE = 123;
const RBRACE = 125;

function isNameStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 0x30 && c <= 0x39);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** A redirection starts with a descriptor, `<`, `>` or `&>`: most words start otherwise and are not tried. */
function mayStartRedirect(c: number): boolean {
  return c === GT || c === LT || c === AMP || isDigit(c);
}

/** A lookup table of the ASCII characters in `chars`, for tests made on every character. */
function charTable(chars: readonly number[]): Uint8Array {
  const table = new Uint8Array(128);
  for (const c of chars) table[c] = 1;
  return table;
}

const METACHARACTERS = [SPACE, TAB, NL, SEMI, AMP, PIPE, LT, GT, LPAREN, RPAREN];
const META = charTable(METACHARACTERS);

/** Set in PLAIN_RUN for a character that ends a run of plain word characters, beside any `WordFact` bits it has. */
const ENDS_RUN = 0x80;

/**
 * For each ASCII character, its `WordFact` bits, and ENDS_RUN too if it ends a run of plain word
 * characters (metacharacters, and the quotes, escapes and expansions that need quote removal).
 * Every list's closing character (`)`, a backtick) ends a run, so a run never crosses one.
 */
const PLAIN_RUN = factTable(
  [...METACHARACTERS, BACKSLASH, SQUOTE, DQUOTE, DOLLAR, BACKTICK].map((c) => [c, ENDS_RUN] as const),
);

/** Characters that end an unquoted word. */
function isMeta(c: number): boolean {
  return c >= 0 && c < 128 && META[c] === 1;
}

/** `NAME=...` with an unquoted name: an assignment when it precedes the command name. */
export function isAssignment(word: Word): boolean {
  const eq = word.text.indexOf("=");
  if (eq <= 0) return false;
  if (!isNameStart(word.text.charCodeAt(0))) return false;
  for (let k = 1; k < eq; k++) {
    const c = word.text.charCodeAt(k);
    // `a[1]=x` and `a+=x` are assignments too.
    if (!isNameChar(c) && !(k === eq - 1 && c === 0x2b) && c !== 0x5b && c !== 0x5d) return false;
  }
  return true;
}

const ANSI_ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/**
 * Shared empty lists: most words carry no substitution and most commands no redirection, and
 * allocating a fresh array for each made garbage collection dominate on long inputs. They are
 * replaced by a new array before the first push, never written to. Lists start as `listOf` their
 * first element: an empty array pushed to gets room for 17, and most lists stay short. Nodes and
 * lists are never made as literals, which V8 may pretenure: see nodes.ts.
 */
const NO_PIPELINES: Pipeline[] = [];
const NO_WORDS: Word[] = [];
const NO_REDIRECTS: Redirect[] = [];

interface PendingHeredoc {
  redirect: Redirect;
  delimiter: string;
  stripTabs: boolean;
}

class Parser {
  private i = 0;
  private readonly pipelines: Pipeline[] = [];
  private readonly functions: FunctionDef[] = [];
  private readonly pending: PendingHeredoc[] = [];
  private truncated = false;
  /** The `WordFact` bits of the last run `plainRunEnd` scanned. */
  private runFacts = 0;

  constructor(
    private readonly src: string,
    /** When set, every node gets this span (text re-parsed from inside a word). */
    private readonly span: { start: number; end: number } | undefined,
  ) {}

  run(): Script {
    this.parseList(NONE, 0);
    return { pipelines: this.pipelines, functions: this.functions, truncated: this.truncated };
  }

  private at(k: number): number {
    return k < this.src.length ? this.src.charCodeAt(k) : NONE;
  }

  private s(pos: number): number {
    return this.span ? this.span.start : pos;
  }

  private e(pos: number): number {
    return this.span ? this.span.end : pos;
  }

  /** Moves past blanks and line continuations; returns the character it stopped at, which callers test next. */
  private skipBlanks(): number {
    for (;;) {
      const c = this.at(this.i);
      if (c === SPACE || c === TAB || c === 13) this.i++;
      else if (c === BACKSLASH && this.at(this.i + 1) === NL) this.i += 2;
      else return c;
    }
  }

  private skipComment(): void {
    const nl = this.src.indexOf("\n", this.i);
    this.i = nl === -1 ? this.src.length : nl;
  }

  /** Consumes one newline and then any here-document bodies it starts. */
  private newline(): void {
    this.i++;
    // Indexed, not shifted: `<<a <<a ...` then a newline would make shift() quadratic.
    for (let d = 0; d < this.pending.length; d++) {
      const doc = this.pending[d]!;
      const bodyStart = this.i;
      let bodyEnd = this.src.length;
      let next = this.src.length;
      while (this.i < this.src.length) {
        const nl = this.src.indexOf("\n", this.i);
        const lineEnd = nl === -1 ? this.src.length : nl;
        let line = this.src.slice(this.i, lineEnd);
        if (doc.stripTabs) line = line.replace(/^\t+/, "");
        if (line.endsWith("\r")) line = line.slice(0, -1);
        if (line === doc.delimiter) {
          bodyEnd = this.i;
          next = nl === -1 ? this.src.length : nl + 1;
          break;
        }
        this.i = nl === -1 ? this.src.length : nl + 1;
      }
      doc.redirect.body = this.src.slice(bodyStart, bodyEnd);
      this.i = next;
    }
    // Setting the length is a call even when it changes nothing, and most lines start no here-document.
    if (this.pending.length > 0) this.pending.length = 0;
  }

  private skipNewlinesAndBlanks(): void {
    for (;;) {
      const c = this.skipBlanks();
      if (c === NL) this.newline();
      else if (c === HASH) this.skipComment();
      else return;
    }
  }

  /** Parses commands until `close` (consumed) or the end of the text. */
  private parseList(close: number, depth: number): void {
    for (;;) {
      const c = this.skipBlanks();
      if (c === NONE) return;
      if (c === close) {
        this.i++;
        return;
      }
      if (c === HASH) this.skipComment();
      else if (c === NL) this.newline();
      else if (c === SEMI || c === AMP || c === PIPE || c === RPAREN) this.i++;
      else this.parsePipeline(close, depth);
    }
  }

  private parsePipeline(close: number, depth: number): void {
    let commands: SimpleCommand[] | undefined;
    const start = this.i;
    const before = this.pipelines.length;
    let end = this.i;
    for (;;) {
      const command = this.parseCommand(close, depth);
      if (command) {
        if (commands === undefined) commands = listOf(command);
        else commands.push(command);
        end = Math.max(end, this.span ? end : command.end);
      }
      if (this.skipBlanks() === PIPE && this.at(this.i + 1) !== PIPE) {
        this.i += this.at(this.i + 1) === AMP ? 2 : 1;
        this.skipNewlinesAndBlanks();
        const c = this.at(this.i);
        if (c === NONE || c === close || c === SEMI || c === AMP || c === PIPE || c === RPAREN) break;
        continue;
      }
      break;
    }
    if (commands !== undefined)
      this.record(new PipelineNode(commands, this.s(start), this.e(end), depth), before);
    // `&&` and `||` continue the list; a newline may follow them.
    const c = this.at(this.i);
    if ((c === AMP && this.at(this.i + 1) === AMP) || (c === PIPE && this.at(this.i + 1) === PIPE)) {
      this.i += 2;
      this.skipNewlinesAndBlanks();
    }
  }

  /**
   * Records a pipeline in source order of its start. A pipeline ends after the pipelines nested
   * in it (those recorded from `before` on), which start later, so it goes in front of them
   * instead of after: the list never needs sorting, which prose with parentheses made it need
   * often. Each pipeline moves once per pipeline around it, and nesting is bounded, so this stays
   * linear. Under a `span` every node starts alike and the order of recording stands.
   */
  private record(pipeline: Pipeline, before: number): void {
    const list = this.pipelines;
    list.push(pipeline);
    if (this.span !== undefined) return;
    for (let k = list.length - 1; k > before; k--) list[k] = list[k - 1]!;
    list[before] = pipeline;
  }

  /** One simple command, or a subshell whose pipelines are recorded by the nested list. */
  private parseCommand(close: number, depth: number): SimpleCommand | undefined {
    this.skipBlanks();
    const start = this.i;
    const command = new CommandNode(NO_WORDS, NO_WORDS, NO_REDIRECTS, 0, 0);
    if (this.at(this.i) === LPAREN) {
      if (this.at(this.i + 1) === LPAREN) {
        this.skipBalanced(this.i + 2, 2);
      } else {
        this.i++;
        this.nestedList(RPAREN, depth + 1);
      }
    }
    // End of the last thing read, so spans exclude the blanks before a separator.
    let last = this.i;
    for (;;) {
      const c = this.skipBlanks();
      if (c === NONE || c === NL || c === SEMI || c === PIPE || c === close || c === RPAREN) break;
      if (c === AMP && this.at(this.i + 1) !== GT) break;
      if (c === HASH) {
        this.skipComment();
        continue;
      }
      if (c === LPAREN) {
        // `name() { ...; }`: a function definition; its body is parsed as ordinary commands.
        const only = command.words.length === 1 && command.assignments.length === 0;
        const closeParen = this.indexAfterBlanks(this.i + 1);
        if (only && this.at(closeParen) === RPAREN) {
          const name = command.words[0]!;
          this.functions.push(new FunctionNode(name.text, this.s(start), this.e(closeParen + 1)));
          this.i = closeParen + 1;
          command.words = NO_WORDS;
          last = this.i;
          break;
        }
        this.i++;
        this.nestedList(RPAREN, depth + 1);
        last = this.i;
        continue;
      }
      if (mayStartRedirect(c) && this.tryRedirect(command, close, depth)) {
        last = this.i;
        continue;
      }
      const wordStart = this.i;
      const word = this.parseWord(close, depth);
      last = this.i;
      if (command.words.length === 0 && this.unquotedName(wordStart) && isAssignment(word)) {
        if (command.assignments === NO_WORDS) command.assignments = listOf(word);
        else command.assignments.push(word);
      } else if (command.words === NO_WORDS) command.words = listOf(word);
      else command.words.push(word);
    }
    command.start = this.s(start);
    command.end = this.e(last);
    if (command.words.length === 0 && command.assignments.length === 0 && command.redirects.length === 0) {
      return undefined;
    }
    return command;
  }

  /** The word at `k` starts with an unquoted `NAME=` (quotes may follow in the value). */
  private unquotedName(k: number): boolean {
    if (!isNameStart(this.at(k))) return false;
    let j = k + 1;
    while (isNameChar(this.at(j))) j++;
    if (this.at(j) === 0x2b) j++;
    return this.at(j) === 0x3d;
  }

  private indexAfterBlanks(k: number): number {
    let j = k;
    while (this.at(j) === SPACE || this.at(j) === TAB) j++;
    return j;
  }

  /** A nested list, or a flat skip past its end once nesting is too deep. */
  private nestedList(close: number, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.truncated = true;
      if (close === BACKTICK) {
        const end = this.src.indexOf("`", this.i);
        this.i = end === -1 ? this.src.length : end + 1;
      } else {
        this.skipBalanced(this.i, 1);
      }
      return;
    }
    this.parseList(close, depth);
  }

  /** Skips to the `)` that closes `open` already-open parentheses, stepping over quotes. */
  private skipBalanced(from: number, open: number): void {
    let level = open;
    let k = from;
    while (k < this.src.length && level > 0) {
      const c = this.src.charCodeAt(k);
      if (c === BACKSLASH) k += 2;
      else if (c === SQUOTE) {
        const q = this.src.indexOf("'", k + 1);
        k = q === -1 ? this.src.length : q + 1;
      } else {
        if (c === LPAREN) level++;
        else if (c === RPAREN) level--;
        k++;
      }
    }
    this.i = Math.min(k, this.src.length);
  }

  /** Parses a redirection at the cursor if there is one. */
  private tryRedirect(command: CommandNode, close: number, depth: number): boolean {
    const start = this.i;
    let k = this.i;
    while (isDigit(this.at(k))) k++;
    const c = this.at(k);
    // Most words are not redirections: give up before cutting out a descriptor (`2024-01-01`).
    if (c !== GT && c !== LT && !(c === AMP && k === start)) return false;
    let fd = k > start ? this.src.slice(start, k) : "";
    let op: string;
    const n1 = this.at(k + 1);
    const n2 = this.at(k + 2);
    if (fd === "" && c === AMP && n1 === GT) {
      fd = "&";
      op = n2 === GT ? ">>" : ">";
    } else if (c === GT) {
      // `>(...)` is a process substitution, parsed as a word.
      if (n1 === LPAREN) return false;
      op = n1 === GT ? ">>" : n1 === AMP ? ">&" : n1 === PIPE ? ">|" : ">";
    } else if (c === LT) {
      if (n1 === LPAREN) return false;
      if (n1 === LT) op = n2 === LT ? "<<<" : n2 === 0x2d ? "<<-" : "<<";
      else op = n1 === AMP ? "<&" : n1 === GT ? "<>" : "<";
    } else {
      return false;
    }
    this.i = k + (fd === "&" ? 1 : 0) + op.length;
    const t = this.skipBlanks();
    const empty = t === NONE || t === NL || (isMeta(t) && t !== LPAREN) || t === close;
    const target: Word = empty
      ? new WordNode("", 0, this.s(this.i), this.e(this.i), false, false, NO_PIPELINES)
      : this.parseWord(close, depth);
    const redirect = new RedirectNode(fd, op, target, this.s(start), this.e(this.i));
    if (op === "<<" || op === "<<-") {
      this.pending.push({ redirect, delimiter: target.text, stripTabs: op === "<<-" });
    } else if (op === "<<<") {
      redirect.body = target.text;
    }
    if (command.redirects === NO_REDIRECTS) command.redirects = listOf(redirect);
    else command.redirects.push(redirect);
    return true;
  }

  /** The end of the run of plain word characters (see PLAIN_RUN) that starts at `k`; sets `runFacts`. */
  private plainRunEnd(k: number): number {
    let end = k;
    let facts = 0;
    while (end < this.src.length) {
      const c = this.src.charCodeAt(end);
      if (c < 128) {
        const bits = PLAIN_RUN[c]!;
        if ((bits & ENDS_RUN) !== 0) break;
        facts |= bits;
      }
      end++;
    }
    this.runFacts = facts;
    return end;
  }

  /**
   * One word: quote removal, escapes, ANSI-C strings; substitutions parsed as nested lists.
   * Pieces are appended to a string rather than collected in an array: an array that is pushed
   * to gets room for 17 elements, and most words that need quote removal have one or two pieces.
   */
  private parseWord(close: number, depth: number): Word {
    const start = this.i;
    // Fast path: a word of plain characters needs no quote removal, and its node is made whole.
    const plain = this.plainRunEnd(start);
    const next = this.at(plain);
    if (plain > start && (next === NONE || isMeta(next) || next === close)) {
      this.i = plain;
      return new WordNode(
        this.src.slice(start, plain),
        this.runFacts,
        this.s(start),
        this.e(plain),
        false,
        false,
        NO_PIPELINES,
      );
    }
    const word = new WordNode("", 0, 0, 0, false, false, NO_PIPELINES);
    // The plain run already scanned is taken whole; the loop below starts after it.
    let text = this.src.slice(start, plain);
    this.i = plain;
    for (;;) {
      const c = this.at(this.i);
      if (c === NONE) break;
      if (c === close && this.i > start) break;
      if ((c === LT || c === GT) && this.at(this.i + 1) === LPAREN && this.i === start) {
        text += this.substitution(word, this.i + 2, depth);
        continue;
      }
      if (isMeta(c) && this.i > start) break;
      if (isMeta(c)) {
        // A lone metacharacter where a word was expected: take it literally to make progress.
        text += this.src[this.i]!;
        this.i++;
        break;
      }
      if (c === BACKSLASH) {
        word.quoted = true;
        if (this.at(this.i + 1) === NL) this.i += 2;
        else {
          text += this.src.slice(this.i + 1, this.i + 2);
          this.i += 2;
        }
      } else if (c === SQUOTE) {
        word.quoted = true;
        const q = this.src.indexOf("'", this.i + 1);
        const end = q === -1 ? this.src.length : q;
        text += this.src.slice(this.i + 1, end);
        this.i = q === -1 ? end : q + 1;
      } else if (c === DQUOTE) {
        word.quoted = true;
        this.i++;
        text += this.doubleQuoted(word, depth);
      } else if (c === DOLLAR) {
        text += this.dollar(word, depth, true);
      } else if (c === BACKTICK) {
        text += this.backtick(word, depth);
      } else {
        const end = this.plainRunEnd(this.i + 1);
        text += this.src.slice(this.i, end);
        this.i = end;
      }
    }
    word.text = text;
    word.facts = factsOf(text);
    word.start = this.s(start);
    word.end = this.e(this.i);
    return word;
  }

  /** The text of a double-quoted string after quote removal; the cursor is past the opening quote. */
  private doubleQuoted(word: Word, depth: number): string {
    let text = "";
    for (;;) {
      const c = this.at(this.i);
      if (c === NONE) return text;
      if (c === DQUOTE) {
        this.i++;
        return text;
      }
      if (c === BACKSLASH) {
        const n = this.at(this.i + 1);
        if (n === NL) this.i += 2;
        else if (n === DOLLAR || n === BACKTICK || n === DQUOTE || n === BACKSLASH) {
          text += this.src[this.i + 1]!;
          this.i += 2;
        } else {
          text += "\\";
          this.i++;
        }
      } else if (c === DOLLAR) {
        text += this.dollar(word, depth, false);
      } else if (c === BACKTICK) {
        text += this.backtick(word, depth);
      } else {
        // Copy a run of plain characters at once.
        let k = this.i + 1;
        while (k < this.src.length) {
          const d = this.src.charCodeAt(k);
          if (d === DQUOTE || d === BACKSLASH || d === DOLLAR || d === BACKTICK) break;
          k++;
        }
        text += this.src.slice(this.i, k);
        this.i = k;
      }
    }
  }

  /** `$(...)`, `$((...))`, `${...}`, `$NAME`, `$'...'` (unquoted only) and a lone `$`, as the word keeps it. */
  private dollar(word: Word, depth: number, unquoted: boolean): string {
    const start = this.i;
    const n = this.at(this.i + 1);
    if (n === LPAREN) {
      word.dynamic = true;
      if (this.at(this.i + 2) === LPAREN) {
        this.skipBalanced(this.i + 3, 2);
        return this.src.slice(start, this.i);
      }
      return this.substitution(word, this.i + 2, depth);
    }
    if (n === LBRACE) {
      word.dynamic = true;
      let level = 1;
      let k = this.i + 2;
      while (k < this.src.length && level > 0) {
        const c = this.src.charCodeAt(k);
        if (c === LBRACE) level++;
        else if (c === RBRACE) level--;
        k++;
      }
      this.i = k;
      return this.src.slice(start, k);
    }
    if (unquoted && n === SQUOTE) {
      word.quoted = true;
      this.i += 2;
      return this.ansiC();
    }
    if (unquoted && n === DQUOTE) {
      word.quoted = true;
      this.i += 2;
      return this.doubleQuoted(word, depth);
    }
    if (isNameStart(n)) {
      word.dynamic = true;
      let k = this.i + 2;
      while (isNameChar(this.at(k))) k++;
      this.i = k;
      return this.src.slice(start, k);
    }
    if (n !== NONE && "@*#?-$!0123456789".includes(this.src[this.i + 1]!)) {
      word.dynamic = true;
      this.i += 2;
      return this.src.slice(start, this.i);
    }
    this.i++;
    return "$";
  }

  /** The body of `$'...'`, with its escapes decoded; the cursor is past the opening quote. */
  private ansiC(): string {
    let out = "";
    for (;;) {
      const c = this.at(this.i);
      if (c === NONE) return out;
      if (c === SQUOTE) {
        this.i++;
        return out;
      }
      if (c !== BACKSLASH) {
        out += this.src[this.i]!;
        this.i++;
        continue;
      }
      const e = this.src[this.i + 1] ?? "";
      const simple = ANSI_ESCAPES[e];
      if (simple !== undefined) {
        out += simple;
        this.i += 2;
      } else if (e === "x") {
        let k = this.i + 2;
        while (k < this.i + 4 && isHex(this.at(k))) k++;
        out +=
          k > this.i + 2 ? String.fromCharCode(Number.parseInt(this.src.slice(this.i + 2, k), 16)) : "\\x";
        this.i = k;
      } else if (e >= "0" && e <= "7") {
        let k = this.i + 1;
        while (k < this.i + 4 && this.at(k) >= 0x30 && this.at(k) <= 0x37) k++;
        out += String.fromCharCode(Number.parseInt(this.src.slice(this.i + 1, k), 8) & 0xff);
        this.i = k;
      } else {
        out += `\\${e}`;
        this.i += 2;
      }
    }
  }

  /** A substitution whose body starts at `bodyStart` and ends at the matching `)`; returns it as written. */
  private substitution(word: Word, bodyStart: number, depth: number): string {
    const start = this.i;
    const before = this.pipelines.length;
    this.i = bodyStart;
    this.nestedList(RPAREN, depth + 1);
    this.addSubstitutions(word, before);
    return this.src.slice(start, this.i);
  }

  /** A backtick substitution, returned as written. */
  private backtick(word: Word, depth: number): string {
    const start = this.i;
    const before = this.pipelines.length;
    this.i++;
    this.nestedList(BACKTICK, depth + 1);
    this.addSubstitutions(word, before);
    return this.src.slice(start, this.i);
  }

  /** Marks `word` dynamic and gives it the pipelines recorded since there were `before`. */
  private addSubstitutions(word: Word, before: number): void {
    word.dynamic = true;
    for (let k = before; k < this.pipelines.length; k++) {
      const pipeline = this.pipelines[k]!;
      if (word.substitutions === NO_PIPELINES) word.substitutions = listOf(pipeline);
      else word.substitutions.push(pipeline);
    }
  }
}

/**
 * Parses shell text. Never throws; linear in the length of `text`. `span`, when given, is the
 * span every node reports (used for text re-parsed out of a quoted word).
 */
export function parseShell(text: string, span?: { start: number; end: number }): Script {
  return new Parser(text, span).run();
}
