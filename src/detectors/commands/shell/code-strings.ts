/**
 * String literals inside interpreter code (`python -c`, `perl -e`, a code-execution tool's
 * source) that may be shell run through `system`, `os.system`, `subprocess`, backticks or
 * `exec`. The detector cannot follow data flow, so every literal that could be a command line
 * is offered to the shell analysis, where only specific dangerous shapes produce findings.
 * A list of literals (`["rm", "-rf", "/"]`) is joined as an argument vector.
 */

/** Literals kept per code fragment; a longer tail of literals is ignored. */
const MAX_LITERALS = 256;

const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", "0": "\0" };

interface Literal {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

function scanLiterals(code: string): Literal[] {
  const out: Literal[] = [];
  let i = 0;
  while (i < code.length && out.length < MAX_LITERALS) {
    const c = code[i]!;
    if (c !== '"' && c !== "'" && c !== "`") {
      i++;
      continue;
    }
    const start = i;
    const parts: string[] = [];
    i++;
    let runStart = i;
    while (i < code.length && code[i] !== c) {
      if (code[i] === "\\" && i + 1 < code.length) {
        parts.push(code.slice(runStart, i));
        const e = code[i + 1]!;
        parts.push(ESCAPES[e] ?? e);
        i += 2;
        runStart = i;
      } else {
        i++;
      }
    }
    parts.push(code.slice(runStart, i));
    i++;
    out.push({ text: parts.join(""), start, end: Math.min(i, code.length) });
  }
  return out;
}

/** The texts of `code`'s string literals, escapes read: a file named without a slash (`'.env'`) is one. */
export function literalTexts(code: string): string[] {
  return scanLiterals(code).map((l) => l.text);
}

function isSeparator(code: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = code[k];
    if (c !== "," && c !== " " && c !== "\t" && c !== "\n") return false;
  }
  return true;
}

/** `text` quoted, where it needs it, so that the shell reads it back as one word. */
export function quoteForShell(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** Candidate command lines: single literals with a space or a slash, and joined literal lists. */
export function extractCodeStrings(code: string): string[] {
  const literals = scanLiterals(code);
  const out: string[] = [];
  let group: Literal[] = [];
  const flush = (): void => {
    if (group.length > 1) out.push(group.map((l) => quoteForShell(l.text)).join(" "));
    group = [];
  };
  for (const literal of literals) {
    const previous = group[group.length - 1];
    if (
      previous &&
      isSeparator(code, previous.end, literal.start) &&
      code.slice(previous.end, literal.start).includes(",")
    ) {
      group.push(literal);
    } else {
      flush();
      group = [literal];
    }
    if (literal.text.includes(" ") || literal.text.includes("/")) out.push(literal.text);
  }
  flush();
  return out;
}
