import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { append } from "../append.js";
import {
  isOnePathToken,
  mayPersistencePath,
  normalizePath,
  type PersistenceKind,
  pathTokens,
  persistenceKind,
} from "../paths.js";
import type { Analysis, Invocation } from "../shell/analyze.js";
import { WordFact } from "../shell/word-facts.js";
import { ruleModule, Trait } from "./dispatch.js";
import { type Hit, hitOn, operands, pushHit, READ_ONLY } from "./types.js";

/**
 * Making something run again later: crontabs, cron directories, systemd units and init
 * scripts, shell start-up files, SSH authorized keys, the dynamic-loader preload list. Any
 * program other than a pure reader that names such a path is treated as writing it, because
 * file writes hide behind many programs' options (`-o`, `--output`, `of=`, `--log-file`).
 * Appends to `~/.bashrc` are common in honest setup steps (a PATH, an alias, an editor), so
 * they weigh less, and least when the lines are written out in the command itself and only
 * configure the shell (variables, aliases, sourcing a tool's environment): a line that runs a
 * program at every login (`nohup /tmp/.x/miner &`) is what persistence is for. The analysis
 * also judges the lines as shell on their own (an appended `curl ... | sh` is a
 * download-and-execute finding). Aliases and functions that shadow a command people trust with
 * a password or root, the old trick for capturing both, are not configuration either.
 * Changing a location's mode or owner (`chmod 600 ~/.ssh/authorized_keys`) writes nothing to it.
 */

const READERS: ReadonlySet<string> = new Set([
  ...READ_ONLY,
  "cat",
  "less",
  "more",
  "head",
  "tail",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "diff",
  "cmp",
  "find",
  "bat",
  "vimdiff",
  "view",
  "strings",
  "od",
  "xxd",
  "hexdump",
  "source",
  ".",
  "ssh-keygen",
]);

/** Programs that change a file's mode, owner or times, not what it holds. */
const METADATA_ONLY: ReadonlySet<string> = new Set(["chmod", "chown", "chgrp", "touch", "setfacl", "chattr"]);

/** Programs whose last operand is the only one written. */
const COPIERS: ReadonlySet<string> = new Set(["cp", "mv", "install", "ln", "rsync", "scp"]);

const WEIGHT: Readonly<Record<PersistenceKind, readonly [Severity, number]>> = {
  cron: [Severity.HIGH, 0.85],
  service: [Severity.HIGH, 0.75],
  "shell-rc": [Severity.MEDIUM, 0.55],
  "ssh-keys": [Severity.HIGH, 0.9],
  preload: [Severity.CRITICAL, 0.95],
  autostart: [Severity.HIGH, 0.75],
  hook: [Severity.MEDIUM, 0.6],
};

function crontab(inv: Invocation): Hit | undefined {
  if (inv.name !== "crontab") return undefined;
  const listing = inv.args.includes("-l") && !inv.args.includes("-e");
  const removing = inv.args.includes("-r");
  if (listing || removing) return undefined;
  return hitOn(inv, "crontab", Severity.HIGH, 0.8, "installs a crontab");
}

function systemdUserTimers(inv: Invocation): Hit | undefined {
  if (inv.name !== "systemd-run") return undefined;
  return inv.args.some((a) => a.startsWith("--on-") || a.startsWith("--timer"))
    ? hitOn(inv, "systemd-timer", Severity.HIGH, 0.7, "schedules a recurring command")
    : undefined;
}

/** `echo cmd | at now`, `at -f job.sh 03:00`, `batch`: a command queued to run later, detached. */
function atJobs(inv: Invocation): Hit | undefined {
  if (inv.name !== "at" && inv.name !== "batch") return undefined;
  const queries = ["-l", "-r", "-d", "-c", "-V", "--help"];
  if (inv.args.some((a) => queries.includes(a))) return undefined;
  if (inv.name === "at" && operands(inv.args).length === 0) return undefined;
  return hitOn(inv, "at-job", Severity.MEDIUM, 0.7, `schedules a command with ${inv.name}`);
}

/** `systemctl link /tmp/x.service`, `systemctl enable /path/x.service`: a unit installed from a file. */
function unitFromFile(inv: Invocation): Hit | undefined {
  if (inv.name !== "systemctl") return undefined;
  const ops = operands(inv.args);
  if (ops[0] !== "link" && ops[0] !== "enable") return undefined;
  return ops.slice(1).some((u) => u.includes("/"))
    ? hitOn(inv, "persistence-service", Severity.HIGH, 0.75, "installs a systemd unit from a file")
    : undefined;
}

/** Shared by the lists below when empty, as they are for most commands: no array made for nothing. */
const NO_PATHS: readonly string[] = [];

/** Options of otherwise read-only programs that write a file. */
function writtenByReader(inv: Invocation): readonly string[] {
  if (inv.name !== "find" && inv.name !== "xxd") return NO_PATHS;
  const out: string[] = [];
  if (inv.name === "find") {
    inv.args.forEach((a, k) => {
      if (/^-f(print0?|printf|ls)$/.test(a) && inv.args[k + 1] !== undefined) out.push(inv.args[k + 1]!);
    });
  }
  if (inv.name === "xxd" && inv.args.includes("-r")) {
    const ops = operands(inv.args);
    if (ops.length >= 2) out.push(ops.at(-1)!);
  }
  return out;
}

/** Words of the wrappers before the program (`strace -o FILE cmd`, `script -a FILE`). */
function wrapperWords(inv: Invocation): readonly string[] {
  const programAt = inv.words.length - inv.args.length - 1;
  if (programAt <= 1) return NO_PATHS;
  return inv.words.slice(1, programAt).filter((w) => !w.startsWith("-"));
}

/** Code that writes files (`open(..., "w")`, `FileWriter`, `os.OpenFile`). */
const CODE_WRITE =
  /\.write\(|FileWriter|FileOutputStream|OpenFile|writeFile|appendFile|file_put_contents|Files\.write|fputs|fwrite|syswrite|WriteString|print\s?\{/i;

/** Interpreter code, or text written to a source file, that writes a persistence location. */
function codePersistence(analysis: Analysis): Hit[] {
  const hits: Hit[] = [];
  for (const c of analysis.code) {
    if (!CODE_WRITE.test(c.code)) continue;
    for (const path of pathTokens(c.code)) {
      const kind = persistenceKind(path);
      if (kind === undefined) continue;
      const [severity, score] = WEIGHT[kind];
      hits.push(
        hitOn(
          c,
          `persistence-${kind}`,
          severity,
          score,
          `${c.interpreter} code writes ${normalizePath(path)}`,
        ),
      );
      break;
    }
  }
  return hits;
}

/** Adds `path` to `out` if it has a slash. */
function named(out: string[], path: string): void {
  if (path.includes("/")) out.push(path);
}

/**
 * The paths the command may write, in the order they are judged. Only words with a slash are
 * kept: every persistence location has one, and a part of a word (after `=`) has one only if
 * the word has, so the others could never be judged one.
 */
function namedPaths(inv: Invocation): string[] {
  const out: string[] = [];
  for (const p of writtenByReader(inv)) named(out, p);
  for (const w of wrapperWords(inv)) named(out, w);
  for (const r of inv.redirects) {
    if (r.op === ">" || r.op === ">>" || r.op === ">|" || r.op === "<>") named(out, r.target.text);
  }
  if (COPIERS.has(inv.name)) {
    const destination = operands(inv.args).at(-1);
    if (destination !== undefined) named(out, destination);
  } else if (!READERS.has(inv.name) && !METADATA_ONLY.has(inv.name) && inv.name !== "") {
    for (const a of operands(inv.args)) named(out, a);
    for (const w of inv.argWords) {
      if ((w.facts & WordFact.slash) === 0) continue;
      const a = w.text;
      const eq = a.indexOf("=");
      if (a.startsWith("-") && eq !== -1) named(out, a.slice(eq + 1));
      else if (eq > 0 && !a.startsWith("-")) named(out, a.slice(eq + 1));
    }
    // Paths inside string arguments, e.g. an awk or sed program writing a file. A word that is
    // one token and no option was named whole as an operand above, and would judge the same.
    for (const w of inv.argWords) {
      if ((w.facts & WordFact.slash) === 0) continue;
      if (isOnePathToken(w.text) && !w.text.startsWith("-")) continue;
      append(out, pathTokens(w.text));
    }
  }
  return out;
}

/** `alias sudo=...`, `sudo() { ...; }`: a start-up file's line that answers for a trusted command. */
const SHADOWS_TRUSTED = /\b(?:sudo|su|doas|pkexec|ssh|passwd)(?:=|\s*\(\s*\))/;

/** The lines a command writes out itself (echo's and printf's words, a here-document), judged as shell by the analysis. */
function writtenLines(inv: Invocation): string | undefined {
  if (inv.name === "echo" || inv.name === "printf") return inv.args.join(" ");
  return inv.redirects.find((r) => r.body !== undefined && (r.op === "<<" || r.op === "<<-"))?.body;
}

/** Keywords that open a line which sets a shell option, key binding or completion. */
const OPTION_KEYWORDS: readonly string[] = [
  "set -o ",
  "setopt ",
  "shopt -s ",
  "bindkey ",
  "complete ",
  "autoload ",
  "unalias ",
];
const ASSIGNMENT = /^(?:export |readonly |typeset |declare -[a-zA-Z]+ )?[A-Za-z_][A-Za-z0-9_]*=/;
const ALIAS = /^alias [^=\s]+=/;
const SOURCE = /^(?:source|\.) [^;&|]+$/;
/** Where nothing a login should source or run lives: scratch directories anyone can write. */
const SCRATCH_PATH = /(?:^|[\s"'=:])(?:\/tmp|\/var\/tmp|\/dev\/shm)\//;
/** Variables whose value the shell runs or loads: a prompt hook, a start-up file, a preloaded library. */
const RUN_BY_SHELL = /^(?:export )?(?:PROMPT_COMMAND|BASH_ENV|ENV|LD_PRELOAD|LD_AUDIT|PS[0-4])=/;
/** A command run inside the line: a substitution, a pipe, a list. */
const RUNS_SOMETHING = /\$\(|`|\||;|&/;
/** `eval "$(direnv hook zsh)"`, `eval "$(starship init bash)"`: a tool's own shell set-up. */
const TOOL_SETUP = /^eval "\$\([a-z0-9_-]+ (?:hook|init|env|completion)\b[^;&|]*\)"$/;

/**
 * A line that only configures the shell: a variable, an alias, an option or completion, or
 * sourcing a tool's environment (`. "$HOME/.cargo/env"`, `eval "$(direnv hook zsh)"`). Not one
 * that runs something itself (a substitution, a pipe), names a scratch directory (`. /tmp/.x`),
 * or sets what the shell runs by itself (`PROMPT_COMMAND`, `BASH_ENV`, `LD_PRELOAD`).
 */
function isConfigurationLine(line: string): boolean {
  if (TOOL_SETUP.test(line)) return true;
  if (RUNS_SOMETHING.test(line) || SCRATCH_PATH.test(line) || RUN_BY_SHELL.test(line)) return false;
  return (
    line === "" ||
    line.startsWith("#") ||
    ASSIGNMENT.test(line) ||
    ALIAS.test(line) ||
    OPTION_KEYWORDS.some((k) => line.startsWith(k)) ||
    SOURCE.test(line)
  );
}

/** Lines appended to a shell start-up file that the command writes out and that only configure the shell. */
function configurationAppended(inv: Invocation): boolean {
  const lines = writtenLines(inv);
  if (lines === undefined || SHADOWS_TRUSTED.test(lines)) return false;
  return lines
    .split(/\n|\\n/)
    .map((line) => line.trim())
    .every(isConfigurationLine);
}

/**
 * Whether a word or redirection target of `inv` may hold a persistence location: every path
 * `namedPaths` gives is one of them or a part of one, and has a slash and a mark of a location
 * (see `mayPersistencePath`). Most commands with a slash name URLs and project paths, and are
 * spared collecting their paths.
 */
function mayNamePersistence(inv: Invocation): boolean {
  for (const r of inv.redirects)
    if ((r.target.facts & WordFact.slash) !== 0 && mayPersistencePath(r.target.text)) return true;
  if ((inv.facts & WordFact.slash) === 0) return false;
  for (const w of inv.words) if (w.includes("/") && mayPersistencePath(w)) return true;
  return false;
}

/** The first persistence location the command names, whatever its program: writes hide behind many options. */
function persistenceWrite(inv: Invocation): Hit | undefined {
  if (!mayNamePersistence(inv)) return undefined;
  for (const path of namedPaths(inv)) {
    const kind = persistenceKind(path);
    if (kind === undefined) continue;
    if (kind === "shell-rc" && configurationAppended(inv))
      return hitOn(inv, "persistence-shell-rc", Severity.LOW, 0.35, `adds lines to ${normalizePath(path)}`);
    const [severity, score] = WEIGHT[kind];
    return hitOn(inv, `persistence-${kind}`, severity, score, `writes ${normalizePath(path)}`);
  }
  return undefined;
}

export const persistence = ruleModule({
  name: "persistence",
  commands: [
    { programs: ["crontab"], check: (inv, hits) => pushHit(hits, crontab(inv)) },
    { programs: ["systemd-run"], check: (inv, hits) => pushHit(hits, systemdUserTimers(inv)) },
    { programs: ["at", "batch"], check: (inv, hits) => pushHit(hits, atJobs(inv)) },
    { programs: ["systemctl"], check: (inv, hits) => pushHit(hits, unitFromFile(inv)) },
    { programs: [], traits: [Trait.slash], check: (inv, hits) => pushHit(hits, persistenceWrite(inv)) },
  ],
  after: (analysis, hits) => append(hits, codePersistence(analysis)),
});

export const persistencePatterns: readonly RegExp[] = [
  CODE_WRITE,
  ASSIGNMENT,
  ALIAS,
  SOURCE,
  TOOL_SETUP,
  SCRATCH_PATH,
  RUN_BY_SHELL,
  RUNS_SOMETHING,
];
