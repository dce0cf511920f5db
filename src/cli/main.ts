#!/usr/bin/env node
import { processIo } from "./io.js";
import { runCli } from "./run.js";

/**
 * The operator's `guard` command (bin in package.json). Dispatch and exit codes live in run.ts,
 * each command group in commands/; this file only binds them to the real process.
 */
runCli(process.argv.slice(2), processIo()).then(
  (code) => {
    if (code !== undefined) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(`guard: ${(error as Error).message}\n`);
    process.exit(1);
  },
);
