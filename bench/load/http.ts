import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startBenchApp } from "../service/bench-app.js";
import { BENCH_KEY } from "../service/config.js";
import type { Summary } from "../service/stats.js";
import { runScript } from "./child.js";
import { runWrk, type WrkResult } from "./wrk.js";

const GENERATOR = fileURLToPath(new URL("./generator.ts", import.meta.url));

export interface RatePoint {
  readonly rate: number;
  readonly achieved: number;
  readonly sent: number;
  readonly failed: number;
  readonly shed: number;
  readonly latency: Summary;
}

export interface HttpResult {
  readonly bodyClass: string;
  readonly meanBytes: number;
  readonly sweep: readonly RatePoint[];
  /** Highest achieved rate of the sweep whose p99 stayed under 10 ms. */
  readonly sweepAtP99Under10: number;
  readonly wrk: readonly (WrkResult & { readonly bodyClass: string })[] | "absent";
  readonly wrkAtP99Under10: Readonly<Record<string, number>>;
}

export function hasWrk(): boolean {
  try {
    execFileSync("wrk", ["--version"], { stdio: "ignore" });
    return true;
  } catch (error) {
    // wrk prints its version and exits 1; only a missing binary is ENOENT.
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

/** Each generator's own warm-up at its rate, not counted (see generator.ts). */
const GENERATOR_WARMUP_MS = 1000;
/** The service's warm-up before the sweep, not counted: a fresh service compiles its code under the first requests. */
const SERVICE_WARMUP = { rate: 400, durationMs: 3000 };

async function sweepRate(
  url: string,
  bodiesFile: string,
  rate: number,
  durationMs: number,
): Promise<RatePoint> {
  const warmupMs = GENERATOR_WARMUP_MS;
  const plan = {
    url,
    key: BENCH_KEY,
    bodiesFile,
    rate,
    durationMs,
    warmupMs,
    connections: 64,
    maxInFlight: 2000,
  };
  const run = await runScript(GENERATOR, [JSON.stringify(plan)], warmupMs + durationMs + 40_000);
  const line = run.out.trim().split("\n").pop() ?? "";
  if (run.code !== 0 || !line) throw new Error(`load generator exited ${run.code}: ${run.err.slice(-400)}`);
  const r = JSON.parse(line) as RatePoint & { completed: number; seconds: number };
  return { rate, achieved: r.achieved, sent: r.sent, failed: r.failed, shed: r.shed, latency: r.latency };
}

/**
 * Load over HTTP from other processes against the real service listening on 127.0.0.1 (port
 * chosen by the system, temporary data folder). The fixed-rate sweep (Node generator, open
 * loop) first warms the service up (its result discarded), then climbs `rates` and stops at the
 * first rate the service cannot hold (p99 over 50 ms or under 90% achieved); wrk, when
 * installed, then measures closed-loop throughput at a few connection counts for each body class.
 */
export async function measureHttp(options: {
  readonly sweepBodies: {
    readonly label: string;
    readonly bodies: readonly string[];
    readonly meanBytes: number;
  };
  readonly wrkBodies: readonly { readonly label: string; readonly bodies: readonly string[] }[];
  readonly rates: readonly number[];
  readonly rateMs: number;
  readonly wrkConnections: readonly number[];
  readonly wrkSeconds: number;
  readonly scratchDir: string;
}): Promise<HttpResult> {
  const bench = await startBenchApp();
  try {
    const address = await bench.app.bridge.listen({ host: "127.0.0.1", port: 0 });
    const url = `${address}/v1/evaluate`;
    const write = (label: string, bodies: readonly string[]) => {
      const file = join(options.scratchDir, `http-${label.replace(/\W+/g, "_")}.jsonl`);
      writeFileSync(file, `${bodies.join("\n")}\n`);
      return file;
    };
    const sweepFile = write(options.sweepBodies.label, options.sweepBodies.bodies);
    await sweepRate(url, sweepFile, SERVICE_WARMUP.rate, SERVICE_WARMUP.durationMs);
    const sweep: RatePoint[] = [];
    for (const rate of options.rates) {
      const point = await sweepRate(url, sweepFile, rate, options.rateMs);
      sweep.push(point);
      if (point.latency.p99 > 50 || point.achieved < rate * 0.9 || point.failed > 0) break;
    }
    const held = sweep.filter((p) => p.latency.p99 < 10 && p.failed === 0 && p.achieved >= p.rate * 0.9);
    const sweepAtP99Under10 = Math.max(0, ...held.map((p) => p.achieved));

    let wrk: HttpResult["wrk"] = "absent";
    const wrkAtP99Under10: Record<string, number> = {};
    if (hasWrk()) {
      const runs: (WrkResult & { bodyClass: string })[] = [];
      for (const set of options.wrkBodies) {
        const file = write(set.label, set.bodies);
        for (const c of options.wrkConnections) {
          runs.push({
            ...(await runWrk(url, BENCH_KEY, file, c, options.wrkSeconds, options.scratchDir)),
            bodyClass: set.label,
          });
        }
        const ok = runs.filter((r) => r.bodyClass === set.label && r.p99 < 10 && r.non2xx === 0);
        wrkAtP99Under10[set.label] = Math.max(0, ...ok.map((r) => r.perSecond));
      }
      wrk = runs;
    }
    return {
      bodyClass: options.sweepBodies.label,
      meanBytes: options.sweepBodies.meanBytes,
      sweep,
      sweepAtP99Under10,
      wrk,
      wrkAtP99Under10,
    };
  } finally {
    await bench.stop();
  }
}
