import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type App, createApp } from "../../src/app.js";
import { SecretBox } from "../../src/crypto/secret-box.js";
import { BENCH_KEY, benchConfig } from "./config.js";

/** A fixed master secret: the benchmark seals nothing anyone needs to keep. */
export const BENCH_BOX = new SecretBox(Buffer.alloc(32, 7));

export interface BenchApp {
  readonly app: App;
  readonly dataDir: string;
  /** Closes the service (flushing its journals) and removes its data folder. */
  stop(): Promise<void>;
}

/** The real service, as `npm start` builds it, with the embedded store in a temporary folder. */
export async function startBenchApp(): Promise<BenchApp> {
  const dataDir = mkdtempSync(join(tmpdir(), "guard-bench-"));
  const app = await createApp({ config: benchConfig(), dataDir, box: BENCH_BOX, whitelistRefreshMs: 60_000 });
  return {
    app,
    dataDir,
    async stop() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function tempDataDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "guard-bench-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** One POST /v1/evaluate through Fastify's injector (no socket); answers the status code. */
export async function injectEvaluate(app: App, body: string | Buffer): Promise<number> {
  const response = await app.bridge.inject({
    method: "POST",
    url: "/v1/evaluate",
    headers: { authorization: `Bearer ${BENCH_KEY}`, "content-type": "application/json" },
    payload: body,
  });
  return response.statusCode;
}
