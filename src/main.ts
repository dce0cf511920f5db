import { join } from "node:path";
import { createApp } from "./app.js";
import { bootstrapLocalOrg, loadMasterSecret } from "./bootstrap.js";
import { loadConfigFile } from "./config/load.js";
import { coverageFromEnv } from "./coverage/options.js";
import { readEnvironment } from "./env.js";
import { metricsPortFromEnv } from "./metrics/options.js";

/** `npm start`: reads the environment, opens the store, serves until SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const env = readEnvironment();
  const coverage = coverageFromEnv();
  const metricsPort = metricsPortFromEnv();
  const boot = env.configPath ? { config: loadConfigFile(env.configPath) } : bootstrapLocalOrg(env.dataDir);
  const app = await createApp({
    config: boot.config,
    configPath: env.configPath ?? join(env.dataDir, "local-org.json"),
    dataDir: env.dataDir,
    box: loadMasterSecret(env.dataDir, env.masterKey),
    basePath: env.basePath,
    // Keys never reach a log line: no route logs headers, and this holds should one ever do so.
    logger: { level: env.logLevel, redact: { paths: ["req.headers.authorization", "headers.authorization"], censor: "[redacted]" } },
    ...(env.rpcPort !== undefined ? { rpcPort: env.rpcPort } : {}),
    ...(env.databaseUrl ? { databaseUrl: env.databaseUrl } : {}),
    ...(env.redisUrl ? { redisUrl: env.redisUrl } : {}),
    ...(metricsPort !== undefined ? { metricsPort, metricsHost: env.host } : {}),
    ...(coverage.webhookUrl ? { alertWebhookUrl: coverage.webhookUrl } : {}),
    coverageCheckMs: coverage.checkMs,
    ...(env.requestTimeoutMs !== undefined ? { timeouts: { requestTimeoutMs: env.requestTimeoutMs } } : {}),
  });
  const address = await app.bridge.listen({ host: env.host, port: env.port });
  if ("newKey" in boot && boot.newKey) {
    // Printed once, on the first start only; the service keeps only its hash.
    process.stdout.write(
      `\nGuard created organization "local" and its first API key (also saved in ${env.dataDir}/api-key):\n\n  ${boot.newKey}\n\n`,
    );
  }
  app.bridge.log.info({ address, basePath: env.basePath, dataDir: env.dataDir, rpcPort: app.rpcPort, metricsPort: app.metricsPort }, "guard listening");

  // Shutdown (SIGTERM, SIGINT): stop listening, answer every request already taken (one that
  // arrives on a kept-alive connection meanwhile gets a 503 and `connection: close`), then flush
  // every accepted record, and only then exit. A store that cannot flush (the database stays
  // away) keeps the process retrying rather than dropping records; exit code 1 if close fails.
  let stopping: Promise<void> | undefined;
  let exitCode = 0;
  const stop = (reason: string, code: number): Promise<void> => {
    exitCode = Math.max(exitCode, code);
    if (stopping) {
      app.bridge.log.warn({ reason, ...app.store.stats() }, "already stopping: still flushing accepted records");
      return stopping;
    }
    app.bridge.log.info({ reason }, "stopping: finishing requests in flight, flushing records");
    stopping = app.close().then(
      () => {
        app.bridge.log.info({ ...app.store.stats() }, "stopped");
        process.exit(exitCode);
      },
      (error: unknown) => {
        app.bridge.log.error({ err: (error as Error).message, ...app.store.stats() }, "stopped with records unwritten");
        process.exit(1);
      },
    );
    return stopping;
  };
  process.on("SIGINT", () => void stop("SIGINT", 0));
  process.on("SIGTERM", () => void stop("SIGTERM", 0));
  // A fault nothing else caught (a socket error without a listener, a promise nobody awaited)
  // would end the process with every queued record in memory: log it, and drain before exiting.
  const fatal = (error: unknown) => {
    app.bridge.log.fatal({ err: error instanceof Error ? (error.stack ?? error.message) : String(error) }, "unexpected error");
    void stop("fatal", 1);
  };
  process.on("uncaughtException", fatal);
  process.on("unhandledRejection", fatal);
}

main().catch((error: unknown) => {
  process.stderr.write(`guard: ${(error as Error).message}\n`);
  process.exit(1);
});
