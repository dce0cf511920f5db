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

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.bridge.log.info({ signal }, "stopping: finishing requests in flight, flushing records");
    await app.close();
    const stats = app.store.stats();
    app.bridge.log.info({ ...stats }, "stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((error: unknown) => {
  process.stderr.write(`guard: ${(error as Error).message}\n`);
  process.exit(1);
});
