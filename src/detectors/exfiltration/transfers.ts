import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { isSensitiveFile, normalizePath, pathTokens } from "../commands/paths.js";
import {
  commandWords,
  type Hit,
  hitOn,
  isPythonName,
  NETWORK_SENDERS,
  operands,
  optionValue,
  RAW_SOCKET_CLIENTS,
} from "../commands/rules/types.js";
import type { Invocation } from "../commands/shell/analyze.js";
import type { Pipeline } from "../commands/shell/ast.js";
import { basename } from "../commands/shell/wrappers.js";
import { isRemote } from "./remote.js";
import { socketRedirect } from "./traits.js";

/**
 * What one command sends and where: the files given to uploaders and copy tools, the secrets
 * among its arguments, file servers and raw sockets. Each function judges any command but
 * finds something only for the programs it names; uploads.ts orders their verdicts.
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
export const UPLOADERS: ReadonlySet<string> = new Set([
  "curl",
  "wget",
  "http",
  "https",
  "xh",
  "ab",
  "hping3",
]);

export const NO_FILES: readonly string[] = [];

/** Files a command sends as a request body or upload. */
export function uploadedFiles(inv: Invocation): readonly string[] {
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

/** The first sensitive file among the arguments, the path tokens inside them, then `<` inputs. */
export function sensitiveIn(inv: Invocation): string | undefined {
  for (const a of inv.args) if (isSensitiveFile(a)) return a;
  for (const a of inv.args) {
    if (!a.includes("/")) continue;
    for (const t of pathTokens(a)) if (isSensitiveFile(t)) return t;
  }
  for (const r of inv.redirects) if (r.op === "<" && isSensitiveFile(r.target.text)) return r.target.text;
  return undefined;
}

export function readsSecrets(pipelines: readonly Pipeline[]): boolean {
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

/**
 * Options by which `httpd` is Apache's, told to test its configuration, signal the running
 * server or list what it has (`httpd -t`, `httpd -k graceful`): it then serves what it is
 * configured to, as ever, and starts no file server of the command's own. Busybox's `httpd`
 * has none of them.
 */
const APACHE_CONTROL: ReadonlySet<string> = new Set(["-k", "-t", "-S", "-M", "-l", "-L", "-v", "-V"]);

export function fileServer(inv: Invocation): boolean {
  const a = inv.args;
  if (isPythonName(inv.name))
    return a.includes("-m") && a.some((x) => x === "http.server" || x === "SimpleHTTPServer");
  if (inv.name === "ruby") return a.includes("-run") || a.some((x) => x.includes("httpd"));
  if (inv.name === "php") return a.includes("-S") && a.some((x) => x.startsWith("0.0.0.0"));
  if (inv.name === "busybox") return a.includes("httpd");
  if (inv.name === "httpd") return !a.some((x) => APACHE_CONTROL.has(x));
  if (inv.name === "kubectl") return a.includes("proxy") && a.some((x) => x.startsWith("--www"));
  return false;
}

/** The directory a file server is told to serve: `http.server --directory dist`, `php -S host:port -t public`, `httpd -h www`. */
export function servedDirectory(inv: Invocation): string | undefined {
  if (isPythonName(inv.name)) return optionValue(inv.args, ["-d", "--directory"]);
  if (inv.name === "php") return optionValue(inv.args, ["-t", "--docroot"]);
  // Busybox's `httpd -h DIR`, run as `busybox httpd` or by its own name.
  if (inv.name === "httpd" || (inv.name === "busybox" && inv.args[0] === "httpd"))
    return optionValue(inv.args, ["-h"]);
  return undefined;
}

/** Directories bundlers and static site generators write what they build into, to be published. */
const BUILD_OUTPUTS: ReadonlySet<string> = new Set(["dist", "build", "public", "site", "_site", "out"]);

/** A build output directory of the working tree: `dist`, `./build/`, `dist/browser`; not `../dist` or `~/dist`. */
export function isBuildOutput(dir: string): boolean {
  let p = normalizePath(dir);
  while (p.startsWith("./")) p = p.slice(2);
  const segments = p.split("/");
  return BUILD_OUTPUTS.has(segments[0]!) && !segments.includes("..");
}

/**
 * Raw sockets fed from a file: bash's `/dev/tcp` written to, netcat given `< file`, socat reading
 * `file:`. Unlike HTTP clients these have little honest use for sending a file.
 */
export function rawSocketSend(inv: Invocation): boolean {
  const devTcp = socketRedirect(inv);
  const client =
    RAW_SOCKET_CLIENTS.has(inv.name) || (inv.name === "openssl" && inv.args.includes("s_client"));
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
export function outsideFile(path: string): boolean {
  const p = normalizePath(path);
  return (p.startsWith("/") || p.startsWith("~")) && p !== "/" && !LOCAL_SCRATCH.some((d) => p.startsWith(d));
}

/** Judges one file sent to a remote host: secrets weigh HIGH, other files from outside the working tree LOW. */
export function fileSent(
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
export function firstSent(inv: Invocation, lists: readonly (readonly string[])[]): Hit | undefined {
  for (const files of lists) {
    for (const f of files) {
      const hit = fileSent(inv, "upload-file", `${inv.name} sends`, f);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

/** Remote copies (`scp /srv/db.sql host:`, `rsync -a /home/u/ host:dir`): local sources, remote destination. */
export function remoteCopySources(inv: Invocation): readonly string[] {
  if (inv.name !== "scp" && inv.name !== "rsync") return NO_FILES;
  const ops = operands(inv.args).filter((o) => !/^[0-9]+$/.test(o));
  if (ops.length < 2 || !isRemote(ops.at(-1)!)) return [];
  return ops.slice(0, -1).filter((o) => !isRemote(o));
}

/** `lp -h host file`, `restic backup -r rest:https://host/ dir`: files handed to a remote service. */
export function remoteServiceSources(inv: Invocation): readonly string[] {
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
export function remoteArchiveSources(inv: Invocation): readonly string[] {
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
export function sessionPuts(script: string): string[] {
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

/** File servers on a path: `tailscale serve /srv/files`. */
export function servedPath(inv: Invocation): string | undefined {
  if (inv.name !== "tailscale") return undefined;
  const ops = operands(inv.args);
  if (ops[0] !== "serve" && ops[0] !== "funnel") return undefined;
  return ops.slice(1).find((o) => o.startsWith("/") || o.startsWith("~"));
}

/** `code tunnel` options whose value is the next word: not a subcommand. */
const TUNNEL_VALUE_OPTIONS: ReadonlySet<string> = new Set([
  "--name",
  "--cli-data-dir",
  "--server-data-dir",
  "--extensions-dir",
  "--user-data-dir",
  "--log",
  "--parent-process-id",
]);

/**
 * `code tunnel` (or `code tunnel service install`) starts a VS Code tunnel: whoever signs in to
 * it from vscode.dev browses, downloads and edits this machine's files and opens terminals on
 * it. Its other subcommands (`user login`, `status`, `kill`) start nothing.
 */
export function opensEditorTunnel(inv: Invocation): boolean {
  if (inv.name !== "code" && inv.name !== "code-insiders") return false;
  const words = commandWords(inv.args, TUNNEL_VALUE_OPTIONS, { limit: 3 });
  if (words[0] !== "tunnel") return false;
  return words.length === 1 || (words[1] === "service" && words[2] === "install");
}

/** `curl gopher://host:port/_<data>`: gopher's only use today is smuggling raw bytes to a port. */
export function gopherPayload(inv: Invocation): boolean {
  return (
    (inv.name === "curl" || inv.name === "wget") && inv.args.some((a) => /^gopher:\/\/[^/]+\/_./i.test(a))
  );
}
