import { readEnvironment } from "../../env.js";
import { parseServiceList, serveServices } from "../../rpc/serve-services.js";
import { parseArgs, expectPositionals } from "../args.js";
import type { Command } from "../command.js";
import { UsageError } from "../errors.js";

/**
 * `guard serve`: the service itself, exactly as `npm start` runs it (it owns the process from
 * here). With `--services` only the named internal services, over HTTP/2 on GUARD_RPC_PORT.
 */
export const serveCommand: Command = {
  name: "serve",
  usage: [
    { synopsis: "serve", summary: "run the service (configured by the environment below, as for npm start)" },
    {
      synopsis: "serve --services decompose,session,detectors",
      summary:
        "serve only those internal services over HTTP/2 (gRPC, Connect) on HOST:GUARD_RPC_PORT, without the JSON bridge; other instances reach them through `services:` (decompose, session) or `detectors:` in their configuration",
    },
  ],
  async run(argv, io) {
    const args = parseArgs(argv, { strings: ["services"] });
    expectPositionals(args, []);
    const list = args.string("services");
    if (list === undefined) {
      await import("../../main.js");
      return undefined;
    }
    let services: ReturnType<typeof parseServiceList>;
    try {
      services = parseServiceList(list);
    } catch (error) {
      throw new UsageError(`--services: ${(error as Error).message}`);
    }
    const env = readEnvironment(io.env);
    if (env.rpcPort === undefined) throw new UsageError("--services needs GUARD_RPC_PORT (0 picks a free port)");
    const served = await serveServices({
      services,
      host: env.host,
      port: env.rpcPort,
      ...(env.redisUrl ? { redisUrl: env.redisUrl } : {}),
    });
    io.out(`guard serving ${services.join(", ")} over HTTP/2 on http://${env.host}:${served.port}\n`);
    let stopping = false;
    const stop = async () => {
      if (stopping) return;
      stopping = true;
      await served.close();
      process.exit(0);
    };
    process.once("SIGINT", () => void stop());
    process.once("SIGTERM", () => void stop());
    return undefined;
  },
};
