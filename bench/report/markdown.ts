import { RATES } from "../corpus/sprinkles.js";
import { ms } from "../service/stats.js";
import { STAGES } from "../service/timed-pipeline.js";
import type { BenchResults } from "./results.js";
import { checkTargets } from "./targets.js";

/** Everything after this line in BENCHMARKS.md is written by hand and kept across runs. */
export const NOTES_MARKER = "<!-- Everything below this line is kept by bench/run.ts when it rewrites the figures above. -->";

const kb = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MB` : `${(bytes / 1024).toFixed(1)} KB`);
const n0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "n/a");

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  return [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
}

function targets(r: BenchResults): string {
  return table(
    ["Target", "Measured", "Status"],
    checkTargets(r).map((t) => [t.target, t.measured, t.met ? "**met**" : "**not met**"]),
  );
}

function latency(r: BenchResults): string {
  return table(
    [
      "Bucket",
      "Mean body",
      "Samples",
      "p50 ms",
      "p90 ms",
      "p99 ms",
      "max ms",
      "Round trip p50 / p99 ms",
      "Injector p50 / p99 ms",
      "Floor p50 ms",
      "Mean / floor mean",
    ],
    r.latency.map((row) => {
      const floor = r.floor[row.bucket];
      return [
        row.bucket,
        kb(row.meanBytes),
        String(row.latency.n),
        ms(row.latency.p50),
        ms(row.latency.p90),
        ms(row.latency.p99),
        ms(row.latency.max),
        `${ms(row.roundTrip.p50)} / ${ms(row.roundTrip.p99)}`,
        `${ms(row.injector.p50)} / ${ms(row.injector.p99)}`,
        floor ? ms(floor.p50) : "n/a",
        floor ? `${(row.latency.mean / floor.mean).toFixed(1)}x` : "n/a",
      ];
    }),
  );
}

function split(rows: BenchResults["split"]): string {
  const stages = table(
    ["Bucket", "Total mean ms", ...STAGES],
    rows.map((row) => [
      row.bucket,
      ms(row.total.mean),
      ...STAGES.map((s) => `${ms(row.stages[s])} (${((100 * row.stages[s]) / row.total.mean).toFixed(0)}%)`),
    ]),
  );
  const names = [...new Set(rows.flatMap((row) => Object.keys(row.detectors)))];
  const detectors = table(
    ["Bucket", ...names],
    rows.map((row) => [row.bucket, ...names.map((n) => ms(row.detectors[n] ?? 0))]),
  );
  if (names.length === 0) return `${stages}\n\nNo detector was called: every text was recalled from the memo.`;
  return `${stages}\n\nDetection by detector (mean ms of its own DetectorService call):\n\n${detectors}`;
}

function throughput(r: BenchResults): string {
  const one = table(
    ["Body class", "Mean body", "Evaluations", "Seconds", "Evaluations/s (one core)"],
    r.throughput.map((t) => [t.label, kb(t.meanBytes), String(t.evaluations), t.seconds.toFixed(1), n0(t.perSecond)]),
  );
  const all = table(
    ["Body class", "Processes", "Evaluations/s (sum)", "Per process"],
    r.multicore.map((m) => [m.label, String(m.processes), n0(m.perSecond), m.perProcess.map(n0).join(", ")]),
  );
  return `One core (one service, in process):\n\n${one}\n\nAll cores (one full service per core, in process, run side by side):\n\n${all}`;
}

function http(r: BenchResults): string {
  const h = r.http;
  const sweep = table(
    ["Rate /s", "Achieved /s", "Sent", "Failed", "Shed", "p50 ms", "p90 ms", "p99 ms", "max ms"],
    h.sweep.map((p) => [
      String(p.rate),
      n0(p.achieved),
      String(p.sent),
      String(p.failed),
      String(p.shed),
      ms(p.latency.p50),
      ms(p.latency.p90),
      ms(p.latency.p99),
      ms(p.latency.max),
    ]),
  );
  const wrk =
    h.wrk === "absent"
      ? "wrk is not installed: only the Node generator ran."
      : table(
          ["Body class", "Connections", "Requests/s", "p50 ms", "p90 ms", "p99 ms", "Non-2xx"],
          h.wrk.map((w) => [w.bodyClass, String(w.connections), n0(w.perSecond), ms(w.p50), ms(w.p90), ms(w.p99), String(w.non2xx)]),
        );
  const under = Object.entries(h.wrkAtP99Under10)
    .map(([label, v]) => `${label}: ${n0(v)}/s`)
    .join(", ");
  return [
    `Fixed-rate sweep, ${h.bodyClass} bodies (mean ${kb(h.meanBytes)}), Node generator (bench/load/generator.ts, open loop, 64 keep-alive connections; the service warmed up at 400/s for 3 s and each rate preceded by 1 s at that rate, neither counted):`,
    "",
    sweep,
    "",
    `Throughput at p99 < 10 ms (sweep): **${n0(h.sweepAtP99Under10)}/s**.`,
    "",
    "Closed loop, wrk (one thread, keep-alive):",
    "",
    wrk,
    "",
    h.wrk === "absent" ? "" : `Throughput at p99 < 10 ms (wrk): **${under || "none"}**.`,
  ].join("\n");
}

function memory(r: BenchResults): string {
  const m = r.memory;
  return `${m.sessions} short sessions (${m.events} events, ${m.failures} failures) grew the retained heap by ${kb(m.heapDelta)}: **${kb(m.perSessionBytes * 1000)} per 1k sessions** (${n0(m.perSessionBytes)} bytes per session). Collections were ${m.gcExposed ? "forced with --expose-gc" : "forced through a run-time --expose-gc"}.`;
}

function incremental(r: BenchResults): string {
  const i = r.incremental;
  return table(
    ["", "Step 10", "Step 200", "Ratio"],
    [
      ["Request body", kb(i.bytesEarly), kb(i.bytesLate), `${(i.bytesLate / i.bytesEarly).toFixed(1)}x`],
      [`Detection ms (median of steps 8-12 / 196-200 of ${i.sessions} sessions)`, ms(i.detectEarly), ms(i.detectLate), `**${i.ratio.toFixed(1)}x**`],
      ["Whole evaluation ms", ms(i.totalEarly), ms(i.totalLate), `${(i.totalLate / i.totalEarly).toFixed(1)}x`],
    ],
  );
}

function corpus(r: BenchResults): string {
  const c = r.corpus;
  const rows = c.buckets.map((b) => [
    b.bucket,
    String(b.bodies),
    kb(b.meanBytes),
    Object.entries(b.protocols)
      .map(([p, k]) => `${p} ${k}`)
      .join(", "),
  ]);
  return [
    `Seed ${c.seed}, ${c.sessions} sessions, rendered in memory in ${c.seconds.toFixed(1)} s (${n0(c.sampledEvents)} events, ${c.sampledMB.toFixed(0)} MB walked to fill the buckets).`,
    `Planted rates: secret in ${RATES.secretPerToolResult * 100}% of tool results, personal data in ${RATES.piiPerToolResult * 100}%, prompt injection in ${RATES.injectionPerToolResult * 100}%; dangerous command in ${RATES.dangerousPerShellCall * 100}% of shell calls; personal data in ${RATES.piiPerFinalAnswer * 100}% of final answers.`,
    "",
    table(["Bucket", "Bodies", "Mean size", "By protocol"], rows),
  ].join("\n");
}

const METHOD = `## Method

- **Corpus** (\`bench/corpus/\`): seeded sessions in vendor_a.chat, vendor_b.messages and canonical;
  system prompt, five declared tools, 1 to 200 steps, tool results of 1 to 50 KB (code, logs, HTML,
  JSON, log-uniform sizes); each step is a \`step/request\` re-sending the whole conversation and a
  \`step/response\`. Agents clear the oldest tool output beyond 900 KB of context, as real agents do,
  so bodies stay under the 1.5 MB top of the largest bucket. \`tsx bench/corpus/generate.ts\` writes
  the same corpus to \`bench/.data/corpus/\`.
- **Latency** is service-side, over a socket: \`createApp\` listening on 127.0.0.1, one request at a
  time on a kept-alive connection from a client in the same process, timed by the service from
  Fastify's request start (headers in) to the response written (\`reply.elapsedTime\` in an
  \`onResponse\` hook): routing, auth, rate limit, body read, parse, schema validation, pipeline,
  serialisation. Round trip: the same requests as the client timed them. Injector: a second copy
  of each step sent through \`app.bridge.inject\` (no socket; the figure of earlier runs), alternating
  with the socket. Each sample is a new step of its session. Nearest-rank percentiles. The bodies of
  a bucket are cycled, so the detection memo is warm: the figures are those of re-sent history,
  which is most of every real step; the memo-off split below prices the new part.
- **Cost split**: the same pipeline wired as \`src/app.ts\` wires it (bench/service/timed-pipeline.ts),
  each dependency wrapped to note when it is entered and when it settles; the instants cut one
  evaluate into contiguous stages that add up to it: place (placement), decompose, session (attach +
  conclude), detect (all detectors), compose (policy, fingerprints, placeholders), record (payload
  hash, record, store queueing). Parse, validate and serialise are the bridge's own functions, timed
  around their calls. Means, so stages add up to the total.
- **Floor**: \`JSON.parse\` + \`JSON.stringify\` of the same body texts; the ratio is mean service latency over
  mean floor for the bucket.
- **Incremental judging** (issue 6): three 200-step vendor_a.chat sessions (own seeds and agents) with
  0.5 to 2 KB tool results (no context clearing, so the conversation really grows), each fed in order;
  detection stage of steps 196-200 against 8-12 (medians over the three sessions' steps).
- **Throughput**: back-to-back evaluations for a fixed time; all cores = one full service per core in
  child processes (Guard itself is one process and has no cluster mode).
- **HTTP**: the real service on 127.0.0.1 (port 0, temporary data folder); load from child processes
  only: an open-loop fixed-rate sweep (latency counted from when each request was due) and wrk
  when installed. Both share the machine's cores with the service.
- **Memory**: retained heap growth (after full collections) of a fresh service fed 1k two-step sessions.
- Every loop is bounded in count and time; no timed assertion exists in any test.`;

export function renderMarkdown(r: BenchResults, notes: string): string {
  return `# Benchmarks

Figures of issue 9, written by \`${r.command}\` on ${r.date} (run took ${r.seconds.toFixed(0)} s).
Code: ${r.machine.revision}. Machine: ${r.machine.nproc} cores (\`nproc\`), ${r.machine.cpu}, Node ${r.machine.node}. The machine was shared
with other work during the run, which inflates tails; load before: \`${r.machine.uptimeBefore}\`;
after: \`${r.machine.uptimeAfter}\`.

## Targets

${targets(r)}

## Service-side latency by body size

${latency(r)}

## Cost split per stage (mean ms, share of the total)

Detection memo on, as shipped. The sampled bodies are replayed, so after the warm-up every text
has been judged before: this is the cost of a re-sent history, the bulk of a real step.

${split(r.split)}

Detection memo off (\`DetectionMemo(0)\`): the same bodies as if every text were new, the cost of
the new content a step adds (a real step pays the warm cost of its size plus this cost of its new
part, typically one tool result).

${split(r.splitCold)}

## Incremental judging (issue 6): step 200 against step 10

${incremental(r)}

## Throughput

${throughput(r)}

## Load over HTTP

${http(r)}

## Memory

${memory(r)}

## Corpus

${corpus(r)}

${METHOD}

${NOTES_MARKER}
${notes}`;
}
