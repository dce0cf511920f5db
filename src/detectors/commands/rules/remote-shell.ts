import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { append } from "../append.js";
import { type Analysis, type Invocation, isShell } from "../shell/analyze.js";
import { NameSet } from "../shell/name-table.js";
import { ruleModule, Trait } from "./dispatch.js";
import { type Hit, hitOn, operands, pushHit } from "./types.js";

/**
 * Reverse and bind shells: a shell whose input and output are a network connection. Seen as
 * bash's `/dev/tcp` sockets, netcat's `-e`, socat's `exec:`, a FIFO looped through a network
 * client, a shell piped between network clients, or interpreter one-liners that open a socket
 * and hand it to a shell.
 */

const NET_CLIENTS = new NameSet([
  "nc",
  "ncat",
  "netcat",
  "nc.traditional",
  "nc.openbsd",
  "telnet",
  "socat",
  "cryptcat",
  "pwncat",
  "openssl",
]);

function isNetClient(inv: Invocation): boolean {
  if (!NET_CLIENTS.has(inv.name)) return false;
  return inv.name !== "openssl" || inv.args.some((a) => a === "s_client" || a === "s_server");
}

function mentionsDevTcp(text: string): boolean {
  // One scan for the common prefix first: nearly every word lacks it.
  return text.includes("/dev/") && (text.includes("/dev/tcp/") || text.includes("/dev/udp/"));
}

function usesDevTcp(inv: Invocation): boolean {
  for (const r of inv.redirects) if (mentionsDevTcp(r.target.text)) return true;
  for (const a of inv.args) if (mentionsDevTcp(a)) return true;
  return false;
}

function netcatExec(inv: Invocation): boolean {
  if (!NET_CLIENTS.has(inv.name) || inv.name === "socat" || inv.name === "openssl") return false;
  return inv.args.some(
    (a) =>
      a === "-e" ||
      a === "-c" ||
      /^-[a-zA-Z]*e$/.test(a) ||
      a.startsWith("--exec") ||
      a.startsWith("--sh-exec") ||
      a.startsWith("--lua-exec"),
  );
}

function socatExec(inv: Invocation): boolean {
  if (inv.name !== "socat") return false;
  const lower = inv.args.map((a) => a.toLowerCase());
  return (
    lower.some((a) => a.startsWith("exec:") || a.startsWith("system:")) &&
    lower.some((a) => /^(tcp|udp|openssl|ssl|sctp)/.test(a))
  );
}

const SOCKET =
  /socket|fsockopen|TCPSocket|TCPServer|Sockets\.connect|net\.connect|net\.Socket|net\.createServer|\/inet\/tcp\/|IO::Socket|stream_socket_client|tcp_connect|connect\(\s?["'(]?[0-9]/i;
const EXEC =
  /(^|[\s[;{"])exec\s|dup2|\/bin\/(ba)?sh|pty\.spawn|subprocess|child_process|proc_open|shell_exec|popen|os\.execute|exec\s?\(|system\s?\(|spawn\s?\(|readline\(sock|cmd\.exe|\bsh\b|\|&\s?getline/i;

export const remoteShellPatterns: readonly RegExp[] = [SOCKET, EXEC];

function codeShells(analysis: Analysis): Hit[] {
  const hits: Hit[] = [];
  for (const c of analysis.code) {
    if (!SOCKET.test(c.code) || !EXEC.test(c.code)) continue;
    const bind =
      /\.bind\(|listen\(|TCPServer|createServer|Sockets\.listen|tcp-listen/i.test(c.code) &&
      !/connect/i.test(c.code);
    hits.push(
      hitOn(
        c,
        bind ? "bind-shell-code" : "reverse-shell-code",
        Severity.CRITICAL,
        0.9,
        `${c.interpreter} one-liner connecting a shell to a socket`,
      ),
    );
  }
  return hits;
}

/**
 * Tunnels that put the host in reach of anyone holding the link: `code tunnel` (a VS Code
 * server with a terminal), `ngrok tcp`, `tailscale funnel`. Remote control with no inbound
 * firewall rule needed.
 */
const TUNNEL_QUERIES: ReadonlySet<string> = new Set([
  "status",
  "kill",
  "help",
  "user",
  "prune",
  "unregister",
  "rename",
]);

function tunnels(inv: Invocation): Hit | undefined {
  if (inv.name !== "code" && inv.name !== "ngrok" && inv.name !== "tailscale") return undefined;
  const ops = operands(inv.args);
  const reason =
    inv.name === "code" && ops[0] === "tunnel" && !TUNNEL_QUERIES.has(ops[1] ?? "")
      ? "opens a VS Code tunnel: remote control of this host"
      : inv.name === "ngrok" && ops[0] === "tcp"
        ? "exposes a local TCP port to the internet"
        : inv.name === "tailscale" && ops[0] === "funnel"
          ? "exposes a local service to the internet"
          : undefined;
  return reason === undefined ? undefined : hitOn(inv, "tunnel", Severity.MEDIUM, 0.7, reason);
}

/** The last named pipe the text makes (`mkfifo /tmp/f`), for the loop through a network client. */
function lastFifo(analysis: Analysis): Invocation | undefined {
  let fifo: Invocation | undefined;
  for (const inv of analysis.invocations)
    if (inv.name === "mkfifo" || (inv.name === "mknod" && inv.args.includes("p"))) fifo = inv;
  return fifo;
}

function shellPipes(analysis: Analysis, hits: Hit[]): void {
  // `null` until looked for, which waits for a pipeline with a network client: both verdicts need
  // one, and most texts have none.
  let fifo: Invocation | undefined | null = null;
  for (const p of analysis.pipelines) {
    const net = p.invocations.find(isNetClient);
    if (!net) continue;
    if (fifo === null) fifo = lastFifo(analysis);
    const shell = p.invocations.find((m) => isShell(m.name));
    if (shell)
      hits.push(
        hitOn(
          p,
          "shell-pipe-network",
          Severity.CRITICAL,
          0.9,
          "shell wired to a network client through a pipe",
        ),
      );
    else if (fifo && p.start >= fifo.start) {
      hits.push(
        hitOn(
          { start: fifo.start, end: p.end },
          "fifo-network",
          Severity.CRITICAL,
          0.85,
          "named pipe looped through a network client",
        ),
      );
    }
  }
}

const NETCAT_EXECUTORS = [...NET_CLIENTS].filter((n) => n !== "socat" && n !== "openssl");

export const remoteShells = ruleModule({
  name: "remote-shell",
  commands: [
    {
      // `/dev/tcp/` is read in arguments and redirection targets only.
      programs: [],
      traits: [Trait.device],
      check(inv, hits) {
        if (usesDevTcp(inv))
          hits.push(hitOn(inv, "dev-tcp", Severity.CRITICAL, 0.9, "shell connection over /dev/tcp"));
      },
    },
    {
      programs: NETCAT_EXECUTORS,
      check(inv, hits) {
        if (netcatExec(inv))
          hits.push(
            hitOn(
              inv,
              "netcat-exec",
              Severity.CRITICAL,
              0.95,
              `${inv.name} executing a program for a network peer`,
            ),
          );
      },
    },
    {
      programs: ["socat"],
      check(inv, hits) {
        if (socatExec(inv))
          hits.push(
            hitOn(inv, "socat-exec", Severity.CRITICAL, 0.95, "socat executing a program for a network peer"),
          );
      },
    },
    { programs: ["code", "ngrok", "tailscale"], check: (inv, hits) => pushHit(hits, tunnels(inv)) },
  ],
  after(analysis, hits) {
    shellPipes(analysis, hits);
    append(hits, codeShells(analysis));
  },
  // A shell is wired to the network through a network client; code is read whenever there is some.
  hooksNeed: [...NET_CLIENTS],
});
