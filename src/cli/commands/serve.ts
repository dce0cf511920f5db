import { expectPositionals, parseArgs } from "../args.js";
import type { Command } from "../command.js";

/** `guard serve`: the service itself, exactly as `npm start` runs it (it owns the process from here). */
export const serveCommand: Command = {
  name: "serve",
  usage: [{ synopsis: "serve", summary: "run the service (configured by the environment below, as for npm start)" }],
  async run(argv) {
    expectPositionals(parseArgs(argv), []);
    await import("../../main.js");
    return undefined;
  },
};
