import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCommand } from "./child.js";

/** What one wrk run measured; wrk is closed-loop, so the load is set by `connections`. */
export interface WrkResult {
  readonly connections: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly non2xx: number;
}

/** The Lua script cycles the bodies file, each request a new step (as bench/service/new-step.ts). */
const SCRIPT = `
local bodies = {}
local n = 0
local auth = ""
init = function(args)
  auth = args[2]
  for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
end
request = function()
  n = n + 1
  local body = string.gsub(bodies[(n % #bodies) + 1], '"step_id":"', '"step_id":"w' .. n .. '-', 1)
  return wrk.format("POST", nil, {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. auth}, body)
end
`;

function toMs(value: string, unit: string): number {
  const n = Number(value);
  if (unit === "us") return n / 1000;
  if (unit === "s") return n * 1000;
  if (unit === "m") return n * 60_000;
  return n;
}

export function parseWrk(output: string, connections: number): WrkResult {
  const pct = (p: number) => {
    const m = output.match(new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m"));
    return m ? toMs(m[1] ?? "", m[2] ?? "ms") : Number.NaN;
  };
  const rps = output.match(/Requests\/sec:\s+([\d.]+)/);
  const non2xx = output.match(/Non-2xx or 3xx responses:\s+(\d+)/);
  return {
    connections,
    perSecond: rps ? Number(rps[1]) : Number.NaN,
    p50: pct(50),
    p90: pct(90),
    p99: pct(99),
    non2xx: non2xx ? Number(non2xx[1]) : 0,
  };
}

/** One wrk thread (the other core stays with the service), `connections` keep-alive connections. */
export async function runWrk(
  url: string,
  key: string,
  bodiesFile: string,
  connections: number,
  seconds: number,
  scratchDir: string,
): Promise<WrkResult> {
  const script = join(scratchDir, "evaluate.lua");
  writeFileSync(script, SCRIPT);
  const args = ["-t1", `-c${connections}`, `-d${seconds}s`, "--timeout", "5s", "--latency", "-s", script, url, "--", bodiesFile, key];
  const run = await runCommand("wrk", args, seconds * 1000 + 15_000);
  if (run.code !== 0) throw new Error(`wrk exited ${run.code}: ${run.err.slice(-400)}`);
  return parseWrk(run.out, connections);
}
