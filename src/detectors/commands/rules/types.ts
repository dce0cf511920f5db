import type { Severity } from "../../../../gen/guard/v1/types_pb.js";
import type { Invocation } from "../shell/analyze.js";
import { NameSet } from "../shell/name-table.js";

/**
 * One rule's verdict on one command. Severity says how bad the command is if it runs
 * (CRITICAL: irreversible loss or remote control of the host; HIGH: credential theft, privilege
 * gain, persistence, security controls off, running unreviewed remote code; MEDIUM: steps that
 * are dangerous in an agent's hands but have honest uses; LOW: weak signals). Score is how sure
 * the rule is that the command does what `reason` says (0 to 1).
 */
export interface Hit {
  readonly rule: string;
  readonly severity: Severity;
  readonly score: number;
  readonly start: number;
  readonly end: number;
  readonly reason: string;
}

/** `python`, `python3`, `python3.11`: the Python interpreter under any of its versioned names. */
export function isPythonName(name: string): boolean {
  return name.startsWith("python") && /^python[0-9.]*$/.test(name);
}

/** The starting points `find` searches: its arguments before the first test (`-name`, `!`, `(`). */
export function findRoots(args: readonly string[]): string[] {
  const roots: string[] = [];
  for (const a of args) {
    if (a.startsWith("-") || a === "!" || a === "(") break;
    roots.push(a);
  }
  return roots;
}

export function hitOn(
  span: { readonly start: number; readonly end: number },
  rule: string,
  severity: Severity,
  score: number,
  reason: string,
): Hit {
  return { rule, severity, score, start: span.start, end: span.end, reason };
}

/** Adds `hit` to `hits` when a check found one (checks that find at most one return it or undefined). */
export function pushHit(hits: Hit[], hit: Hit | undefined): void {
  if (hit !== undefined) hits.push(hit);
}

/** Redirection targets the command writes to (`>`, `>>`, `&>`, `>|`). */
export function redirectWrites(inv: Invocation): string[] {
  const out: string[] = [];
  for (const r of inv.redirects) {
    if ((r.op === ">" || r.op === ">>" || r.op === ">|" || r.op === "<>") && r.target.text !== "")
      out.push(r.target.text);
  }
  return out;
}

/** Short options given together (`-rf`) or apart, and long options, as one set. */
export function flagSet(args: readonly string[]): Set<string> {
  const flags = new Set<string>();
  for (const a of args) {
    if (a === "--") break;
    if (a.startsWith("--")) flags.add(a.split("=", 1)[0]!);
    else if (a.startsWith("-") && a.length > 1) for (const ch of a.slice(1)) flags.add(`-${ch}`);
  }
  return flags;
}

/** Non-option arguments. */
export function operands(args: readonly string[]): string[] {
  const out: string[] = [];
  let afterDashes = false;
  for (const a of args) {
    if (!afterDashes && a === "--") afterDashes = true;
    else if (afterDashes || !a.startsWith("-") || a === "-") out.push(a);
  }
  return out;
}

/**
 * A CLI's command words (`iam attach-user-policy`, `delete namespace x`): the arguments that are
 * neither options nor the value of one of `valueOptions`. At most `limit` of them; with
 * `untilDashes`, none after `--` (what follows is another program's command line).
 */
export function commandWords(
  args: readonly string[],
  valueOptions: ReadonlySet<string>,
  { limit = Number.POSITIVE_INFINITY, untilDashes = false } = {},
): string[] {
  const out: string[] = [];
  for (let k = 0; k < args.length && out.length < limit; k++) {
    const a = args[k]!;
    if (untilDashes && a === "--") break;
    if (valueOptions.has(a)) k++;
    else if (!a.startsWith("-")) out.push(a);
  }
  return out;
}

/** Value of `--name=value`, `--name value`, `-n value` or `-nvalue`. */
export function optionValue(args: readonly string[], names: readonly string[]): string | undefined {
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    for (const n of names) {
      if (a === n) return args[k + 1];
      // `a` starts with `${n}=`, tested without building that string for every argument.
      if (n.startsWith("--") && a.charCodeAt(n.length) === 0x3d && a.startsWith(n))
        return a.slice(n.length + 1);
      if (!n.startsWith("--") && n.length === 2 && a.startsWith(n) && a.length > 2) return a.slice(2);
    }
  }
  return undefined;
}

/** Programs that only read or list what they are given, never change it. */
export const READ_ONLY: ReadonlySet<string> = new Set([
  "ls",
  "stat",
  "file",
  "test",
  "[",
  "wc",
  "du",
  "readlink",
  "realpath",
  "basename",
  "dirname",
  "which",
  "type",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "cksum",
  "getfacl",
  "lsattr",
  "namei",
  "echo",
  "printf",
]);

/** Clients that open a bare socket and pass bytes through: the netcat family, socat, telnet. */
export const RAW_SOCKET_CLIENTS = new NameSet([
  "nc",
  "ncat",
  "netcat",
  "nc.traditional",
  "nc.openbsd",
  "socat",
  "telnet",
  "cryptcat",
]);

export const NETWORK_SENDERS = new NameSet([
  "curl",
  "wget",
  ...RAW_SOCKET_CLIENTS,
  "openssl",
  "ssh",
  "scp",
  "sftp",
  "ftp",
  "tftp",
  "rsync",
  "http",
  "https",
  "xh",
  "lftp",
  "smbclient",
  "aria2c",
  "pwncat",
]);
