import { execSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { builtinDetectors } from "../../src/detectors/registry.js";
import { evaluate, microsPerSample } from "./evaluate.js";
import { guardSystem } from "./guard.js";
import { loadCorpora } from "./load.js";
import { loadPeers, PEER_NAMES } from "./peers/index.js";
import { loadProjectSet, PROJECT_SETS, systemsFor } from "./project-sets.js";
import { type ReportInput, renderReport } from "./report.js";
import { measureDetectors, measurePeers, triggerFreeSet } from "./throughput.js";

/**
 * The evaluation harness: `npm run eval` (i.e. `node --no-regexp-tier-up --import tsx
 * bench/eval/run.ts`, regular expressions compiled as the service compiles them: see README).
 * Loads every corpus in bench/eval/corpora/ from the corpora root, runs Guard's built-in
 * detectors and the peers from npm (bench/eval/peers/) over every sample, scores them (bench/eval/score.ts), measures
 * throughput on trigger-free text (bench/eval/throughput.ts), runs the jailbreak and injection
 * detectors over the prompts and documents the project wrote (bench/eval/project-sets.ts,
 * reported apart) and writes EVAL.md at the repository root (bench/eval/report.ts). Progress
 * goes to stderr.
 *
 * For quick iteration, each part can be narrowed; a narrowed run prints its report to stdout
 * and leaves EVAL.md alone, so EVAL.md always comes from a full run:
 *
 *   npm run eval -- --only aegish,gitleaks     corpora by name (or GUARD_EVAL_ONLY=aegish,gitleaks);
 *                                              `project-prompts`, `project-documents` name the project's own sets
 *   npm run eval -- --peers vard               peers by name, `none` for Guard alone (or GUARD_EVAL_PEERS)
 *   npm run eval -- --no-throughput            skip the trigger-free throughput measurement
 *
 * GUARD_CORPORA sets the corpora root (default ../shared/corpora beside the repository).
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** Seed and size of the generated part of the trigger-free set; fixed so runs compare. */
const TRIGGER_FREE_SEED = 20_240_401;
const TRIGGER_FREE_GENERATED_BYTES = 1_000_000;

interface Options {
  readonly only?: readonly string[];
  readonly peers: readonly string[];
  readonly throughput: boolean;
}

function list(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): Options {
  let only = list(env["GUARD_EVAL_ONLY"]);
  let peers = list(env["GUARD_EVAL_PEERS"]);
  let throughput = true;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg];
    const value = () => inline ?? argv[++i];
    if (flag === "--only") only = list(value());
    else if (flag === "--peers") peers = list(value());
    else if (flag === "--no-throughput") throughput = false;
    else throw new Error(`unknown argument ${arg} (see the comment at the top of bench/eval/run.ts)`);
  }
  const peerNames = peers === undefined ? [...PEER_NAMES] : peers.includes("none") ? [] : peers;
  return { ...(only === undefined ? {} : { only }), peers: peerNames, throughput };
}

function isFullRun(options: Options): boolean {
  return options.only === undefined && options.peers.length === PEER_NAMES.length && options.throughput;
}

/** The command line that produced this run, as written into EVAL.md. */
function commandLine(env: NodeJS.ProcessEnv): string {
  const prefix = env["GUARD_CORPORA"] === undefined ? "" : `GUARD_CORPORA=${env["GUARD_CORPORA"]} `;
  const args = process.argv.slice(2).join(" ");
  const base =
    env["npm_lifecycle_event"] === "eval"
      ? "npm run eval"
      : "node --no-regexp-tier-up --import tsx bench/eval/run.ts";
  return `${prefix}${base}${args === "" ? "" : env["npm_lifecycle_event"] === "eval" ? ` -- ${args}` : ` ${args}`}`;
}

function nproc(): string {
  try {
    return execSync("nproc", { encoding: "utf8" }).trim();
  } catch {
    return String(availableParallelism());
  }
}

function progress(message: string): void {
  process.stderr.write(`[eval] ${message}\n`);
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), process.env);
  const corporaRoot = process.env["GUARD_CORPORA"] ?? resolve(repoRoot, "..", "shared", "corpora");
  const { loaded, failures } = await loadCorpora({
    loadersDir: join(repoRoot, "bench", "eval", "corpora"),
    corporaRoot,
    // The project's own fixtures are not corpora under the root (project-sets.ts).
    ...(options.only === undefined
      ? {}
      : { only: options.only.filter((name) => !PROJECT_SETS.some((set) => set.name === name)) }),
  });
  for (const f of failures) progress(`corpus failed: ${f}`);
  const peers = await loadPeers(options.peers);
  for (const u of peers.unavailable) progress(`peer ${u.name} unavailable: ${u.reason}`);
  const systems = [guardSystem, ...peers.systems];
  progress(`${loaded.length} corpora, systems: ${systems.map((s) => s.name).join(", ")}`);

  const results = await evaluate(systems, loaded, {
    onProgress: (r) =>
      progress(
        `${r.corpus} / ${r.system.name}: ${r.samples} samples, ${microsPerSample(r).toFixed(0)} µs/sample`,
      ),
  });

  const projectSets: NonNullable<ReportInput["projectSets"]>[number][] = [];
  for (const set of PROJECT_SETS) {
    if (options.only !== undefined && !options.only.includes(set.name)) continue;
    const project = loadProjectSet(repoRoot, set);
    const done = { project, results: await evaluate(systemsFor(systems, set), [project.loaded]) };
    for (const r of done.results)
      progress(`${set.name} / ${r.system.name}: ${r.score.negativesWithFindings} ${set.honestNoun} flagged`);
    projectSets.push(done);
  }

  let triggerFree: ReportInput["triggerFree"];
  if (options.throughput) {
    const set = triggerFreeSet(builtinDetectors, loaded, TRIGGER_FREE_SEED, TRIGGER_FREE_GENERATED_BYTES);
    progress(
      `trigger-free set: ${set.items.length} texts, ${((set.bytes.generated + set.bytes.corpus) / 1e6).toFixed(2)} MB`,
    );
    const rows = await measureDetectors(builtinDetectors, set);
    for (const r of rows) progress(`throughput guard/${r.check}: ${r.all.toFixed(1)} MB/s`);
    const peerRows = await measurePeers(peers.systems, set);
    for (const r of peerRows) progress(`throughput ${r.system}/${r.check}: ${r.all.toFixed(1)} MB/s`);
    triggerFree = { set, rows: [...rows, ...peerRows] };
  }

  const markdown = renderReport({
    command: commandLine(process.env),
    date: new Date().toISOString(),
    nproc: nproc(),
    node: process.version,
    corporaRoot,
    systems,
    unavailable: peers.unavailable,
    loaded,
    failures,
    results,
    ...(triggerFree === undefined ? {} : { triggerFree }),
    projectSets,
  });
  if (isFullRun(options)) {
    writeFileSync(join(repoRoot, "EVAL.md"), markdown);
    progress("wrote EVAL.md");
  } else {
    progress("narrowed run: EVAL.md left as it was");
  }
  process.stdout.write(markdown.split("\n## Guard's misses")[0] ?? markdown);
}

await main();
