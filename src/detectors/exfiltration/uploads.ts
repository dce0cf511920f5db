import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { append } from "../commands/append.js";
import { isSensitiveFile, normalizePath, pathTokens } from "../commands/paths.js";
import { type Hit, hitOn, NETWORK_SENDERS, operands, optionValue } from "../commands/rules/types.js";
import type { Analysis, Invocation } from "../commands/shell/analyze.js";
import type { Pipeline } from "../commands/shell/ast.js";
import { basename } from "../commands/shell/wrappers.js";

/**
 * Files with secrets leaving the host through a command: uploads by curl, wget, httpie,
 * netcat-style clients, scp/rsync to a remote, a secret read and piped into a network client,
 * command output spliced into a URL, or a file server opened on the working directory.
 * Uploading an ordinary file (`curl -F file=@report.pdf`) is not matched: what makes a
 * transfer exfiltration is what is sent, since where it goes cannot be judged from text.
 */

/** The file named by a curl/httpie data argument: `@f`, `name@f`, `name=@f`, `name=<f`. */
function dataFile(value: string): string | undefined {
  const at = value.indexOf("@");
  if (at !== -1) return value.slice(at + 1).split(";", 1)[0];
  const lt = value.indexOf("=<");
  return lt === -1 ? undefined : value.slice(lt + 2).split(";", 1)[0];
}

const CURL_DATA = new Set([
  "-d",
  "--data",
  "--data-binary",
  "--data-urlencode",
  "--data-ascii",
  "-F",
  "--form",
  "--form-string",
  "-T",
  "--upload-file",
  "--json",
]);

/** Programs `uploadedFiles` reads the arguments of; network senders are read for `<` inputs too. */
const UPLOADERS: ReadonlySet<string> = new Set(["curl", "wget", "http", "https", "xh", "ab", "hping3"]);

const NO_FILES: readonly string[] = [];

/** Files a command sends as a request body or upload. */
function uploadedFiles(inv: Invocation): readonly string[] {
  if (!UPLOADERS.has(inv.name) && !NETWORK_SENDERS.has(inv.name)) return NO_FILES;
  const files: string[] = [];
  const a = inv.args;
  for (let k = 0; k < a.length; k++) {
    const arg = a[k]!;
    if (inv.name === "curl") {
      const eq = arg.indexOf("=");
      const name = arg.startsWith("--") && eq !== -1 ? arg.slice(0, eq) : arg;
      if (!CURL_DATA.has(name) && !/^-[dFT]./.test(arg)) continue;
      const value = name !== arg ? arg.slice(eq + 1) : /^-[dFT]./.test(arg) ? arg.slice(2) : (a[k + 1] ?? "");
      const file =
        name === "-T" || name === "--upload-file" || arg.startsWith("-T") ? value : dataFile(value);
      if (file !== undefined) files.push(file);
    } else if (inv.name === "wget" && (arg.startsWith("--post-file") || arg.startsWith("--body-file"))) {
      files.push(arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : (a[k + 1] ?? ""));
    } else if ((inv.name === "http" || inv.name === "https" || inv.name === "xh") && arg.includes("@")) {
      const file = dataFile(arg);
      if (file !== undefined) files.push(file);
    } else if (inv.name === "ab" && (arg === "-p" || arg === "-u") && a[k + 1] !== undefined) {
      files.push(a[k + 1]!);
    } else if (inv.name === "hping3" && (arg === "--file" || arg === "-E") && a[k + 1] !== undefined) {
      files.push(a[k + 1]!);
    }
  }
  if (NETWORK_SENDERS.has(inv.name)) {
    for (const r of inv.redirects) if (r.op === "<") files.push(r.target.text);
  }
  return files;
}

const IPV4 = /(^|[^0-9.])[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}([^0-9.]|$)/;

/** An argument naming somewhere off the host: a URL, `user@host:path`, an IPv4 address. */
function isRemote(arg: string): boolean {
  // Each test below needs a colon, or dots for an IPv4 address.
  const colon = arg.indexOf(":");
  if (colon === -1 && !arg.includes(".")) return false;
  if (
    /^(https?|ftps?|tftp|gopher|scp|sftp|rsync|smb|dict|telnet|tcp|udp|tcp-connect|openssl-connect|ssl):/i.test(
      arg,
    )
  )
    return true;
  if (/^[A-Za-z0-9._-]{1,64}@[A-Za-z0-9.-]{1,253}:/.test(arg)) return true;
  const host = colon > 0 ? arg.slice(0, colon) : "";
  if (host.includes(".") && /^[A-Za-z0-9.-]{1,253}$/.test(host) && arg[colon + 1] !== "/") return true;
  return IPV4.test(arg) && !arg.startsWith("127.") && !arg.startsWith("0.0.0.0");
}

/** The first sensitive file among the arguments, the path tokens inside them, then `<` inputs. */
function sensitiveIn(inv: Invocation): string | undefined {
  for (const a of inv.args) if (isSensitiveFile(a)) return a;
  for (const a of inv.args) {
    if (!a.includes("/")) continue;
    for (const t of pathTokens(a)) if (isSensitiveFile(t)) return t;
  }
  for (const r of inv.redirects) if (r.op === "<" && isSensitiveFile(r.target.text)) return r.target.text;
  return undefined;
}

function readsSecrets(pipelines: readonly Pipeline[]): boolean {
  for (const p of pipelines) {
    for (const c of p.commands) {
      const name = basename(c.words[0]?.text ?? "");
      if (name === "env" || name === "printenv") return true;
      if (c.words.some((w) => isSensitiveFile(w.text) || pathTokens(w.text).some(isSensitiveFile)))
        return true;
      if (c.redirects.some((r) => r.op === "<" && isSensitiveFile(r.target.text))) return true;
    }
  }
  return false;
}

const COPY_TOOLS = new Set([
  "scp",
  "rsync",
  "sftp",
  "rclone",
  "aws",
  "gsutil",
  "azcopy",
  "smbclient",
  "tftp",
  "ftp",
  "lftp",
]);

function fileServer(inv: Invocation): boolean {
  const a = inv.args;
  if (inv.name.startsWith("python") && /^python[0-9.]*$/.test(inv.name))
    return a.includes("-m") && a.some((x) => x === "http.server" || x === "SimpleHTTPServer");
  if (inv.name === "ruby") return a.includes("-run") || a.some((x) => x.includes("httpd"));
  if (inv.name === "php") return a.includes("-S") && a.some((x) => x.startsWith("0.0.0.0"));
  if (inv.name === "busybox" || inv.name === "httpd") return a.includes("httpd") || inv.name === "httpd";
  if (inv.name === "kubectl") return a.includes("proxy") && a.some((x) => x.startsWith("--www"));
  return false;
}

const RAW_CLIENTS = new Set([
  "nc",
  "ncat",
  "netcat",
  "nc.traditional",
  "nc.openbsd",
  "socat",
  "telnet",
  "cryptcat",
]);

/**
 * Raw sockets fed from a file: bash's `/dev/tcp` written to, netcat given `< file`, socat reading
 * `file:`. Unlike HTTP clients these have little honest use for sending a file.
 */
function rawSocketSend(inv: Invocation): boolean {
  const devTcp = inv.redirects.some(
    (r) => (r.op === ">" || r.op === ">>") && /^\/dev\/(tcp|udp)\//.test(r.target.text),
  );
  const client = RAW_CLIENTS.has(inv.name) || (inv.name === "openssl" && inv.args.includes("s_client"));
  const fed = client && inv.redirects.some((r) => r.op === "<" && r.target.text !== "/dev/null");
  const socatFile =
    inv.name === "socat" && inv.args.some((a) => /^(file|open):/i.test(a)) && inv.args.some(isRemote);
  return devTcp || fed || socatFile;
}

const LOCAL_SCRATCH = ["/tmp/", "/var/tmp/", "/dev/", "/proc/self/"];

/**
 * A local file named by an absolute or home path outside scratch directories: a file from
 * outside the working tree. Request bodies in the working tree (`-d @payload.json`) are how
 * APIs are called and are not matched.
 */
function outsideFile(path: string): boolean {
  const p = normalizePath(path);
  return (p.startsWith("/") || p.startsWith("~")) && p !== "/" && !LOCAL_SCRATCH.some((d) => p.startsWith(d));
}

/** Judges one file sent to a remote host: secrets weigh HIGH, other files from outside the working tree LOW. */
function fileSent(
  span: { start: number; end: number },
  rule: string,
  how: string,
  file: string,
): Hit | undefined {
  if (isSensitiveFile(file)) return hitOn(span, `${rule}-secret`, Severity.HIGH, 0.9, `${how} ${file}`);
  if (outsideFile(file))
    return hitOn(span, rule, Severity.LOW, 0.5, `${how} ${file}, from outside the working tree`);
  return undefined;
}

/** The first of `lists`' files that `fileSent` judges, in order. */
function firstSent(inv: Invocation, lists: readonly (readonly string[])[]): Hit | undefined {
  for (const files of lists) {
    for (const f of files) {
      const hit = fileSent(inv, "upload-file", `${inv.name} sends`, f);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

/** Remote copies (`scp /srv/db.sql host:`, `rsync -a /home/u/ host:dir`): local sources, remote destination. */
function remoteCopySources(inv: Invocation): readonly string[] {
  if (inv.name !== "scp" && inv.name !== "rsync") return NO_FILES;
  const ops = operands(inv.args).filter((o) => !/^[0-9]+$/.test(o));
  if (ops.length < 2 || !isRemote(ops.at(-1)!)) return [];
  return ops.slice(0, -1).filter((o) => !isRemote(o));
}

/** `lp -h host file`, `restic backup -r rest:https://host/ dir`: files handed to a remote service. */
function remoteServiceSources(inv: Invocation): readonly string[] {
  if (inv.name !== "lp" && inv.name !== "restic") return NO_FILES;
  if (inv.name === "lp" && optionValue(inv.args, ["-h"]) !== undefined)
    return operands(inv.args).filter((o) => o !== optionValue(inv.args, ["-h"]));
  if (inv.name === "restic" && operands(inv.args)[0] === "backup") {
    const repo = optionValue(inv.args, ["-r", "--repo"]) ?? "";
    if (/^(rest|sftp|s3|b2|azure|gs|swift|rclone):|:\/\//.test(repo))
      return operands(inv.args)
        .slice(1)
        .filter((o) => o !== repo);
  }
  return [];
}

/** `tar cf user@host:/x.tar files --rsh-command=...`: an archive written on a remote host. */
function remoteArchiveSources(inv: Invocation): readonly string[] {
  if (inv.name !== "tar") return NO_FILES;
  const first = inv.args[0] ?? "";
  const bundled = !first.startsWith("-") && /^[a-zA-Z]+$/.test(first);
  const create = (bundled && first.includes("c")) || inv.args.includes("-c") || inv.args.includes("--create");
  if (!create) return [];
  let archive = optionValue(inv.args, ["-f", "--file"]);
  if (archive === undefined && bundled && first.includes("f")) archive = inv.args[1];
  if (
    archive === undefined ||
    !/^[A-Za-z0-9._-]{1,64}@[A-Za-z0-9.-]{1,253}:|^[A-Za-z0-9.-]{1,253}:\//.test(archive)
  )
    return [];
  return operands(inv.args.slice(bundled ? 2 : 0)).filter((o) => o !== archive);
}

/** Files a file-transfer session (`ftp host` then `put f`, `smbclient -c 'put f'`) uploads. */
function sessionPuts(script: string): string[] {
  const out: string[] = [];
  for (const line of script.split(/[\n;]/)) {
    const words = line.trim().split(/\s+/);
    if (
      (words[0] === "put" || words[0] === "mput" || words[0] === "append" || words[0] === "send") &&
      words[1]
    )
      out.push(words[1]);
  }
  return out;
}

const TRANSFER_SESSIONS: ReadonlySet<string> = new Set(["ftp", "sftp", "tftp", "lftp", "ncftp", "smbclient"]);

/** File servers on a path: `tailscale serve /srv/files`. */
function servedPath(inv: Invocation): string | undefined {
  if (inv.name !== "tailscale") return undefined;
  const ops = operands(inv.args);
  if (ops[0] !== "serve" && ops[0] !== "funnel") return undefined;
  return ops.slice(1).find((o) => o.startsWith("/") || o.startsWith("~"));
}

/** Directory levels looked at above a path; bounds the work on hostile paths with many slashes. */
const MAX_LEVELS = 32;

/** `path` is a mount point or below one; walks the path's own prefixes, not the mounts. */
function underMount(path: string, mounts: ReadonlySet<string>): boolean {
  let levels = 0;
  for (let k = path.length; k > 0 && levels < MAX_LEVELS; k = path.lastIndexOf("/", k - 1), levels++) {
    if (mounts.has(path.slice(0, k))) return true;
  }
  return false;
}

/** `sshfs host:dir mnt` then `cp f mnt/`: files copied into a remote mount leave the host. */
function remoteMountCopies(analysis: Analysis): Hit[] {
  const mounts = new Set<string>();
  const hits: Hit[] = [];
  for (const inv of analysis.invocations) {
    if (inv.name === "sshfs" || (inv.name === "mount" && inv.args.includes("fuse.sshfs"))) {
      const ops = operands(inv.args);
      if (ops.length >= 2 && isRemote(ops[0]!)) mounts.add(normalizePath(ops[1]!));
      continue;
    }
    if (
      mounts.size === 0 ||
      !(inv.name === "cp" || inv.name === "mv" || inv.name === "rsync" || inv.name === "install")
    )
      continue;
    const ops = operands(inv.args);
    const target = normalizePath(ops.at(-1) ?? "");
    if (ops.length < 2 || !underMount(target, mounts)) continue;
    for (const source of ops.slice(0, -1)) {
      const hit = fileSent(inv, "remote-mount-copy", "copies into a remote sshfs mount:", source);
      if (hit) {
        hits.push(hit);
        break;
      }
    }
  }
  return hits;
}

/** zsh's `ztcp host port` with data written to the socket's descriptor (`>&$REPLY`). */
function zshSocketSend(analysis: Analysis): Hit[] {
  const connect = analysis.invocations.find(
    (m) => m.name === "ztcp" && !m.args.includes("-l") && m.args.length >= 2,
  );
  if (!connect) return [];
  const writer = analysis.invocations.find((m) =>
    m.redirects.some((r) => r.op === ">&" && r.target.text.startsWith("$")),
  );
  return writer
    ? [
        hitOn(
          { start: connect.start, end: writer.end },
          "zsh-socket-send",
          Severity.MEDIUM,
          0.65,
          "sends data over a zsh TCP socket",
        ),
      ]
    : [];
}

/** Code that reads a file and code that sends over the network, in one fragment. */
const CODE_FILE_READ =
  /open\(|io\.open|createReadStream|readFile|file_get_contents|File\.read|IO\.read|fopen|slurp|\$\(</;
const CODE_NETWORK_SEND =
  /socket|urlopen|urllib|requests\.(post|put)|https?\.request|require\(["']https?["']\)|fetch\(|IO::Socket|LWP|HTTP::Tiny|curl_exec|Net::HTTP|net\.connect|\.send\(|\.sendall\(/i;

function codeUploads(analysis: Analysis): Hit[] {
  const hits: Hit[] = [];
  for (const c of analysis.code) {
    if (c.tool || c.interpreter.endsWith(" output") || c.interpreter === "here-document") continue;
    if (TRANSFER_SESSIONS.has(c.interpreter)) {
      for (const file of sessionPuts(c.code)) {
        const hit = fileSent(c, "session-upload", `${c.interpreter} session uploads`, file);
        if (hit) {
          hits.push(hit);
          break;
        }
      }
      continue;
    }
    if (!CODE_FILE_READ.test(c.code) || !CODE_NETWORK_SEND.test(c.code)) continue;
    const secret = pathTokens(c.code).find(isSensitiveFile);
    hits.push(
      secret !== undefined
        ? hitOn(
            c,
            "code-upload-secret",
            Severity.HIGH,
            0.85,
            `${c.interpreter} code sends ${secret} over the network`,
          )
        : hitOn(
            c,
            "code-upload",
            Severity.MEDIUM,
            0.6,
            `${c.interpreter} code reads a file and sends it over the network`,
          ),
    );
  }
  return hits;
}

/** `curl gopher://host:port/_<data>`: gopher's only use today is smuggling raw bytes to a port. */
function gopherPayload(inv: Invocation): boolean {
  return (
    (inv.name === "curl" || inv.name === "wget") && inv.args.some((a) => /^gopher:\/\/[^/]+\/_./i.test(a))
  );
}

export const uploadPatterns: readonly RegExp[] = [CODE_FILE_READ, CODE_NETWORK_SEND];

export function uploads(analysis: Analysis): Hit[] {
  const hits: Hit[] = [];
  // Both judged again per pipeline member and per test below; computed once per invocation.
  const secrets = new Map<Invocation, string | undefined>();
  const secretOf = (inv: Invocation): string | undefined => {
    if (!secrets.has(inv)) secrets.set(inv, sensitiveIn(inv));
    return secrets.get(inv);
  };
  for (const inv of analysis.invocations) {
    const uploaded = uploadedFiles(inv);
    const sent = uploaded.find(isSensitiveFile);
    if (sent !== undefined) {
      hits.push(hitOn(inv, "upload-secret", Severity.HIGH, 0.9, `${inv.name} uploads ${sent}`));
      continue;
    }
    const anyRemote = inv.args.some(isRemote);
    const remote = inv.name === "hping3" || anyRemote;
    const outside = remote ? uploaded.find(outsideFile) : undefined;
    const copied = [remoteCopySources(inv), remoteArchiveSources(inv), remoteServiceSources(inv)];
    if (inv.name === "smbclient") copied.push(sessionPuts(optionValue(inv.args, ["-c", "--command"]) ?? ""));
    const served = servedPath(inv);
    if (gopherPayload(inv)) {
      hits.push(
        hitOn(inv, "gopher-payload", Severity.MEDIUM, 0.7, "gopher request carrying raw data to a port"),
      );
      continue;
    }
    if (served !== undefined) {
      hits.push(
        isSensitiveFile(served)
          ? hitOn(inv, "file-server-secret", Severity.HIGH, 0.85, `serves ${served} to the network`)
          : hitOn(inv, "file-server", Severity.MEDIUM, 0.5, `serves ${served} to the network`),
      );
      continue;
    }
    const fileHit =
      (outside !== undefined ? fileSent(inv, "upload-file", `${inv.name} uploads`, outside) : undefined) ??
      firstSent(inv, copied);
    if (fileHit !== undefined && inv.name === "hping3" && fileHit.severity === Severity.LOW) {
      hits.push(
        hitOn(
          inv,
          "covert-channel",
          Severity.MEDIUM,
          0.7,
          `hping3 sends ${outside ?? "a file"} inside packets`,
        ),
      );
      continue;
    }
    // Only a copy to a remote host is reported here; the secret is looked for only then.
    const secret = anyRemote ? secretOf(inv) : undefined;
    if (secret !== undefined && (COPY_TOOLS.has(inv.name) || NETWORK_SENDERS.has(inv.name) || anyRemote)) {
      if (anyRemote) {
        hits.push(
          hitOn(
            inv,
            "copy-secret-remote",
            Severity.HIGH,
            0.85,
            `${inv.name} sends ${secret} to a remote host`,
          ),
        );
        continue;
      }
    }
    if (NETWORK_SENDERS.has(inv.name) && inv.argWords.some((w) => readsSecrets(w.substitutions))) {
      hits.push(
        hitOn(
          inv,
          "substitution-secret",
          Severity.HIGH,
          0.85,
          `${inv.name} sends secrets read by a command substitution`,
        ),
      );
      continue;
    }
    if (rawSocketSend(inv)) {
      hits.push(
        hitOn(inv, "raw-socket-send", Severity.MEDIUM, 0.65, "sends local data over a raw network socket"),
      );
      continue;
    }
    if (fileServer(inv)) {
      hits.push(hitOn(inv, "file-server", Severity.MEDIUM, 0.5, "serves local files over HTTP"));
      continue;
    }
    if (fileHit !== undefined) hits.push(fileHit);
  }
  append(hits, remoteMountCopies(analysis));
  append(hits, zshSocketSend(analysis));
  append(hits, codeUploads(analysis));
  for (const p of analysis.pipelines) {
    const members = p.invocations;
    // The receiving end must be a network sender after the first member; most pipelines have none.
    if (!members.some((m, k) => k > 0 && NETWORK_SENDERS.has(m.name))) continue;
    const reader = members.findIndex(
      (m) => secretOf(m) !== undefined || m.name === "env" || m.name === "printenv",
    );
    const sender = members.findIndex(
      (m, k) => k > reader && NETWORK_SENDERS.has(m.name) && operands(m.args).length > 0,
    );
    if (reader !== -1 && sender > reader) {
      hits.push(
        hitOn(p, "pipe-secret-network", Severity.HIGH, 0.85, `secret piped into ${members[sender]!.name}`),
      );
    }
  }
  for (const c of analysis.code) {
    if (/SimpleHTTPRequestHandler|http\.server|SimpleHTTPServer/.test(c.code)) {
      hits.push(hitOn(c, "file-server-code", Severity.MEDIUM, 0.5, "serves local files over HTTP"));
    }
  }
  return hits;
}
