import type { Command } from "./command.js";

const ENVIRONMENT = `environment:
  GUARD_DATA_DIR          data folder of the embedded default (default .guard): journals, local-org.json
  GUARD_CONFIG            configuration file (YAML) of orgs, workspaces, keys; without it the embedded
                          default's <data>/local-org.json is the configuration
  GUARD_DATABASE_URL      PostgreSQL shared by replicas; the CLI reads and writes the same store
  GUARD_REDIS_URL         Redis for rate limits and hot session state across replicas
  GUARD_METRICS_PORT      serve Prometheus /metrics on this port instead of the bridge's /metrics
  GUARD_ALERT_WEBHOOK_URL coverage alerts are also POSTed here as JSON (5 s timeout, never blocking)
  GUARD_COVERAGE_CHECK_MS how often the service checks heartbeats for coverage loss (default 10000)
  HOST, PORT, GUARD_BASE_PATH, GUARD_RPC_PORT, GUARD_MASTER_KEY, GUARD_LOG_LEVEL: see the README`;

const NOTES = `notes:
  Output is an aligned plain-text table; --json prints JSON for machines (events tail: one record per line).
  Exit codes: 0 ok, 2 usage error, 1 failure (one line on stderr).
  Keys are configuration: a running service re-reads its configuration file within two seconds, so a key
  added or revoked holds from then on without a restart. Whitelist changes go through the store and running services apply them within seconds.
  /metrics (Prometheus text format) needs no key: keep it inside your network, or bind it apart with
  GUARD_METRICS_PORT. A heartbeat source silent beyond 3 x interval_s raises a coverage_lost alert (warn log
  line, guard_coverage_alerts_total, optional webhook): coverage lost, never "no risk".`;

/** Words folded into lines of at most `width` characters, each indented. */
export function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width - indent.length) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l) => indent + l).join("\n");
}

/** `guard help`: every command's synopsis and summary, the environment, exit codes. */
export function helpText(commands: readonly Command[]): string {
  const lines = commands.flatMap((c) => c.usage).flatMap((u) => [`  guard ${u.synopsis}`, wrap(u.summary, 100, "      ")]);
  return `usage: guard <command> [options] [--json]\n\ncommands:\n  guard help\n      this text; guard <command> --help shows one command\n${lines.join("\n")}\n\n${ENVIRONMENT}\n\n${NOTES}\n`;
}

export function commandHelp(command: Command): string {
  return `${command.usage.map((u) => `usage: guard ${u.synopsis}\n${wrap(u.summary, 100, "      ")}`).join("\n")}\n`;
}
