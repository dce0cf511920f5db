import { migrate } from "../../store/postgres/migrate.js";
import { expectPositionals, parseArgs } from "../args.js";
import type { Command } from "../command.js";
import { environment } from "../context.js";
import { CliError } from "../errors.js";
import { printJson } from "../output.js";

/** `guard migrate`: brings GUARD_DATABASE_URL's schema to the newest migration, once, under a lock. */
export const migrateCommand: Command = {
  name: "migrate",
  usage: [{ synopsis: "migrate", summary: "apply pending PostgreSQL migrations to GUARD_DATABASE_URL (the service also does at start)" }],
  async run(argv, io) {
    const args = parseArgs(argv);
    expectPositionals(args, []);
    const env = environment(io);
    if (!env.databaseUrl) throw new CliError("GUARD_DATABASE_URL is not set: the embedded default needs no migrations");
    let result: Awaited<ReturnType<typeof migrate>>;
    try {
      result = await migrate(env.databaseUrl);
    } catch (error) {
      throw new CliError(`migrate failed: ${(error as Error).message}`);
    }
    if (args.flag("json")) printJson(io, result);
    else if (result.applied.length === 0) io.out(`schema already current (version ${result.current})\n`);
    else io.out(`applied ${result.applied.join(", ")}; schema at version ${result.current}\n`);
    return 0;
  },
};
