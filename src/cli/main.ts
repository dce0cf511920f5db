#!/usr/bin/env node
import { hashKey, mintKey } from "../auth/keys.js";

/**
 * The operator's `guard` command. `serve` runs the service (as `npm start` does);
 * `keys create` mints a key and prints the configuration entry holding only its hash.
 */
const USAGE = `usage: guard <command>
  serve                         run the service (environment as for npm start)
  keys create [--env live] [--id ID]
                                mint an API key; prints it once with its configuration entry
  keys hash <key>               print the sha256 that a configuration file stores for a key`;

function option(args: readonly string[], name: string, fallback: string): string {
  const index = args.indexOf(name);
  return index >= 0 && args[index + 1] ? (args[index + 1] as string) : fallback;
}

async function run(args: readonly string[]): Promise<number> {
  const [command, sub, ...rest] = args;
  if (command === "serve") {
    await import("../main.js");
    return -1;
  }
  if (command === "keys" && sub === "create") {
    const key = mintKey(option(rest, "--env", "live"));
    const id = option(rest, "--id", `k-${Date.now().toString(36)}`);
    process.stdout.write(
      `key (shown once, store it in your secret manager):\n  ${key}\n\nconfiguration entry (under orgs[].keys):\n  - id: ${id}\n    sha256: ${hashKey(key)}\n`,
    );
    return 0;
  }
  if (command === "keys" && sub === "hash" && rest[0]) {
    process.stdout.write(`${hashKey(rest[0])}\n`);
    return 0;
  }
  process.stderr.write(`${USAGE}\n`);
  return command === undefined || command === "help" || command === "--help" ? 0 : 2;
}

run(process.argv.slice(2)).then((code) => {
  if (code >= 0) process.exit(code);
});
