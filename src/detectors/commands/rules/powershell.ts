import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import type { Analysis, Invocation } from "../shell/analyze.js";
import { ruleModule } from "./dispatch.js";
import { fetchesVendorInstaller } from "./download-exec.js";
import { type Hit, hitOn, pushHit } from "./types.js";
import { judgeWindowsCommand, type WindowsVerdict, windowsHit, windowsProgram } from "./windows.js";

/**
 * PowerShell command lines (`powershell -c "..."`, `pwsh -EncodedCommand <base64>`, and the
 * same behind `cmd /c`): the script they run is cut out of the arguments, decoded when it is
 * given encoded, and judged: a download run as code (`iex (New-Object Net.WebClient)
 * .DownloadString(...)`), and each statement as a Windows command (windows.ts: Defender off,
 * registry hives saved, ...). A hidden window, a skipped profile or a bypassed execution policy
 * are how such cradles are launched, but honest scripts use them too: they only add to how sure
 * a finding is, never make one.
 */

/** PowerShell's executables as the dispatch meets them; `windowsProgram` folds case and `.exe`. */
const POWERSHELL_NAMES = ["powershell", "pwsh"].flatMap((p) => [
  p,
  `${p}.exe`,
  p.toUpperCase(),
  `${p.toUpperCase()}.EXE`,
  p === "powershell" ? "PowerShell.exe" : "Pwsh.exe",
]);

function isPowerShell(word: string): boolean {
  const program = windowsProgram(word);
  return program === "powershell" || program === "pwsh";
}

/** The script a command line runs, and the launch options that often come with a cradle. */
interface CommandLine {
  readonly script?: string;
  /** `-EncodedCommand` was given: `script` is what it decodes to, absent when it does not decode. */
  readonly encoded: boolean;
  /** The launch options that hide the run (a hidden window, ...), as phrases for a reason. */
  readonly stealth: readonly string[];
}

/**
 * The parameter `word` names, lowered and without its `-`, `--` or `/`: PowerShell takes any
 * unambiguous prefix of a parameter's name (`-enc`, `-NoP`, `/c`).
 */
function parameter(word: string): string | undefined {
  const m = /^(?:--?|\/)([A-Za-z]{1,40})(?::.*)?$/.exec(word);
  return m ? m[1]!.toLowerCase() : undefined;
}

/** Whether `p` abbreviates `name`, at least `min` letters long. */
function abbreviates(p: string, name: string, min: number): boolean {
  return p.length >= min && name.startsWith(p);
}

const isCommand = (p: string) => p === "c" || abbreviates(p, "command", 3);
const isFile = (p: string) => p === "f" || abbreviates(p, "file", 2);
const isEncodedCommand = (p: string) => p === "e" || p === "ec" || abbreviates(p, "encodedcommand", 2);
const isWindowStyle = (p: string) => p === "w" || abbreviates(p, "windowstyle", 3);
const isExecutionPolicy = (p: string) => p === "ep" || abbreviates(p, "executionpolicy", 2);
const isNoProfile = (p: string) => p === "nop" || abbreviates(p, "noprofile", 3);
/** Parameters that take a value, which must not be read as the script. */
const TAKES_VALUE = [
  "version",
  "psconsolefile",
  "inputformat",
  "outputformat",
  "configurationname",
  "workingdirectory",
  "settingsfile",
  "custompipename",
  "encodedarguments",
];

/**
 * The script `program` runs with `args`. After `-Command` every remaining word is the script;
 * without it Windows PowerShell runs its operands as a command, while pwsh runs its first
 * operand as a script file. A script file (`-File x.ps1`) is not text to judge here.
 */
function commandLine(program: string, args: readonly string[]): CommandLine {
  const stealth: string[] = [];
  let encoded: string | undefined;
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    const p = parameter(a);
    if (p === undefined) {
      if (a === "-" || windowsProgram(program) === "pwsh") break;
      return { script: args.slice(k).join(" "), encoded: false, stealth };
    }
    if (isCommand(p)) return { script: args.slice(k + 1).join(" "), encoded: false, stealth };
    if (isFile(p)) break;
    if (isEncodedCommand(p)) {
      encoded = args[k + 1] ?? "";
      k++;
    } else if (isWindowStyle(p)) {
      if (args[k + 1]?.toLowerCase() === "hidden") stealth.push("in a hidden window");
      k++;
    } else if (isExecutionPolicy(p)) {
      if (args[k + 1]?.toLowerCase() === "bypass") stealth.push("bypassing the execution policy");
      k++;
    } else if (isNoProfile(p)) {
      stealth.push("without the user's profile");
    } else if (TAKES_VALUE.some((name) => abbreviates(p, name, 2))) {
      k++;
    }
  }
  if (encoded === undefined) return { encoded: false, stealth };
  const script = decodeEncodedCommand(encoded);
  return script === undefined ? { encoded: true, stealth } : { script, encoded: true, stealth };
}

/**
 * The text of `-EncodedCommand`'s value: base64 of UTF-16LE. Undefined when it is not base64
 * or does not decode to text (PowerShell would refuse it too).
 */
export function decodeEncodedCommand(value: string): string | undefined {
  if (value.length === 0 || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return undefined;
  const text = Buffer.from(value, "base64").toString("utf16le");
  return isText(text) ? text : undefined;
}

/** No control characters but white space: bytes that were not UTF-16 text decode to some. */
function isText(text: string): boolean {
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0xfffd) return false;
  }
  return true;
}

/** Ways PowerShell runs text as code. */
const RUNS_TEXT = /\b(?:iex|invoke-expression)\b|\[scriptblock\]::create/i;
/** Ways PowerShell starts a program file. */
const STARTS_FILE = /\b(?:start-process|saps|invoke-item)\b/i;
/** Ways PowerShell fetches from the network: WebClient methods, the web cmdlets and their aliases, BITS. */
const DOWNLOADS =
  /\.download(?:string|data|file)\b|\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|start-bitstransfer|curl|wget)\b|net\.http\.httpclient|xmlhttp/i;
const URLS = /https?:\/\/[^\s'"()]{1,2000}/gi;

/** A download run as code or started as a program: high, or low from a vendor's documented installer. */
function downloadRun(script: string): WindowsVerdict | undefined {
  if (!DOWNLOADS.test(script)) return undefined;
  const runs = RUNS_TEXT.test(script);
  if (!runs && !STARTS_FILE.test(script)) return undefined;
  if (fetchesVendorInstaller(script.match(URLS) ?? []))
    return {
      rule: "powershell-download-exec-vendor",
      severity: Severity.LOW,
      score: 0.35,
      reason: "PowerShell runs a vendor's documented installer",
    };
  return runs
    ? {
        rule: "powershell-download-exec",
        severity: Severity.HIGH,
        score: 0.9,
        reason: "PowerShell runs code it downloads (Invoke-Expression of a web download)",
      }
    : {
        rule: "powershell-download-run",
        severity: Severity.HIGH,
        score: 0.85,
        reason: "PowerShell downloads a program and starts it",
      };
}

/**
 * A script's statements as words: split at `;`, `|`, line breaks and braces, words at white
 * space, with their quotes and a leading call operator (`&`, `.`) removed. Rough, but a
 * cmdlet and its parameters come out as they were written.
 */
function statements(script: string): string[][] {
  const out: string[][] = [];
  for (const statement of script.split(/[;|\n{}]/)) {
    const words = statement
      .split(/\s/)
      .map(unwrapWord)
      .filter((w) => w.length > 0);
    if (words[0] === "&" || words[0] === ".") words.shift();
    if (words.length > 0) out.push(words);
  }
  return out;
}

const OPENERS = "'\"(";
const CLOSERS = "'\")";

/** A word without the quotes and parentheses around it: `'HKLM\SAM'`, `(Get-Item`. */
function unwrapWord(word: string): string {
  let start = 0;
  let end = word.length;
  while (start < end && OPENERS.includes(word[start]!)) start++;
  while (end > start && CLOSERS.includes(word[end - 1]!)) end--;
  return word.slice(start, end);
}

/** The strongest verdict on a script: a download run, else the first statement windows.ts judges. */
function judgeScript(script: string): WindowsVerdict | undefined {
  const download = downloadRun(script);
  if (download !== undefined) return download;
  for (const words of statements(script)) {
    const verdict = judgeWindowsCommand(words);
    if (verdict !== undefined) return verdict;
  }
  return undefined;
}

/** The hit for a PowerShell command line in `args` run by `program`, if any. */
function powershellHit(
  program: string,
  args: readonly string[],
  span: { start: number; end: number },
): Hit | undefined {
  const line = commandLine(program, args);
  const verdict = line.script === undefined ? undefined : judgeScript(line.script);
  if (verdict !== undefined) {
    const how = [...(line.encoded ? ["from a base64-encoded command"] : []), ...line.stealth];
    // Each way the run is hidden is one more sign the script is what the verdict says.
    const score = Math.min(0.99, verdict.score + 0.03 * how.length);
    return hitOn(span, verdict.rule, verdict.severity, score, [verdict.reason, ...how].join(", "));
  }
  // Encoding hides a command from whoever reads the line; what it decodes to was judged above.
  return line.encoded
    ? hitOn(
        span,
        "powershell-encoded",
        Severity.LOW,
        0.4,
        ["PowerShell runs a base64-encoded command", ...line.stealth].join(", "),
      )
    : undefined;
}

/**
 * `cmd /c <command>`: the words after `/c` (or `/k`) are a command, split again at white space
 * when they came as one quoted word.
 */
function cmdCommand(args: readonly string[]): string[] | undefined {
  const k = args.findIndex((a) => a.toLowerCase() === "/c" || a.toLowerCase() === "/k");
  if (k === -1) return undefined;
  const rest = args.slice(k + 1);
  return rest.length === 1 ? rest[0]!.split(/\s/).filter((w) => w.length > 0) : rest;
}

/** The verdict on `cmd /c ...`: a PowerShell command line or a Windows command it runs. */
function cmdHit(args: readonly string[], span: { start: number; end: number }): Hit | undefined {
  const command = cmdCommand(args);
  if (command === undefined || command.length === 0) return undefined;
  if (isPowerShell(command[0]!)) return powershellHit(command[0]!, command.slice(1), span);
  const verdict = judgeWindowsCommand(command);
  return verdict === undefined ? undefined : windowsHit(span, verdict);
}

const CMD_NAMES = ["cmd", "cmd.exe", "CMD", "CMD.EXE"];

/** `Invoke-Expression` and its alias as a PowerShell command line typed to the tool is written. */
const IEX_NAMES = ["iex", "IEX", "Iex", "Invoke-Expression", "invoke-expression"];

/**
 * A PowerShell line typed as the command itself (the tool's text is read as shell, so a cmdlet
 * arrives as a program): `iwr -useb URL | iex`, `irm URL | Invoke-Expression`, `iex (iwr URL)`.
 * What reaches `iex` is judged as the script it is, with the members piped into it.
 */
function typedIexHit(inv: Invocation, state: IexState): Hit | undefined {
  const { analysis } = state;
  const members = analysis.pipelines[inv.pipeline]?.invocations ?? [];
  // What feeds `iex` is the member piped into it; a few before that cover `iwr URL | Select-Object ... | iex`.
  const before = members.slice(Math.max(0, inv.position - PIPED_MEMBERS), inv.position);
  // `iex (iwr URL)`: the parenthesised command is parsed as a command of its own inside iex's span, listed after it.
  state.index ??= new Map(analysis.invocations.map((m, k) => [m, k]));
  const inside: Invocation[] = [];
  const at = state.index.get(inv) ?? analysis.invocations.length;
  for (let k = at + 1; k < analysis.invocations.length && inside.length < PIPED_MEMBERS; k++) {
    const m = analysis.invocations[k]!;
    if (m.start <= inv.start || m.end > inv.end) break;
    inside.push(m);
  }
  const words = [
    ...before.flatMap((m) => [m.name, ...m.args, "|"]),
    inv.name,
    ...inv.args,
    ...inside.flatMap((m) => [m.name, ...m.args]),
  ];
  const verdict = downloadRun(words.join(" "));
  return verdict === undefined
    ? undefined
    : windowsHit({ start: before[0]?.start ?? inv.start, end: inv.end }, verdict);
}

/** Commands read before `iex` in its pipeline, or inside its parentheses: bounds the work on hostile text. */
const PIPED_MEMBERS = 8;

interface IexState {
  readonly analysis: Analysis;
  /** Where each command is in `analysis.invocations`, made at the first `iex`. */
  index?: Map<Invocation, number>;
}

export const powershell = ruleModule<IexState>({
  name: "powershell",
  prepare: (analysis) => ({ analysis }),
  commands: [
    {
      programs: POWERSHELL_NAMES,
      check: (inv, hits) => {
        if (POWERSHELL_NAMES.includes(inv.name)) pushHit(hits, powershellHit(inv.name, inv.args, inv));
      },
    },
    {
      programs: CMD_NAMES,
      check: (inv, hits) => {
        if (CMD_NAMES.includes(inv.name)) pushHit(hits, cmdHit(inv.args, inv));
      },
    },
    {
      programs: IEX_NAMES,
      check: (inv, hits, state) => {
        if (IEX_NAMES.includes(inv.name)) pushHit(hits, typedIexHit(inv, state));
      },
    },
  ],
});
