import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runScript } from "../load/child.js";
import type { ThroughputResult } from "./throughput.js";

const WORKER = fileURLToPath(new URL("./throughput-worker.ts", import.meta.url));

export interface MulticoreResult {
  readonly label: string;
  readonly processes: number;
  readonly perSecond: number;
  readonly perProcess: readonly number[];
}

/** Runs one child and answers the result line it prints; a child over its time is killed. */
async function runWorker(args: string[], killAfterMs: number): Promise<ThroughputResult> {
  const { code, out, err } = await runScript(WORKER, args, killAfterMs);
  const line = out.trim().split("\n").pop() ?? "";
  if (code === 0 && line) return JSON.parse(line) as ThroughputResult;
  throw new Error(`throughput worker exited ${code}: ${err.slice(-500)}`);
}

/**
 * Throughput on all cores: `processes` full services in parallel child processes, each fed the
 * same bodies for `ms`, summed. It bounds what a replicated deployment reaches on this machine;
 * Guard itself runs one process (one core for JavaScript) and ships no cluster mode.
 */
export async function measureMulticore(
  label: string,
  bodies: readonly string[],
  processes: number,
  ms: number,
  scratchDir: string,
): Promise<MulticoreResult> {
  const file = join(scratchDir, `bodies-${label.replace(/\W+/g, "_")}.json`);
  writeFileSync(file, JSON.stringify(bodies));
  const results = await Promise.all(
    Array.from({ length: processes }, (_, i) => runWorker([file, label, String(ms), String(i + 1)], ms + 30_000)),
  );
  return {
    label,
    processes,
    perSecond: results.reduce((s, r) => s + r.perSecond, 0),
    perProcess: results.map((r) => r.perSecond),
  };
}
