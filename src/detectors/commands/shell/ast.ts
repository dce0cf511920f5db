/**
 * The syntax the command detectors read. It is deliberately flat: rules ask "which programs
 * run, with which arguments, fed by what", not how a script is laid out, so compound commands
 * (`if`, loops, groups) dissolve into the simple commands they contain.
 *
 * Offsets are UTF-16 indexes into the text that was parsed (or, for text re-parsed from a
 * `bash -c` string, the span of the command that carried it, since the inner text is not a
 * verbatim slice of the outer one).
 */

/** One shell word after quote removal. Expansions (`$X`, `$(...)`) stay verbatim in `text`. */
export interface Word {
  text: string;
  /** `WordFact` bits (see word-facts.ts) of `text`. */
  facts: number;
  start: number;
  end: number;
  /** Some part was quoted or escaped, so the word cannot be a reserved word. */
  quoted: boolean;
  /** Contains a parameter expansion or a command substitution, so its value is not static. */
  dynamic: boolean;
  /** Pipelines run by `$(...)`, backticks or `<(...)` inside this word. */
  substitutions: Pipeline[];
}

/** `2>&1`, `> /dev/tcp/h/p`, `<<EOF` (with the here-document body), ... */
export interface Redirect {
  /** Source descriptor as written (`2`, `&` for `&>`), empty when implied. */
  fd: string;
  op: string;
  target: Word;
  /** Body of a here-document or the text of a here-string. */
  body?: string;
  start: number;
  end: number;
}

export interface SimpleCommand {
  /** `NAME=value` words before the command name. */
  assignments: Word[];
  words: Word[];
  redirects: Redirect[];
  start: number;
  end: number;
}

export interface Pipeline {
  commands: SimpleCommand[];
  start: number;
  end: number;
  /** Nesting depth: 0 at top level, +1 per subshell or substitution. */
  depth: number;
}

/** `name() ...` definitions, kept to recognise a function that calls itself through a pipe. */
export interface FunctionDef {
  name: string;
  start: number;
  end: number;
}

export interface Script {
  /** Every pipeline, nested ones included, in source order of their start. */
  pipelines: Pipeline[];
  functions: FunctionDef[];
  /** Nesting went past the depth bound; the deepest text was skipped, not parsed. */
  truncated: boolean;
}
