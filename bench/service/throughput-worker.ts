import { readFileSync } from "node:fs";
import { startBenchApp } from "./bench-app.js";
import { measureThroughput } from "./throughput.js";

/**
 * Child-process entry of the all-cores throughput: one full service per process (its own heap,
 * store and event loop, as N replicas behind a balancer would run), fed in process from a
 * bodies file. argv: bodies file (JSON array of strings), label, milliseconds, worker index.
 * Prints one JSON line with the result.
 */
/**
 * Untimed evaluations before the measured window. A child starts cold: with 500 ms its first
 * timed seconds still paid for compilation and first sightings, and two children summed to less
 * than the warm in-process service alone.
 */
const WARM_UP_MS = 3_000;

async function main(): Promise<void> {
  const [file, label, msText, indexText] = process.argv.slice(2);
  if (!file || !label || !msText || !indexText) throw new Error("usage: throughput-worker BODIES LABEL MS INDEX");
  const bodies = JSON.parse(readFileSync(file, "utf8")) as string[];
  const bench = await startBenchApp();
  try {
    // Ids unique per worker, and a short untimed warm-up.
    const seq = { next: Number(indexText) * 10_000_000 };
    await measureThroughput(bench.app, label, bodies, WARM_UP_MS, seq);
    const result = await measureThroughput(bench.app, label, bodies, Number(msText), seq);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await bench.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`throughput worker: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
