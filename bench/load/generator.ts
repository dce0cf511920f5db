import { Agent, request } from "node:http";
import { readFileSync } from "node:fs";
import { asNewStep } from "../service/new-step.js";
import { summarize } from "../service/stats.js";

/**
 * The fallback load generator (used when `wrk` is absent, and for the fixed-rate sweep wrk
 * cannot do): a separate process that sends POST /v1/evaluate at a fixed rate over keep-alive
 * connections. Open loop: request i is due at start + i/rate whether or not earlier ones have
 * answered, and its latency counts from when it was due, so a stalled server shows up as
 * latency instead of silently lowering the rate (no coordinated omission).
 *
 * A warm-up of `warmupMs` at the same rate comes first and is not counted: a fresh generator
 * opens its connections and compiles its own code in its first second, and that lateness would
 * otherwise be billed to the service as latency (a cold generator read p99 231 ms at 50/s).
 *
 * argv[2]: JSON {url, key, bodiesFile, rate, durationMs, warmupMs?, connections, maxInFlight};
 * prints one JSON line: {sent, completed, failed, shed, seconds, achieved, latency}.
 */
interface LoadPlan {
  readonly url: string;
  readonly key: string;
  readonly bodiesFile: string;
  readonly rate: number;
  readonly durationMs: number;
  readonly warmupMs?: number;
  readonly connections: number;
  readonly maxInFlight: number;
}

function post(agent: Agent, url: URL, key: string, body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", () => resolve(0));
      },
    );
    req.on("error", () => resolve(0));
    req.end(body);
  });
}

interface PhaseResult {
  readonly sent: number;
  readonly failed: number;
  readonly shed: number;
  readonly seconds: number;
  readonly latencies: number[];
}

/** Sends at `plan.rate` for `durationMs`, open loop, and waits (at most 10 s) for the answers. */
async function phase(
  plan: LoadPlan,
  agent: Agent,
  url: URL,
  bodies: readonly string[],
  durationMs: number,
  firstStep: number,
): Promise<PhaseResult> {
  const latencies: number[] = [];
  let sent = 0;
  let failed = 0;
  let shed = 0;
  let inFlight = 0;
  const pending: Promise<void>[] = [];
  const start = performance.now();
  const total = Math.floor((plan.rate * durationMs) / 1000);
  while (sent + shed < total) {
    const due = start + ((sent + shed) * 1000) / plan.rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, Math.floor(wait)));
    else if (wait > 0) await new Promise((r) => setImmediate(r));
    if (inFlight >= plan.maxInFlight) {
      // The server fell this far behind: stop piling on, and count what was not sent.
      shed++;
      continue;
    }
    const n = sent++;
    inFlight++;
    const body = asNewStep(bodies[n % bodies.length] ?? "", firstStep + n);
    pending.push(
      post(agent, url, plan.key, body).then((status) => {
        inFlight--;
        if (status === 200) latencies.push(performance.now() - due);
        else failed++;
      }),
    );
  }
  // Bounded drain: whatever has not answered 10 s after the last send counts as failed.
  const drained = await Promise.race([
    Promise.all(pending).then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), 10_000)),
  ]);
  const seconds = (performance.now() - start) / 1000;
  if (!drained) failed += inFlight;
  return { sent, failed, shed, seconds, latencies };
}

async function main(): Promise<void> {
  const plan = JSON.parse(process.argv[2] ?? "{}") as LoadPlan;
  const bodies = readFileSync(plan.bodiesFile, "utf8").split("\n").filter(Boolean);
  const url = new URL(plan.url);
  const agent = new Agent({ keepAlive: true, maxSockets: plan.connections });
  const warmup = plan.warmupMs ?? 0;
  // Warm-up steps are numbered apart from the measured ones, so no step id repeats.
  if (warmup > 0) await phase(plan, agent, url, bodies, warmup, 1_000_000_000);
  const { sent, failed, shed, seconds, latencies } = await phase(
    plan,
    agent,
    url,
    bodies,
    plan.durationMs,
    0,
  );
  process.stdout.write(
    `${JSON.stringify({ sent, completed: latencies.length, failed, shed, seconds, achieved: latencies.length / seconds, latency: summarize(latencies) })}\n`,
  );
  agent.destroy();
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`load generator: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
