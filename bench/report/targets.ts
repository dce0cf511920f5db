import type { BenchResults } from "./results.js";

/** One target of issue 9 (or 6) checked against this run's figures. */
export interface TargetCheck {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean;
}

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

/**
 * The targets, judged strictly: the latency target on the 64 KB bucket it names; throughput on
 * the 64 KB bucket too (the same step size), over every core; the floor ratio on every bucket.
 */
export function checkTargets(r: BenchResults): TargetCheck[] {
  const p99 = r.latency.find((row) => row.bucket === "64 KB")?.latency.p99 ?? Number.NaN;
  const cores = r.multicore.find((m) => m.label === "64 KB");
  const ratios = r.latency.map((row) => {
    const floor = r.floor[row.bucket]?.mean ?? Number.NaN;
    return { bucket: row.bucket, ratio: row.latency.mean / floor };
  });
  const worst = ratios.reduce((a, b) => (b.ratio > a.ratio ? b : a), { bucket: "", ratio: 0 });
  return [
    {
      target: "p99 <= 2 ms service-side for a 64 KB step",
      measured: `p99 ${fmt(p99)} ms (service-side, over a loopback socket)`,
      met: p99 <= 2,
    },
    {
      target: ">= 3,000 evaluations/s on the machine's two cores (64 KB steps)",
      measured: cores
        ? `${fmt(cores.perSecond, 0)}/s with ${cores.processes} service processes in process (one process: ${fmt(r.throughput.find((t) => t.label === "64 KB")?.perSecond ?? Number.NaN, 0)}/s)`
        : "not measured",
      met: (cores?.perSecond ?? 0) >= 3000,
    },
    {
      target: "total cost within 3x of the JSON floor (every bucket)",
      measured: ratios.map((x) => `${x.bucket}: ${fmt(x.ratio, 1)}x`).join(", "),
      met: worst.ratio <= 3,
    },
    {
      target: "issue 6: detection of step 200 <= 1.5x step 10",
      measured: `${fmt(r.incremental.ratio, 1)}x (${fmt(r.incremental.detectLate)} ms vs ${fmt(r.incremental.detectEarly)} ms)`,
      met: r.incremental.ratio <= 1.5,
    },
  ];
}
