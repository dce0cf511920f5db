/** The command line was wrong (unknown option, missing argument): exit code 2, with usage. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** The command was right but could not be done (no such key, store unreachable): exit code 1. */
export class CliError extends Error {
  override readonly name = "CliError";
}
