import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { isSensitiveFile, pathTokens } from "../commands/paths.js";
import { type Hit, hitOn, NETWORK_SENDERS, operands } from "../commands/rules/types.js";
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

/** Files a command sends as a request body or upload. */
function uploadedFiles(inv: Invocation): string[] {
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
  if (
    /^(https?|ftps?|tftp|gopher|scp|sftp|rsync|smb|dict|telnet|tcp|udp|tcp-connect|openssl-connect|ssl):/i.test(
      arg,
    )
  )
    return true;
  if (/^[A-Za-z0-9._-]{1,64}@[A-Za-z0-9.-]{1,253}:/.test(arg)) return true;
  const colon = arg.indexOf(":");
  const host = colon > 0 ? arg.slice(0, colon) : "";
  if (host.includes(".") && /^[A-Za-z0-9.-]{1,253}$/.test(host) && arg[colon + 1] !== "/") return true;
  return IPV4.test(arg) && !arg.startsWith("127.") && !arg.startsWith("0.0.0.0");
}

function sensitiveIn(inv: Invocation): string | undefined {
  const candidates = [...inv.args, ...inv.args.flatMap(pathTokens)];
  for (const r of inv.redirects) if (r.op === "<") candidates.push(r.target.text);
  return candidates.find(isSensitiveFile);
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
  if (/^python[0-9.]*$/.test(inv.name))
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
  const fed =
    RAW_CLIENTS.has(inv.name) && inv.redirects.some((r) => r.op === "<" && r.target.text !== "/dev/null");
  const socatFile =
    inv.name === "socat" && inv.args.some((a) => /^(file|open):/i.test(a)) && inv.args.some(isRemote);
  return devTcp || fed || socatFile;
}

export function uploads(analysis: Analysis): Hit[] {
  const hits: Hit[] = [];
  for (const inv of analysis.invocations) {
    const sent = uploadedFiles(inv).find(isSensitiveFile);
    if (sent !== undefined) {
      hits.push(hitOn(inv, "upload-secret", Severity.HIGH, 0.9, `${inv.name} uploads ${sent}`));
      continue;
    }
    const secret = sensitiveIn(inv);
    if (
      secret !== undefined &&
      (COPY_TOOLS.has(inv.name) || NETWORK_SENDERS.has(inv.name) || inv.args.some(isRemote))
    ) {
      if (inv.args.some(isRemote)) {
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
    if (fileServer(inv))
      hits.push(hitOn(inv, "file-server", Severity.MEDIUM, 0.5, "serves local files over HTTP"));
  }
  for (const p of analysis.pipelines) {
    const members = p.invocations;
    const reader = members.findIndex(
      (m) => sensitiveIn(m) !== undefined || m.name === "env" || m.name === "printenv",
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
