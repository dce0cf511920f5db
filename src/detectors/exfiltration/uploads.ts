import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { append } from "../commands/append.js";
import { isSensitiveFile } from "../commands/paths.js";
import { ruleModule } from "../commands/rules/dispatch.js";
import { type Hit, hitOn, NETWORK_SENDERS, optionValue, pushHit } from "../commands/rules/types.js";
import type { Invocation } from "../commands/shell/analyze.js";
import { FIELD_CLIENTS, fieldHit } from "./fields.js";
import { isRemote } from "./remote.js";
import { SendTrait, socketRedirect } from "./traits.js";
import {
  fileSent,
  fileServer,
  firstSent,
  gopherPayload,
  isBuildOutput,
  opensEditorTunnel,
  outsideFile,
  rawSocketSend,
  readsSecrets,
  remoteArchiveSources,
  remoteCopySources,
  remoteServiceSources,
  sensitiveIn,
  servedDirectory,
  servedPath,
  sessionPuts,
  UPLOADERS,
  uploadedFiles,
} from "./transfers.js";
import {
  codeUploads,
  configuredServers,
  mountsRemote,
  opensZshSocket,
  pipedSecrets,
  remoteMountCopies,
  STARTING_PROGRAMS,
  servedByCode,
  startsWebServer,
  zshSocketSend,
} from "./whole-analysis.js";

/**
 * Files with secrets leaving the host through a command: uploads by curl, wget, httpie,
 * netcat-style clients, scp/rsync to a remote, a secret read and piped into a network client,
 * command output spliced into a URL, a file server opened on the working directory (or one
 * configured in the command to serve `/`), a VS Code tunnel, or data put into the argument a
 * line-protocol client sends (fields.ts). Uploading an ordinary file (`curl -F file=@report.pdf`) is not matched: what makes a
 * transfer exfiltration is what is sent, since where it goes cannot be judged from text.
 *
 * A command gets at most one verdict, the first that holds in the order of `programSend`.
 */

/** The secret each command names, looked up at most once per analysis: the pipeline check asks again. */
export type SecretCache = Map<Invocation, string | undefined>;

/** What the upload checks share over one analysis. */
interface UploadState {
  readonly secrets: SecretCache;
  /**
   * Whether a command that the checks over the whole analysis start from was met, noted by the
   * per-command checks: most analyses have none, and those checks, which read every command or
   * pipeline, are then skipped.
   */
  remoteMount: boolean;
  zshSocket: boolean;
  webServer: boolean;
  networkSender: boolean;
}

function secretOf(inv: Invocation, cache: SecretCache): string | undefined {
  if (!cache.has(inv)) cache.set(inv, sensitiveIn(inv));
  return cache.get(inv);
}

/** Programs with steps of their own in `programSend`, besides the `python` family. */
const SENDING_PROGRAMS: ReadonlySet<string> = new Set([
  ...UPLOADERS,
  ...NETWORK_SENDERS,
  "tar",
  "lp",
  "restic",
  "tailscale",
  "ruby",
  "php",
  "busybox",
  "httpd",
  "kubectl",
  "code",
  "code-insiders",
  ...FIELD_CLIENTS,
]);

function isSendingProgram(name: string): boolean {
  return SENDING_PROGRAMS.has(name) || name.startsWith("python");
}

function remoteSecretHit(inv: Invocation, secret: string): Hit {
  return hitOn(
    inv,
    "copy-secret-remote",
    Severity.HIGH,
    0.85,
    `${inv.name} sends ${secret} to a remote host`,
  );
}

function rawSocketHit(inv: Invocation): Hit {
  return hitOn(inv, "raw-socket-send", Severity.MEDIUM, 0.65, "sends local data over a raw network socket");
}

/** Loopback addresses a server may be bound to: nothing it serves leaves the machine. */
const LOOPBACK: ReadonlySet<string> = new Set(["127.0.0.1", "localhost", "::1"]);

/**
 * `python -m http.server --bind 127.0.0.1`, `php -S localhost:8000`: a preview server a developer
 * (or an agent) starts for themselves. By default `http.server` listens on every interface.
 */
function servesLoopbackOnly(inv: Invocation): boolean {
  const bind = optionValue(inv.args, ["-b", "--bind"]);
  if (bind !== undefined) return LOOPBACK.has(bind);
  return inv.args.some((a) => LOOPBACK.has(a.slice(0, a.lastIndexOf(":"))));
}

/**
 * A file server, by what it serves and to whom. Without a directory it serves the working
 * directory: in an agent's session that is a repository, `.env` and `.git` included, and
 * opening it to the network stays MEDIUM, as does any directory not known to be harmless (`~`,
 * `/`). A build output directory (`--directory dist`) holds what the build made in order to
 * publish it, and previewing it is reported LOW, to be seen rather than blocked. A secret store
 * served is HIGH, even to this machine only.
 */
function fileServerHit(inv: Invocation): Hit {
  const dir = servedDirectory(inv);
  if (dir !== undefined && isSensitiveFile(dir))
    return hitOn(inv, "file-server-secret", Severity.HIGH, 0.85, `serves ${dir} over HTTP`);
  if (servesLoopbackOnly(inv))
    return hitOn(inv, "file-server", Severity.LOW, 0.3, "serves local files over HTTP to this machine only");
  if (dir !== undefined && isBuildOutput(dir))
    return hitOn(inv, "file-server-build", Severity.LOW, 0.3, `serves the build output ${dir} over HTTP`);
  return hitOn(
    inv,
    "file-server",
    Severity.MEDIUM,
    0.5,
    dir === undefined ? "serves local files over HTTP" : `serves ${dir} over HTTP`,
  );
}

/** The verdict on a command of a program in SENDING_PROGRAMS; nothing for other programs. */
function programSend(inv: Invocation, cache: SecretCache): Hit | undefined {
  if (!isSendingProgram(inv.name)) return undefined;
  const uploaded = uploadedFiles(inv);
  const sent = uploaded.find(isSensitiveFile);
  if (sent !== undefined)
    return hitOn(inv, "upload-secret", Severity.HIGH, 0.9, `${inv.name} uploads ${sent}`);
  const anyRemote = inv.args.some(isRemote);
  const outside = inv.name === "hping3" || anyRemote ? uploaded.find(outsideFile) : undefined;
  if (gopherPayload(inv))
    return hitOn(inv, "gopher-payload", Severity.MEDIUM, 0.7, "gopher request carrying raw data to a port");
  const served = servedPath(inv);
  if (served !== undefined) {
    return isSensitiveFile(served)
      ? hitOn(inv, "file-server-secret", Severity.HIGH, 0.85, `serves ${served} to the network`)
      : hitOn(inv, "file-server", Severity.MEDIUM, 0.5, `serves ${served} to the network`);
  }
  const copied = [remoteCopySources(inv), remoteArchiveSources(inv), remoteServiceSources(inv)];
  if (inv.name === "smbclient") copied.push(sessionPuts(optionValue(inv.args, ["-c", "--command"]) ?? ""));
  const fileHit =
    (outside !== undefined ? fileSent(inv, "upload-file", `${inv.name} uploads`, outside) : undefined) ??
    firstSent(inv, copied);
  if (fileHit !== undefined && inv.name === "hping3" && fileHit.severity === Severity.LOW)
    return hitOn(
      inv,
      "covert-channel",
      Severity.MEDIUM,
      0.7,
      `hping3 sends ${outside ?? "a file"} inside packets`,
    );
  // Only a copy to a remote host is reported here; the secret is looked for only then.
  const secret = anyRemote ? secretOf(inv, cache) : undefined;
  if (secret !== undefined) return remoteSecretHit(inv, secret);
  if (NETWORK_SENDERS.has(inv.name) && inv.argWords.some((w) => readsSecrets(w.substitutions))) {
    return hitOn(
      inv,
      "substitution-secret",
      Severity.HIGH,
      0.85,
      `${inv.name} sends secrets read by a command substitution`,
    );
  }
  if (rawSocketSend(inv)) return rawSocketHit(inv);
  if (fileServer(inv)) return fileServerHit(inv);
  if (opensEditorTunnel(inv))
    return hitOn(
      inv,
      "editor-tunnel",
      Severity.MEDIUM,
      0.6,
      "opens a VS Code tunnel: this machine's files can be browsed and downloaded from vscode.dev",
    );
  return fileHit ?? fieldHit(inv);
}

/**
 * The verdict on a command of any other program: such a command can only name a secret and a
 * remote host together or write to a `/dev/tcp` socket, the two steps of `programSend` that do
 * not depend on the program.
 */
function otherProgramSend(inv: Invocation, cache: SecretCache): Hit | undefined {
  if (isSendingProgram(inv.name)) return undefined;
  const secret = inv.args.some(isRemote) ? secretOf(inv, cache) : undefined;
  if (secret !== undefined) return remoteSecretHit(inv, secret);
  if (!socketRedirect(inv)) return undefined;
  const sent = secretOf(inv, cache);
  return sent === undefined
    ? rawSocketHit(inv)
    : hitOn(inv, "raw-socket-secret", Severity.HIGH, 0.85, `sends ${sent} over a raw network socket`);
}

/** Notes the commands that `remoteMountCopies`, `zshSocketSend` and `configuredServers` start from. */
function noteStarts(inv: Invocation, state: UploadState): void {
  if (mountsRemote(inv)) state.remoteMount = true;
  if (opensZshSocket(inv)) state.zshSocket = true;
  if (startsWebServer(inv)) state.webServer = true;
}

export const uploads = ruleModule<UploadState>({
  name: "uploads",
  prepare: () => ({
    secrets: new Map(),
    remoteMount: false,
    zshSocket: false,
    webServer: false,
    networkSender: false,
  }),
  commands: [
    {
      programs: [...SENDING_PROGRAMS],
      namePrefixes: ["python"],
      check: (inv, hits, state) => {
        // `pipedSecrets` needs a network sender, and every one is a sending program.
        if (NETWORK_SENDERS.has(inv.name)) state.networkSender = true;
        pushHit(hits, programSend(inv, state.secrets));
      },
    },
    {
      programs: [],
      traits: [SendTrait.remoteArgument, SendTrait.socketRedirect],
      check: (inv, hits, state) => pushHit(hits, otherProgramSend(inv, state.secrets)),
    },
    { programs: STARTING_PROGRAMS, check: (inv, _hits, state) => noteStarts(inv, state) },
  ],
  after: (analysis, hits, state) => {
    if (state.remoteMount) append(hits, remoteMountCopies(analysis));
    if (state.zshSocket) append(hits, zshSocketSend(analysis));
    if (state.webServer) append(hits, configuredServers(analysis));
    append(hits, codeUploads(analysis));
    if (state.networkSender) {
      append(
        hits,
        pipedSecrets(analysis, (inv) => secretOf(inv, state.secrets)),
      );
    }
    append(hits, servedByCode(analysis));
  },
});
