import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { corpusEvents, DEFAULT_CORPUS } from "./corpus/corpus.js";
import { measureHttp } from "./load/http.js";
import { NOTES_MARKER, renderMarkdown } from "./report/markdown.js";
import type { BenchResults } from "./report/results.js";
import { checkTargets } from "./report/targets.js";
import { BENCH_BOX, startBenchApp, tempDataDir } from "./service/bench-app.js";
import { sampleBuckets } from "./service/buckets.js";
import { measureFloor } from "./service/floor.js";
import { measureIncremental } from "./service/incremental.js";
import { measureLatency } from "./service/latency.js";
import type { Bounds } from "./service/loop.js";
import { measureMemory } from "./service/memory.js";
import { measureMulticore } from "./service/multicore.js";
import { measureSplit } from "./service/split.js";
import { measureThroughput } from "./service/throughput.js";
import { TimedPipeline } from "./service/timed-pipeline.js";

/**
 * `npm run bench`: every figure of issue 9 in one run of about two and a half minutes on two
 * cores, written to BENCHMARKS.md (hand-written notes below its marker are kept) and to
 * bench/.data/results.json. `--quick` shrinks every budget for a smoke run and writes only
 * bench/.data/. Phases run one after another so none disturbs another's timing.
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dataDir = join(repoRoot, "bench", ".data");
const quick = process.argv.includes("--quick");
const scale = quick ? 0.15 : 1;

const log = (message: string) =>
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

function bounds(warmup: number, maxCount: number, maxMs: number): Bounds {
  return { warmup: Math.ceil(warmup * scale), maxCount: Math.ceil(maxCount * scale), maxMs: maxMs * scale };
}

/** Budgets by bucket: enough samples for a p99 where evaluations are cheap, time-capped where not. */
const LATENCY: Record<string, Bounds> = {
  "1 KB": bounds(200, 2000, 3000),
  "8 KB": bounds(100, 1500, 4000),
  "64 KB": bounds(40, 800, 5000),
  "256 KB": bounds(10, 300, 5000),
  "1 MB": bounds(5, 120, 6000),
};
const SPLIT: Record<string, Bounds> = {
  "1 KB": bounds(60, 400, 1200),
  "8 KB": bounds(30, 300, 1500),
  "64 KB": bounds(10, 200, 2000),
  "256 KB": bounds(3, 80, 2500),
  "1 MB": bounds(2, 40, 3000),
};
const pick = (table: Record<string, Bounds>) => (bucket: string) => table[bucket] ?? bounds(5, 100, 2000);

/** The commit measured, marked when the working tree differs from it (figures then describe the tree). */
function revision(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: repoRoot,
      encoding: "utf8",
    }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--", "src"], {
      cwd: repoRoot,
      encoding: "utf8",
    }).trim();
    return dirty ? `${head} + uncommitted changes in src/` : head;
  } catch {
    return "unknown";
  }
}

function uptime(): string {
  try {
    return execFileSync("uptime", { encoding: "utf8" }).trim();
  } catch {
    return "uptime unavailable";
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const uptimeBefore = uptime();
  mkdirSync(dataDir, { recursive: true });
  const scratch = tempDataDir();
  const seq = { next: 1 };
  try {
    log(`corpus: seed ${DEFAULT_CORPUS.seed}, ${DEFAULT_CORPUS.sessions} sessions`);
    const c0 = performance.now();
    let walked = 0;
    let walkedBytes = 0;
    const counted = (function* () {
      for (const e of corpusEvents(DEFAULT_CORPUS)) {
        walked++;
        walkedBytes += e.body.length;
        yield e;
      }
    })();
    const samples = sampleBuckets(counted, 24);
    const corpusSeconds = (performance.now() - c0) / 1000;

    log("memory per 1k sessions");
    const memory = await measureMemory(DEFAULT_CORPUS.seed, quick ? 150 : 1000, 40_000 * scale);

    log("JSON floor");
    const floor = await measureFloor(samples, bounds(20, 400, 1500));

    log("latency by bucket (over a loopback socket, and through the injector)");
    const bench = await startBenchApp();
    let latency: BenchResults["latency"];
    let throughput: BenchResults["throughput"];
    try {
      latency = await measureLatency(bench.app, samples, pick(LATENCY), seq);
      log("throughput on one core");
      const out = [];
      for (const label of ["1 KB", "8 KB", "64 KB"]) {
        const bodies = samples.find((s) => s.bucket.name === label)?.bodies ?? [];
        out.push(await measureThroughput(bench.app, label, bodies, 3000 * scale, seq));
      }
      throughput = out;
    } finally {
      await bench.stop();
    }

    log("cost split by stage, detection memo off (every text new)");
    const coldDir = tempDataDir();
    const cold = await TimedPipeline.open(coldDir.dir, BENCH_BOX, 0);
    let splitCold: BenchResults["splitCold"];
    try {
      splitCold = await measureSplit(cold, samples, pick(SPLIT), seq);
    } finally {
      await cold.close();
      coldDir.remove();
    }

    log("cost split by stage, detection memo on (history seen before)");
    const splitDir = tempDataDir();
    const pipeline = await TimedPipeline.open(splitDir.dir, BENCH_BOX);
    let split: BenchResults["split"];
    let incremental: BenchResults["incremental"];
    try {
      split = await measureSplit(pipeline, samples, pick(SPLIT), seq);
      log("incremental judging: step 200 against step 10");
      incremental = await measureIncremental(pipeline, DEFAULT_CORPUS.seed);
    } finally {
      await pipeline.close();
      splitDir.remove();
    }

    const processes = cpus().length;
    log(`throughput on all cores (${processes} processes)`);
    const multicore = [];
    for (const label of ["8 KB", "64 KB"]) {
      const bodies = samples.find((s) => s.bucket.name === label)?.bodies ?? [];
      multicore.push(await measureMulticore(label, bodies, processes, 2500 * scale, scratch.dir));
    }

    log("load over HTTP");
    const byName = (name: string) => samples.find((s) => s.bucket.name === name);
    const http = await measureHttp({
      sweepBodies: {
        label: "8 KB",
        bodies: byName("8 KB")?.bodies ?? [],
        meanBytes: byName("8 KB")?.meanBytes ?? 0,
      },
      wrkBodies: ["8 KB", "64 KB"].map((label) => ({ label, bodies: byName(label)?.bodies ?? [] })),
      rates: [50, 100, 200, 400, 800, 1600, 3200],
      rateMs: Math.max(1000, 3000 * scale),
      wrkConnections: [1, 4, 16],
      wrkSeconds: quick ? 1 : 3,
      scratchDir: scratch.dir,
    });

    const results: BenchResults = {
      command: "npm run bench (node --expose-gc --no-regexp-tier-up --import tsx bench/run.ts)",
      date: new Date().toISOString(),
      machine: {
        nproc: processes,
        cpu: cpus()[0]?.model ?? "unknown",
        node: process.version,
        revision: revision(),
        uptimeBefore,
        uptimeAfter: uptime(),
      },
      corpus: {
        seed: DEFAULT_CORPUS.seed,
        sessions: DEFAULT_CORPUS.sessions,
        sampledEvents: walked,
        sampledMB: walkedBytes / 1e6,
        seconds: corpusSeconds,
        buckets: samples.map((s) => ({
          bucket: s.bucket.name,
          bodies: s.bodies.length,
          meanBytes: s.meanBytes,
          protocols: { ...s.protocols },
        })),
      },
      memory,
      floor: Object.fromEntries(floor),
      latency,
      split,
      splitCold,
      incremental,
      throughput,
      multicore,
      http,
      seconds: (performance.now() - started) / 1000,
    };
    writeFileSync(join(dataDir, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
    const target = quick ? join(dataDir, "BENCHMARKS.quick.md") : join(repoRoot, "BENCHMARKS.md");
    const previous = existsSync(target) ? readFileSync(target, "utf8") : "";
    const at = previous.indexOf(NOTES_MARKER);
    const notes = at >= 0 ? previous.slice(at + NOTES_MARKER.length).replace(/^\n/, "") : "";
    writeFileSync(target, renderMarkdown(results, notes));
    for (const t of checkTargets(results)) log(`${t.met ? "MET    " : "NOT MET"} ${t.target}: ${t.measured}`);
    log(`wrote ${target} in ${results.seconds.toFixed(0)} s`);
  } finally {
    scratch.remove();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
