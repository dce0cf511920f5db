import type { Command } from "./command.js";
import { coverageCommand } from "./commands/coverage.js";
import { eventsCommand } from "./commands/events.js";
import { keysCommand } from "./commands/keys.js";
import { migrateCommand } from "./commands/migrate.js";
import { orgsCommand } from "./commands/orgs.js";
import { serveCommand } from "./commands/serve.js";
import { sessionCommand, sessionsCommand } from "./commands/sessions.js";
import { whitelistCommand } from "./commands/whitelist.js";
import { workspacesCommand } from "./commands/workspaces.js";
import { CliError, UsageError } from "./errors.js";
import { commandHelp, helpText } from "./help.js";
import type { CliIo } from "./io.js";

export const COMMANDS: readonly Command[] = [
  serveCommand,
  migrateCommand,
  keysCommand,
  orgsCommand,
  workspacesCommand,
  whitelistCommand,
  eventsCommand,
  sessionsCommand,
  sessionCommand,
  coverageCommand,
];

/** True when `-h`/`--help` appears before any `--`. */
function asksHelp(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

/**
 * Dispatches one command line and maps the outcome onto exit codes: 0 done, 2 usage error (with the
 * command's usage), 1 failure (one line on stderr). `undefined` means the command keeps running.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number | undefined> {
  const [name, ...rest] = argv;
  if (name === "help" || name === "--help" || name === "-h") {
    io.out(helpText(COMMANDS));
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(name === undefined ? helpText(COMMANDS) : `guard: unknown command ${name} (see guard help)\n`);
    return 2;
  }
  if (asksHelp(rest)) {
    io.out(commandHelp(command));
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`guard ${command.name}: ${error.message}\n${commandHelp(command)}`);
      return 2;
    }
    const message = (error as Error).message ?? String(error);
    // One line: a multi-line driver message would scatter across a log collector.
    io.err(`guard ${command.name}: ${error instanceof CliError ? message : message.split("\n")[0]}\n`);
    return 1;
  }
}
