import { Channel } from "../../../gen/guard/v1/types_pb.js";
import type { SegmentView } from "../detector.js";
import { append } from "./append.js";

/**
 * Which text in a segment is a command to judge, and where it starts. Tool-call arguments
 * count when the tool or the argument looks like a shell or code runner; prose counts only
 * inside fenced blocks labelled as shell and on `$ ` prompt lines, since ordinary sentences
 * that mention `rm -rf` are explanations, not proposals.
 */

export interface CommandSource {
  readonly text: string;
  /** UTF-16 index of `text` in the segment. */
  readonly offset: number;
  /** `shell` text is parsed as shell; `code` text is interpreter source (Python, JavaScript, ...). */
  readonly kind: "shell" | "code";
}

const SHELL_KEYS =
  /^(command|commands|cmd|cmds|cmdline|command_?line|script|shell|shell_?command|bash|sh|run|exec|execute|args|argv|input|line|terminal|ssh_command)$/i;
const CODE_KEYS = /^(code|source|source_?code|program|snippet|python|python_?code)$/i;
const SHELL_TOOLS =
  /bash|shell|exec|terminal|run|command|cmd|console|ssh|sh$|^sh|zsh|powershell|process|computer/i;
const CODE_TOOLS = /python|ipython|jupyter|notebook|code_?interpreter|eval|repl|node|javascript/i;

function lastKey(key: string): string {
  const parts = key.split(/[./[\]]/).filter((p) => p.length > 0 && !/^[0-9]+$/.test(p));
  return parts[parts.length - 1] ?? "";
}

function toolSources(segment: SegmentView): CommandSource[] {
  const key = lastKey(segment.argumentKey);
  const codeTool = CODE_TOOLS.test(segment.toolName);
  const code = CODE_KEYS.test(key) || (codeTool && key === "");
  const shell = SHELL_KEYS.test(key) || (SHELL_TOOLS.test(segment.toolName) && !codeTool);
  const out: CommandSource[] = [];
  if (shell || (code && !codeTool)) out.push({ text: segment.text, offset: 0, kind: "shell" });
  if (code || codeTool) out.push({ text: segment.text, offset: 0, kind: "code" });
  return out;
}

const SHELL_FENCES: ReadonlySet<string> = new Set([
  "bash",
  "sh",
  "shell",
  "zsh",
  "console",
  "shell-session",
  "shellsession",
  "terminal",
  "ksh",
]);

/** Fenced shell blocks (```bash ... ```) and `$ ` prompt lines outside any fence. */
export function proseSources(text: string): CommandSource[] {
  const out: CommandSource[] = [];
  let lineStart = 0;
  let fence: { char: string; length: number; lang: string; bodyStart: number } | undefined;
  while (lineStart <= text.length) {
    const nl = text.indexOf("\n", lineStart);
    const lineEnd = nl === -1 ? text.length : nl;
    const line = text.slice(lineStart, lineEnd);
    const trimmed = line.replace(/^ {0,3}/, "");
    const indent = line.length - trimmed.length;
    const marker = /^(`{3,}|~{3,})/.exec(trimmed);
    if (fence === undefined && marker) {
      const lang = trimmed
        .slice(marker[1]!.length)
        .trim()
        .split(/[\s{,]/, 1)[0]!
        .toLowerCase();
      fence = {
        char: marker[1]![0]!,
        length: marker[1]!.length,
        lang,
        bodyStart: nl === -1 ? text.length : nl + 1,
      };
    } else if (
      fence !== undefined &&
      marker &&
      marker[1]![0] === fence.char &&
      marker[1]!.length >= fence.length &&
      trimmed.slice(marker[1]!.length).trim() === ""
    ) {
      if (SHELL_FENCES.has(fence.lang))
        append(out, blockSources(text, fence.bodyStart, lineStart, fence.lang));
      fence = undefined;
    } else if (fence === undefined) {
      const prompt = /^\$ /.exec(trimmed);
      if (prompt) out.push({ text: trimmed.slice(2), offset: lineStart + indent + 2, kind: "shell" });
    }
    if (nl === -1) break;
    lineStart = nl + 1;
  }
  if (fence !== undefined && SHELL_FENCES.has(fence.lang))
    append(out, blockSources(text, fence.bodyStart, text.length, fence.lang));
  return out;
}

/** A block's body; in console transcripts only the `$ ` lines are commands, the rest is output. */
function blockSources(text: string, start: number, end: number, lang: string): CommandSource[] {
  if (start >= end) return [];
  const body = text.slice(start, end);
  const transcript =
    lang === "console" || lang === "shell-session" || lang === "shellsession" || lang === "terminal";
  // Blocks labelled `bash` that are really transcripts start their commands with `$ `.
  const console = transcript || body.trimStart().startsWith("$ ");
  if (!console) return [{ text: body, offset: start, kind: "shell" }];
  const out: CommandSource[] = [];
  let k = 0;
  while (k < body.length) {
    const nl = body.indexOf("\n", k);
    const lineEnd = nl === -1 ? body.length : nl;
    const line = body.slice(k, lineEnd);
    const prompt = /^[^\s$#]{0,40}[$#] /.exec(line);
    const promptText = line.startsWith("$ ") ? "$ " : prompt?.[0];
    if (promptText?.endsWith("$ ")) {
      const skip = promptText.length;
      out.push({ text: line.slice(skip), offset: start + k + skip, kind: "shell" });
    }
    if (nl === -1) break;
    k = nl + 1;
  }
  return out;
}

export function commandSources(segment: SegmentView): CommandSource[] {
  if (segment.channel === Channel.TOOL_CALL_ARGUMENTS) return toolSources(segment);
  if (segment.channel === Channel.PROSE) return proseSources(segment.text);
  return [];
}
