import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { normalizePath } from "../paths.js";
import { type Analysis, type Invocation, isShell } from "../shell/analyze.js";
import { basename } from "../shell/wrappers.js";
import { ruleModule, Trait } from "./dispatch.js";
import { type Hit, hitOn, operands, optionValue, pushHit, redirectWrites } from "./types.js";

/**
 * Indirect execution: a program made to run another program through a feature that is not its
 * purpose (GTFOBins "command" functions, MITRE T1202). Command filters and reviewers see
 * `tcpdump` or `restic`, not what the hook runs. Matched forms:
 *
 * - hook options and variables (`tcpdump -z`, `aria2c --on-download-error`, `LESSOPEN`,
 *   `RESTIC_PASSWORD_COMMAND`, `sysctl kernel.core_pattern=|...`) pointing at a program given
 *   by path or at shell text; a bare program name (`rsync -e ssh`, `tar -I zstd`,
 *   `PAGER=less`) is how these options are meant to be used and does not match;
 * - an executable made in a temporary directory by the same script and handed to another
 *   program rather than run;
 * - interpreter one-liners (`php -r`, `python -c`, `echo ... | m4`) whose code runs a system
 *   command;
 * - modes that let documents run commands (`pic -U`, `dvips -R0`, sed's `e` command);
 * - commands started outside the agent's session (`systemd-run`) or offered to other
 *   processes (`fzf --listen`).
 */

/** Options whose value is a program the tool runs, per tool. */
const HOOK_OPTIONS: ReadonlyMap<string, readonly string[]> = new Map([
  [
    "aria2c",
    [
      "--on-download-complete",
      "--on-download-error",
      "--on-download-start",
      "--on-download-pause",
      "--on-download-stop",
      "--on-bt-download-complete",
    ],
  ],
  ["tcpdump", ["-z"]],
  ["dnsmasq", ["--conf-script", "--dhcp-script", "--dhcp-luascript"]],
  ["restic", ["--password-command"]],
  [
    "tar",
    ["--rsh-command", "--to-command", "--use-compress-program", "-I", "--info-script", "--new-volume-script"],
  ],
  ["wget", ["--use-askpass"]],
  ["rsync", ["-e", "--rsh", "--rsync-path"]],
  ["zip", ["-TT", "--unzip-command"]],
  ["man", ["-H", "--html", "-P", "--pager"]],
  ["zic", ["-y"]],
]);

/** Variables that name a program something else will run. */
const HOOK_VARIABLES: ReadonlySet<string> = new Set([
  "PAGER",
  "MANPAGER",
  "GIT_PAGER",
  "SYSTEMD_PAGER",
  "CRASHPAGER",
  "LESSOPEN",
  "LESSCLOSE",
  "EDITOR",
  "VISUAL",
  "GIT_EDITOR",
  "SUDO_EDITOR",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "GIT_ASKPASS",
  "GIT_SSH",
  "GIT_SSH_COMMAND",
  "RESTIC_PASSWORD_COMMAND",
  "BORG_PASSCOMMAND",
  "BROWSER",
  "PROMPT_COMMAND",
  "BASH_ENV",
]);

/** Programs these hooks are meant to name: pagers, editors, ssh, password managers. */
const EXPECTED_HOOKS: ReadonlySet<string> = new Set([
  "less",
  "more",
  "most",
  "cat",
  "bat",
  "delta",
  "diff-so-fancy",
  "lesspipe",
  "lesspipe.sh",
  "head",
  "tee",
  "vim",
  "vi",
  "nvim",
  "nano",
  "emacs",
  "emacsclient",
  "code",
  "subl",
  "micro",
  "ssh",
  "pass",
  "gpg",
  "op",
  "security",
  "secret-tool",
  "gzip",
  "bzip2",
  "xz",
  "zstd",
  "pigz",
  "lz4",
  "true",
  "firefox",
  "xdg-open",
  "open",
  "w3m",
  "lynx",
]);

/** Shell text in a hook value: a shell started, or metacharacters that need one. */
const SHELL_TEXT = /(^|[\s|;&(`'"=])(\/usr)?(\/bin\/)?(ba|da|z|k)?sh(\s|$|;)|[;&|`<>]|\$\(/;

const TEMP_DIRS = ["/tmp/", "/var/tmp/", "/dev/shm/"];

function inTemp(path: string): boolean {
  const p = normalizePath(path);
  return TEMP_DIRS.some((d) => p.startsWith(d));
}

/** How bad pointing a hook at `value` is, or undefined when it names an ordinary program. */
function judgeHook(value: string, staged: ReadonlySet<string>): [Severity, number, string] | undefined {
  const text = value.replace(/^[\s|]+/, "").trim();
  if (text === "") return undefined;
  const program = text.split(/\s/, 1)[0]!;
  if (SHELL_TEXT.test(text) || isShell(basename(program))) return [Severity.MEDIUM, 0.75, "a shell command"];
  if (staged.has(normalizePath(program)) || inTemp(program))
    return [Severity.MEDIUM, 0.75, `${program}, an executable in a temporary directory`];
  if (EXPECTED_HOOKS.has(basename(program))) return undefined;
  if (program.includes("/")) return [Severity.LOW, 0.5, program];
  return undefined;
}

function hookValues(inv: Invocation): string[] {
  const out: string[] = [];
  const options = HOOK_OPTIONS.get(inv.name);
  if (options) {
    for (const name of options) {
      const value = optionValue(inv.args, [name]);
      if (value !== undefined) out.push(value);
    }
  }
  const a = inv.args;
  if (inv.name === "sshfs") {
    for (let k = 0; k < a.length; k++) {
      const opts = a[k] === "-o" ? (a[k + 1] ?? "") : a[k]!.startsWith("-o") ? a[k]!.slice(2) : "";
      for (const o of opts.split(",")) if (o.startsWith("ssh_command=")) out.push(o.slice(12));
    }
  }
  if (inv.name === "tar") {
    const action = optionValue(a, ["--checkpoint-action"]);
    if (action?.startsWith("exec=")) out.push(action.slice(5));
  }
  if (inv.name === "git") {
    for (let k = 0; k < a.length; k++) {
      if (a[k] !== "-c") continue;
      const setting = a[k + 1] ?? "";
      const eq = setting.indexOf("=");
      const key = setting.slice(0, eq).toLowerCase();
      if (eq > 0 && /^core\.(pager|sshcommand|editor|fsmonitor)$|^(sequence|diff|merge)\./.test(key))
        out.push(setting.slice(eq + 1));
    }
  }
  if (inv.name === "fail2ban-client") {
    const k = a.findIndex((x) => /^action(ban|unban|start|stop|check|flush)$/.test(x));
    if (k !== -1 && a[k + 1] !== undefined) out.push(a.slice(k + 1).join(" "));
  }
  return out;
}

const NO_HOOK_VARIABLES: readonly { name: string; value: string }[] = [];

function hookVariables(inv: Invocation): readonly { name: string; value: string }[] {
  if (inv.assignments.length === 0) return NO_HOOK_VARIABLES;
  const out: { name: string; value: string }[] = [];
  for (const assignment of inv.assignments) {
    const eq = assignment.indexOf("=");
    const name = assignment.slice(0, eq);
    if (HOOK_VARIABLES.has(name)) out.push({ name, value: assignment.slice(eq + 1) });
  }
  return out;
}

/** `sysctl kernel.core_pattern=|prog`: the kernel runs `prog` as root on every crash. */
function kernelHooks(inv: Invocation): Hit | undefined {
  if (inv.name !== "sysctl") return undefined;
  for (const a of inv.args) {
    const setting = a.replaceAll("/", ".").replace(/\s/g, "");
    if (setting.startsWith("kernel.core_pattern=|") || setting.startsWith("kernel.modprobe=")) {
      return hitOn(inv, "kernel-hook", Severity.HIGH, 0.85, "makes the kernel run a program as root");
    }
  }
  return undefined;
}

/** Files the text writes into a temporary directory and then makes executable. */
function stagedExecutables(analysis: Analysis): Set<string> {
  const invocations = analysis.invocations;
  const staged = new Set<string>();
  // A file is staged by a `chmod` after it is written, so the commands after the last `chmod`
  // stage nothing; most texts have none, and are spared reading every command's words.
  let last = invocations.length - 1;
  while (last >= 0 && invocations[last]!.name !== "chmod") last--;
  const written = new Set<string>();
  for (let k = 0; k <= last; k++) {
    const inv = invocations[k]!;
    if (inv.redirects.length > 0)
      for (const w of redirectWrites(inv)) if (inTemp(w)) written.add(normalizePath(w));
    if ((inv.name === "cp" || inv.name === "mv" || inv.name === "tee") && operands(inv.args).length > 0) {
      const target = operands(inv.args).at(-1)!;
      if (inTemp(target)) written.add(normalizePath(target));
    }
    if (
      inv.name === "chmod" &&
      /^([ugoa]*\+[rwX]*x|[0-7]*[157][0-7]{0,2})$/.test(operands(inv.args)[0] ?? "")
    ) {
      for (const f of operands(inv.args).slice(1))
        if (written.has(normalizePath(f))) staged.add(normalizePath(f));
    }
  }
  return staged;
}

/** Programs that handle a file without running it. */
const FILE_HANDLERS: ReadonlySet<string> = new Set([
  "chmod",
  "chown",
  "cat",
  "rm",
  "ls",
  "stat",
  "file",
  "cp",
  "mv",
  "ln",
  "echo",
  "printf",
  "test",
  "[",
  "head",
  "tail",
  "less",
  "more",
  "grep",
  "sed",
  "awk",
  "vi",
  "vim",
  "nano",
  "tee",
  "install",
  "mkdir",
  "touch",
  "sha256sum",
  "md5sum",
  "shellcheck",
  "source",
  ".",
]);

/** Every directory above each staged file, below the temporary directories themselves. */
function stagedDirectories(staged: ReadonlySet<string>): Set<string> {
  const dirs = new Set<string>();
  for (const f of staged) {
    let levels = 0;
    for (let k = f.lastIndexOf("/"); k > 0 && levels < 32; k = f.lastIndexOf("/", k - 1), levels++) {
      const dir = f.slice(0, k);
      if (TEMP_DIRS.includes(`${dir}/`) || dirs.has(dir)) break;
      dirs.add(dir);
    }
  }
  return dirs;
}

/** A staged executable, or a directory holding one, given to another program: the program runs it. */
function handsOverStaged(
  inv: Invocation,
  staged: ReadonlySet<string>,
  dirs: ReadonlySet<string>,
): string | undefined {
  if (staged.size === 0 || FILE_HANDLERS.has(inv.name) || isShell(inv.name) || inv.name === "")
    return undefined;
  if (/^(python[0-9.]*|perl|ruby|node|php)$/.test(inv.name)) return undefined;
  for (const a of inv.args) {
    const eq = a.startsWith("-") ? a.indexOf("=") : -1;
    const value = normalizePath(eq === -1 ? a : a.slice(eq + 1));
    if (staged.has(value) || dirs.has(value)) return value;
  }
  return undefined;
}

/** Code that runs a system command. */
const CODE_EXEC =
  /\b(os\.system|os\.popen|os\.exec[lv]p?e?|subprocess\.[a-z_]+|pty\.spawn|shell_exec|proc_open|passthru|popen|system|exec|execSync|spawnSync|spawn|execFile|IO\.popen|os\.execute|getRuntime\(\)\.exec|ProcessBuilder|esyscmd|syscmd)\s?\(/;
/** Tcl's `exec`, which takes no parentheses. */
const TCL_EXEC = /(^|[\s[;{"])exec\s/;
const TCL: ReadonlySet<string> = new Set(["tclsh", "wish", "expect"]);

function codeRunsCommands(analysis: Analysis): Hit[] {
  const hits: Hit[] = [];
  for (const c of analysis.code) {
    if (c.tool || c.interpreter.endsWith(" output") || c.interpreter === "here-document") continue;
    if (CODE_EXEC.test(c.code) || (TCL.has(c.interpreter) && TCL_EXEC.test(c.code))) {
      hits.push(hitOn(c, "code-exec", Severity.LOW, 0.5, `${c.interpreter} code runs a system command`));
    }
  }
  return hits;
}

/** sed's `e` command and `s///e` flag run text as shell commands. */
function sedExecutes(inv: Invocation): boolean {
  if (inv.name !== "sed") return false;
  const scripts: string[] = [];
  for (let k = 0; k < inv.args.length; k++) {
    const a = inv.args[k]!;
    if (a === "-e" || a === "--expression") scripts.push(inv.args[k + 1] ?? "");
    else if (a.startsWith("--expression=")) scripts.push(a.slice(13));
  }
  if (scripts.length === 0) {
    const first = operands(inv.args)[0];
    if (first !== undefined) scripts.push(first);
  }
  return scripts.some((script) =>
    script.split(/[;\n]/).some((command) => {
      const c = command.trim().replace(/^[0-9$,/]*/, "");
      if (c === "e" || c.startsWith("e ")) return true;
      if (!c.startsWith("s") || c.length < 2) return false;
      const d = c[1]!;
      const parts = c.slice(2).split(d);
      return parts.length >= 3 && /^[gpiIm0-9]*e[gpiIm0-9]*$/.test(parts[2]!);
    }),
  );
}

/** troff and its preprocessors, whose `-U` lets documents run commands. */
const TROFF: ReadonlySet<string> = new Set(["pic", "gpic", "groff", "troff", "gtroff", "nroff", "grog"]);

function unsafeModes(inv: Invocation): Hit | undefined {
  const troff = TROFF.has(inv.name);
  if ((troff && inv.args.includes("-U")) || (inv.name === "dvips" && inv.args.includes("-R0"))) {
    return hitOn(
      inv,
      "unsafe-mode",
      Severity.LOW,
      0.5,
      `${inv.name} in a mode that lets documents run commands`,
    );
  }
  if (sedExecutes(inv))
    return hitOn(inv, "sed-exec", Severity.MEDIUM, 0.7, "sed runs text as shell commands");
  return undefined;
}

function detached(inv: Invocation): Hit | undefined {
  if (inv.name === "systemd-run") {
    if (inv.args.some((a) => a.startsWith("--on-") || a.startsWith("--timer"))) return undefined;
    if (inv.args.includes("-S") || inv.args.includes("--shell"))
      return hitOn(inv, "systemd-run-shell", Severity.MEDIUM, 0.7, "systemd-run opens a shell as a service");
    if (inv.args.includes("--user") || inv.args.includes("--scope")) return undefined;
    if (operands(inv.args).length > 0)
      return hitOn(
        inv,
        "systemd-run",
        Severity.LOW,
        0.45,
        "runs a command as a system service, outside this session",
      );
  }
  if (inv.name === "fzf" && inv.args.some((a) => a.startsWith("--listen")))
    return hitOn(
      inv,
      "fzf-listen",
      Severity.LOW,
      0.5,
      "fzf accepts actions, including commands, from a port",
    );
  return undefined;
}

/** Hook options and variables pointed at a shell or an unexpected program: one finding for each kind. */
function hookOption(inv: Invocation, hits: Hit[], staged: StagedLookup): void {
  for (const value of hookValues(inv)) {
    const verdict = judgeHook(value, staged.get().files);
    if (verdict === undefined) continue;
    const [severity, score, what] = verdict;
    hits.push(hitOn(inv, "hook-option", severity, score, `${inv.name} made to run ${what}`));
    return;
  }
}

function hookVariable(inv: Invocation, hits: Hit[], staged: StagedLookup): void {
  for (const { name, value } of hookVariables(inv)) {
    const verdict = judgeHook(value, staged.get().files);
    if (verdict === undefined) continue;
    const [severity, score, what] = verdict;
    hits.push(
      hitOn(inv, "hook-variable", severity, score, `${name} makes ${inv.name || "the command"} run ${what}`),
    );
    return;
  }
}

/** Executables the text stages in temporary directories, and the directories above them. */
interface Staged {
  readonly files: ReadonlySet<string>;
  readonly dirs: ReadonlySet<string>;
}

/**
 * The staged executables of one analysis, found when a check first asks for them. The checks that
 * ask run only on commands with a slash or an assignment and on programs with hook options, which
 * many texts have none of; those texts are spared the pass over every command.
 */
class StagedLookup {
  private staged: Staged | undefined;

  constructor(private readonly analysis: Analysis) {}

  get(): Staged {
    if (this.staged === undefined) {
      const files = stagedExecutables(this.analysis);
      this.staged = { files, dirs: stagedDirectories(files) };
    }
    return this.staged;
  }
}

export const indirectExecution = ruleModule<StagedLookup>({
  name: "indirect-exec",
  prepare: (analysis) => new StagedLookup(analysis),
  commands: [
    {
      programs: [...HOOK_OPTIONS.keys(), "sshfs", "tar", "git", "fail2ban-client"],
      check: hookOption,
    },
    // Variables are set before any program.
    { programs: [], traits: [Trait.assignment], check: hookVariable },
    {
      // A staged executable can be handed to almost any program, by a path.
      programs: [],
      traits: [Trait.slash],
      check(inv, hits, lookup) {
        const staged = lookup.get();
        const handed = handsOverStaged(inv, staged.files, staged.dirs);
        if (handed !== undefined)
          hits.push(
            hitOn(inv, "staged-executable", Severity.MEDIUM, 0.7, `${inv.name} given ${handed} to run`),
          );
      },
    },
    { programs: ["sysctl"], check: (inv, hits) => pushHit(hits, kernelHooks(inv)) },
    {
      programs: [...TROFF, "dvips", "sed"],
      check: (inv, hits) => pushHit(hits, unsafeModes(inv)),
    },
    { programs: ["systemd-run", "fzf"], check: (inv, hits) => pushHit(hits, detached(inv)) },
  ],
  after(analysis, hits) {
    for (const h of codeRunsCommands(analysis)) hits.push(h);
  },
});

export const indirectExecPatterns: readonly RegExp[] = [SHELL_TEXT, CODE_EXEC, TCL_EXEC];
