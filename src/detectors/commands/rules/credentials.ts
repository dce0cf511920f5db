import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { append } from "../append.js";
import {
  isOnePathToken,
  maySecretPath,
  namedDirectory,
  normalizePath,
  pathTokens,
  secretKind,
} from "../paths.js";
import type { Analysis, Invocation } from "../shell/analyze.js";
import { basename } from "../shell/wrappers.js";
import { factsOf, WordFact } from "../shell/word-facts.js";
import { ANY_PROGRAM, ruleModule, Trait } from "./dispatch.js";
import { findRoots, type Hit, hitOn, isPythonName, NETWORK_SENDERS, operands, pushHit } from "./types.js";

/**
 * Credential dumping: reading the system password hashes, private keys, cloud and tool
 * credential files, browser password stores, process environments; dumping tools such as
 * mimikatz; environment dumps sent over the network. System hash files count whatever program
 * touches them (GTFOBins reads them through hundreds of unrelated programs); per-user secrets
 * count only when a program reads them out, because `ssh -i ~/.ssh/id_rsa` and
 * `chmod 600 ~/.ssh/id_rsa` are how keys are meant to be used.
 */

/** Programs that read a file's content out (to the terminal, a pipe, an archive, the network). */
export const USER_SECRET_READERS: ReadonlySet<string> = new Set([
  "cat",
  "tac",
  "less",
  "more",
  "head",
  "tail",
  "strings",
  "xxd",
  "od",
  "hexdump",
  "base64",
  "base32",
  "cp",
  "mv",
  "tar",
  "zip",
  "7z",
  "gzip",
  "bzip2",
  "xz",
  "sqlite3",
  "grep",
  "awk",
  "sed",
  "nl",
  "dd",
  "openssl",
  "gpg",
  "uuencode",
  "python",
  "python3",
  "perl",
  "ruby",
  "node",
  "php",
  "curl",
  "wget",
  "nc",
  "ncat",
  "netcat",
  "scp",
  "rsync",
  "sftp",
  "vim",
  "vi",
  "nano",
  "jq",
  "cut",
  "sort",
  "uniq",
  "bat",
  "install",
  "lua",
  "xclip",
  "pbcopy",
]);

/** Programs that look at a file's name or attributes, never its content. */
const METADATA_ONLY: ReadonlySet<string> = new Set([
  "ls",
  "stat",
  "test",
  "[",
  "getfacl",
  "lsattr",
  "namei",
  "readlink",
  "realpath",
  "basename",
  "dirname",
  "chmod",
  "chown",
  "chgrp",
  "du",
  "which",
]);

/** Code that reads file content (as opposed to merely naming a path, as `ssh -i` does). */
const READ_API =
  /open\(|read|ReadFile|file_get_contents|readFileSync|io\.open|IO\.read|FileReader|slurp|cat |copy|cp\(/i;

/** Dumping tools' names as patterns, each starting with a letter (matched regardless of case). */
const DUMP_TOOL_NAMES = [
  "mimikatz(\\.exe)?",
  "pypykatz",
  "secretsdump(\\.py)?",
  "lazagne(\\.py|\\.exe)?",
  "procdump(64)?(\\.exe)?",
  "unshadow",
  "gsecdump",
  "wce(\\.exe)?",
  "pwdump[0-9]?",
  "mimipenguin(\\.sh|\\.py|\\.pl)?",
  "linpeas\\.sh",
  "laZagne",
];
const DUMP_TOOLS = new RegExp(`^(${DUMP_TOOL_NAMES.join("|")})$`, "i");

/** The bit that makes an ASCII capital its small letter (and leaves small letters alone). */
const LOWER_CASE = 0x20;

/** Set at the small-letter initial of each of DUMP_TOOL_NAMES. */
const DUMP_TOOL_INITIALS = new Uint8Array(128);
for (const name of DUMP_TOOL_NAMES) DUMP_TOOL_INITIALS[name.charCodeAt(0) | LOWER_CASE] = 1;

/**
 * Whether `name` is one of DUMP_TOOLS. Every command's name is asked, and most start with a
 * letter no tool starts with: they are spared running the expression, which without the `u`
 * flag matches a letter only by itself or its ASCII capital.
 */
function isDumpTool(name: string): boolean {
  const initial = name.charCodeAt(0) | LOWER_CASE;
  return initial < 128 && DUMP_TOOL_INITIALS[initial] === 1 && DUMP_TOOLS.test(name);
}

/** Verbs of dumping tools (mimikatz's `sekurlsa::logonpasswords`) that any command's arguments may hold. */
const DUMP_VERBS = [
  "sekurlsa",
  "lsadump",
  "logonpasswords",
  "lsass",
  "hklm\\sam",
  "hklm\\security",
  "hklm\\system",
  "dump-keychain",
];
const DUMP_WORDS = new RegExp(DUMP_VERBS.map((v) => v.replaceAll("\\", "\\\\")).join("|"), "i");
/** The length of the shortest of DUMP_VERBS (`lsass`): shorter arguments are spared the search. */
const SHORTEST_DUMP_WORD = Math.min(...DUMP_VERBS.map((v) => v.length));
// Arguments without the fact are spared the search too, which needs every verb to have it.
for (const verb of DUMP_VERBS)
  if ((factsOf(verb) & WordFact.dumpVerbLetter) === 0)
    throw new Error(`dump verb without an l or a k: ${verb}`);

/**
 * Whether `text` holds `ls`, `lo`, `hk` or `-k` in either case, as every one of DUMP_VERBS does
 * (checked below): most arguments with an `l` or a `k` hold none, and a pass over their
 * characters is cheaper than running DUMP_WORDS. Without the `u` flag the expression matches a
 * letter only by itself or its ASCII capital, which is all `| LOWER_CASE` folds.
 */
function holdsDumpPair(text: string): boolean {
  let previous = text.charCodeAt(0) | LOWER_CASE;
  for (let k = 1; k < text.length; k++) {
    const c = text.charCodeAt(k) | LOWER_CASE;
    // `ls`, `lo`; `hk`, `-k` (`-` already has the bit `| LOWER_CASE` sets).
    if (
      (previous === 0x6c && (c === 0x73 || c === 0x6f)) ||
      (c === 0x6b && (previous === 0x68 || previous === 0x2d))
    )
      return true;
    previous = c;
  }
  return false;
}
for (const verb of DUMP_VERBS)
  if (!holdsDumpPair(verb)) throw new Error(`dump verb without ls, lo, hk or -k: ${verb}`);

/**
 * Whether a word can name a secret at all, or a part of it can: `secretKind` knows no text without
 * a slash or an underscore, nor one without a mark of its stores (see `maySecretPath`), and a
 * substring or path token of a word lacking either lacks it too. So a command whose words all
 * fail this names no secret: most commands with a slash name URLs and project paths.
 */
function maySecret(text: string): boolean {
  return (text.includes("/") || text.includes("_")) && maySecretPath(text);
}

/**
 * The `WordFact`s of a word `secretKind` can know, or any part of it: every store has a slash in
 * its path and every key name an underscore. Most arguments have neither and are passed over.
 */
const SECRET_PATH_CHARACTERS = WordFact.slash | WordFact.underscore;

/**
 * Whether any text `secretAccessHit` judges may name a secret: the words (program and arguments,
 * their path tokens and parts after `@` or `=`), the assignments, input redirection targets and
 * here-document bodies.
 */
function mayNameSecret(inv: Invocation): boolean {
  if ((inv.facts & SECRET_PATH_CHARACTERS) !== 0) for (const w of inv.words) if (maySecret(w)) return true;
  for (const a of inv.assignments) if (maySecret(a)) return true;
  for (const r of inv.redirects) {
    if ((r.op === "<" || r.op === "<&") && maySecret(r.target.text)) return true;
    if (r.body !== undefined && maySecret(r.body)) return true;
  }
  return false;
}

/** The hit for `c` if it names a secret that `inv` reads (`reads`: the program reads files out). */
function judgeSecret(inv: Invocation, reads: boolean, c: string): Hit | undefined {
  const kind = secretKind(c);
  if (kind === undefined) return undefined;
  if (kind === "system" && !METADATA_ONLY.has(inv.name)) {
    return hitOn(inv, "system-secrets", Severity.HIGH, 0.9, `accesses ${normalizePath(c)}`);
  }
  if (kind === "user" && !c.endsWith(".pub")) {
    const redirected =
      reads || inv.redirects.some((r) => (r.op === "<" || r.op === "<&") && r.target.text === c);
    if (redirected) return hitOn(inv, "user-secrets", Severity.HIGH, 0.8, `reads ${normalizePath(c)}`);
  }
  return undefined;
}

/** The first secret named by a path token of the words in `list` that hold a slash. */
function pathTokenSecret(inv: Invocation, reads: boolean, list: readonly string[]): Hit | undefined {
  for (const w of list) {
    if (!w.includes("/")) continue;
    for (const t of pathTokens(w)) {
      const hit = judgeSecret(inv, reads, t);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

/**
 * Whether `inv.words[k]` was judged whole before its path tokens are: the program always is,
 * and an argument is when it holds a slash (the only words with path tokens). Arguments are the
 * last words, and where they are not (`find -exec`), a word of the same text still judges the same.
 */
function judgedWhole(inv: Invocation, k: number): boolean {
  const argsFrom = inv.words.length - inv.argWords.length;
  const w = inv.words[k]!;
  return k >= argsFrom ? inv.argWords[k - argsFrom]!.text === w : w === inv.program;
}

/**
 * `pathTokenSecret` over the command's words. A word that is one path token (`/api/v1/users`)
 * and was judged whole already is passed over: judging the same text again finds nothing new,
 * and most words with a slash are such paths.
 */
function wordTokenSecret(inv: Invocation, reads: boolean): Hit | undefined {
  for (let k = 0; k < inv.words.length; k++) {
    const w = inv.words[k]!;
    if (!w.includes("/")) continue;
    if (isOnePathToken(w) && judgedWhole(inv, k)) continue;
    for (const t of pathTokens(w)) {
      const hit = judgeSecret(inv, reads, t);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

/** The first secret the command names, in the order: program and arguments, path tokens, input redirections, option values, here-documents. */
function secretAccessHit(inv: Invocation): Hit | undefined {
  if (!mayNameSecret(inv)) return undefined;
  const reads = USER_SECRET_READERS.has(inv.name);
  let hit = judgeSecret(inv, reads, inv.program);
  for (let k = 0; hit === undefined && k < inv.argWords.length; k++) {
    const w = inv.argWords[k]!;
    if ((w.facts & SECRET_PATH_CHARACTERS) !== 0) hit = judgeSecret(inv, reads, w.text);
  }
  if (hit === undefined && (inv.facts & WordFact.slash) !== 0) hit = wordTokenSecret(inv, reads);
  if (hit === undefined) hit = pathTokenSecret(inv, reads, inv.assignments);
  for (const r of inv.redirects) {
    if (hit === undefined && (r.op === "<" || r.op === "<&")) hit = judgeSecret(inv, reads, r.target.text);
  }
  for (let k = 0; hit === undefined && k < inv.argWords.length; k++) {
    const w = inv.argWords[k]!;
    // The parts after `@` and `=` hold a slash or an underscore only if the whole does.
    if ((w.facts & SECRET_PATH_CHARACTERS) === 0) continue;
    const a = w.text;
    const at = a.indexOf("@");
    if (at !== -1) hit = judgeSecret(inv, reads, a.slice(at + 1));
    const eq = a.indexOf("=");
    if (hit === undefined && eq !== -1) hit = judgeSecret(inv, reads, a.slice(eq + 1));
  }
  for (const r of inv.redirects) {
    if (hit !== undefined) break;
    if (r.body !== undefined)
      for (const t of pathTokens(r.body)) if (hit === undefined) hit = judgeSecret(inv, reads, t);
  }
  return hit;
}

/** `getent shadow`: the password hashes through the name-service switch. */
function shadowDatabase(inv: Invocation): Hit | undefined {
  if (inv.name !== "getent") return undefined;
  const db = operands(inv.args)[0];
  return db === "shadow" || db === "gshadow"
    ? hitOn(inv, "system-secrets", Severity.HIGH, 0.9, `reads the ${db} database`)
    : undefined;
}

/** `gcore PID`, `gdb -p PID -batch -ex 'generate-core-file'`: a process's memory, secrets included. */
function memoryDump(inv: Invocation): Hit | undefined {
  const gdbDump =
    inv.name === "gdb" &&
    inv.args.includes("-p") &&
    inv.args.some((a) => /^(gcore|generate-core-file|dump memory)/.test(a));
  if (inv.name !== "gcore" && !gdbDump) return undefined;
  // Developers dump their own programs to debug them; a process that holds credentials is another matter.
  const holder = inv.words.join(" ").match(CREDENTIAL_HOLDERS)?.[0];
  return holder !== undefined
    ? hitOn(
        inv,
        "memory-dump-credentials",
        Severity.HIGH,
        0.85,
        `dumps the memory of ${holder}, which holds credentials`,
      )
    : hitOn(inv, "memory-dump", Severity.LOW, 0.5, "dumps the memory of a running process");
}

/** Processes whose memory holds passwords or keys: login daemons, agents, keyrings, password managers. */
const CREDENTIAL_HOLDERS =
  /\b(?:sshd|ssh-agent|gpg-agent|gnome-keyring(?:-daemon)?|kwalletd[0-9]?|lsass|keepassxc?|1password|bitwarden|vault|login)\b/;

/** Whether an argument names a dumping verb; read from `argWords`, which spares every command the texts of its words. */
function mentionsDumpWords(inv: Invocation): boolean {
  if ((inv.facts & WordFact.dumpVerbLetter) === 0) return false;
  for (const w of inv.argWords) {
    if (
      (w.facts & WordFact.dumpVerbLetter) !== 0 &&
      w.text.length >= SHORTEST_DUMP_WORD &&
      holdsDumpPair(w.text) &&
      DUMP_WORDS.test(w.text)
    )
      return true;
  }
  return false;
}

/** Programs that search contents or names, which a credential hunt runs. */
const HUNTERS: ReadonlySet<string> = new Set(["grep", "egrep", "fgrep", "rg", "ag", "find"]);

/**
 * Roots a credential hunt starts from: the whole machine or every user's home, not a project.
 * (`/root` is a home, which paths normalise to `~`, and searching one's own home is left alone.)
 */
const HUNT_ROOTS: ReadonlySet<string> = new Set([
  "/",
  "/home",
  "/etc",
  "/var",
  "/opt",
  "/srv",
  "/mnt",
  "/users",
]);

/** What a hunt looks for: password and key words in contents, key and secret files by name. */
const HUNTED_WORDS = /passw|secret|token|api[_-]?key|aws_secret|private[ _-]?key|BEGIN [A-Z ]{0,20}PRIVATE/i;
const HUNTED_NAMES =
  /^\*?(?:id_(?:rsa|dsa|ecdsa|ed25519)|\*?\.pem|\*?\.key|\*?\.kdbx|\.env|credentials|\*?\.p12|\*?\.pfx|\.git-credentials|\.netrc)$/i;

function isHuntRoot(raw: string): boolean {
  return HUNT_ROOTS.has(namedDirectory(raw));
}

/**
 * `grep -r "aws_secret_access_key" /`, `find / -name id_rsa`: searching the whole machine or
 * every home for passwords and keys. Searching a project (`grep -r TOKEN src/`) is not.
 */
function credentialHunt(inv: Invocation): Hit | undefined {
  if (!HUNTERS.has(inv.name)) return undefined;
  if (inv.name === "find") {
    const names = inv.args.filter((_, k) => k > 0 && /^-i?name$/.test(inv.args[k - 1] ?? ""));
    return findRoots(inv.args).some(isHuntRoot) && names.some((n) => HUNTED_NAMES.test(n))
      ? hitOn(inv, "credential-hunt", Severity.MEDIUM, 0.75, "searches the file system for key files")
      : undefined;
  }
  const recursive =
    inv.name === "rg" ||
    inv.name === "ag" ||
    inv.args.some((a) => /^-[a-zA-Z]*[rR]/.test(a) || a === "--recursive");
  const ops = operands(inv.args);
  return recursive && ops.some(isHuntRoot) && ops.some((o) => HUNTED_WORDS.test(o))
    ? hitOn(inv, "credential-hunt", Severity.MEDIUM, 0.75, "searches the file system for passwords and keys")
    : undefined;
}

/** Interpreters that run a script named as their first operand, besides the `python` family. */
const SCRIPT_RUNNERS: ReadonlySet<string> = new Set([
  "perl",
  "ruby",
  "bash",
  "sh",
  "zsh",
  "pwsh",
  "powershell",
]);

/** `python3 laZagne.py all`, `perl mimipenguin.pl`: a dumping tool run as an interpreter's script. */
function dumpScript(inv: Invocation): Hit | undefined {
  if (!SCRIPT_RUNNERS.has(inv.name) && !isPythonName(inv.name)) return undefined;
  const script = operands(inv.args)[0];
  return script !== undefined && isDumpTool(basename(script))
    ? hitOn(inv, "dump-tool", Severity.HIGH, 0.9, "runs a credential dumping tool")
    : undefined;
}

function dumpTools(inv: Invocation): Hit | undefined {
  if (isDumpTool(inv.name) || mentionsDumpWords(inv)) {
    return hitOn(inv, "dump-tool", Severity.HIGH, 0.9, "runs a credential dumping tool");
  }
  if (
    inv.name === "security" &&
    inv.args.some(
      (a) => a === "dump-keychain" || a === "find-generic-password" || a === "find-internet-password",
    ) &&
    inv.args.some((a) => a === "-w" || a === "-g" || a === "-d" || a === "dump-keychain")
  ) {
    return hitOn(inv, "keychain-dump", Severity.HIGH, 0.85, "reads passwords from the keychain");
  }
  return undefined;
}

const ENV_DUMPERS: ReadonlySet<string> = new Set(["env", "printenv", "set", "export", "declare"]);

/** `env`, `printenv`, `set`: `env` with no command is a wrapper that ran nothing, so name is empty. */
function isEnvDump(m: Invocation): boolean {
  if (m.name === "" && m.words[0] === "env") return true;
  return ENV_DUMPERS.has(m.name) && operands(m.args).length === 0;
}

/** `env | curl -d @- ...`, `printenv | nc host 80`: the whole environment leaves the host. */
function envDumpsOut(analysis: Analysis): Hit[] {
  const hits: Hit[] = [];
  for (const p of analysis.pipelines) {
    // The dump must come before the sender, so a single command, a sender first or none settles it.
    if (p.invocations.length < 2) continue;
    const send = p.invocations.findIndex((m) => NETWORK_SENDERS.has(m.name));
    if (send < 1) continue;
    const dump = p.invocations.findIndex(isEnvDump);
    if (dump !== -1 && send > dump)
      hits.push(hitOn(p, "env-dump-out", Severity.HIGH, 0.85, "environment variables sent over the network"));
  }
  return hits;
}

/** Interpreter code opening credential files (`open("/etc/shadow")`). */
function codeSecrets(analysis: Analysis): Hit[] {
  const hits: Hit[] = [];
  for (const c of analysis.code) {
    const reads = READ_API.test(c.code);
    const path = pathTokens(c.code).find((t) => {
      const kind = secretKind(t);
      return (kind === "system" || (kind === "user" && reads)) && !t.endsWith(".pub");
    });
    if (path !== undefined)
      hits.push(
        hitOn(c, "code-secrets", Severity.HIGH, 0.85, `${c.interpreter} code reads ${normalizePath(path)}`),
      );
  }
  return hits;
}

export const credentialPatterns: readonly RegExp[] = [
  READ_API,
  DUMP_TOOLS,
  DUMP_WORDS,
  HUNTED_WORDS,
  HUNTED_NAMES,
  CREDENTIAL_HOLDERS,
];

export const credentials = ruleModule({
  name: "credentials",
  commands: [
    // System hash files count whatever program touches them. A command can name a secret only
    // in a word with a slash or an underscore, an assignment or a redirection (see `mayNameSecret`).
    {
      programs: [],
      traits: [Trait.slash, Trait.underscore, Trait.assignment, Trait.redirect],
      check: (inv, hits) => pushHit(hits, secretAccessHit(inv)),
    },
    // Dumping tools go by many names and their verbs show in any command's arguments.
    { programs: ANY_PROGRAM, check: (inv, hits) => pushHit(hits, dumpTools(inv)) },
    {
      programs: [...HUNTERS],
      check: (inv, hits) => pushHit(hits, credentialHunt(inv)),
    },
    // Interpreters that run a script named as their first operand.
    {
      programs: [...SCRIPT_RUNNERS],
      namePrefixes: ["python"],
      check: (inv, hits) => pushHit(hits, dumpScript(inv)),
    },
    { programs: ["getent"], check: (inv, hits) => pushHit(hits, shadowDatabase(inv)) },
    { programs: ["gdb", "gcore"], check: (inv, hits) => pushHit(hits, memoryDump(inv)) },
  ],
  after(analysis, hits) {
    append(hits, envDumpsOut(analysis));
    append(hits, codeSecrets(analysis));
  },
  // An environment dump goes out through a network sender; code is read whenever there is some.
  hooksNeed: [...NETWORK_SENDERS],
});
