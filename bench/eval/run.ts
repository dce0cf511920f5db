import { execSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { create } from "@bufbuild/protobuf";
import { EventKind, type Finding, SegmentSchema } from "../../gen/guard/v1/types_pb.js";
import type { Detector } from "../../src/detectors/detector.js";
import { builtinDetectors } from "../../src/detectors/registry.js";
import { detectSegment } from "../../src/detectors/service.js";
import type { Corpus, LabelledSample } from "./corpus.js";

/**
 * The evaluation harness (`npm run eval`, i.e. `tsx bench/eval/run.ts`). Loads every corpus
 * in bench/eval/corpora/ from the corpora root (GUARD_CORPORA, default ../shared/corpora),
 * runs every built-in detector over every sample and writes EVAL.md at the repository root.
 *
 * Scoring, per corpus and per expected category: a positive sample is a true positive for
 * each expected id that some finding's category starts with, a false negative otherwise; a
 * benign sample (no expected ids) with findings is a false positive for each category it
 * drew (a finding counts toward the corpus's expected id it falls under, or its own
 * category). Findings on positive samples outside their expected ids are not scored.
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const corporaRoot = process.env["GUARD_CORPORA"] ?? resolve(repoRoot, "..", "shared", "corpora");
// package.json has no "eval" script yet; this is the command it is meant to run.
const COMMAND = "npx tsx bench/eval/run.ts";

interface LoadedCorpus {
  readonly corpus: Corpus;
  readonly samples: readonly LabelledSample[];
  readonly notes: readonly string[];
}

interface Counts {
  tp: number;
  fn: number;
  fp: number;
}

interface CorpusResult {
  readonly name: string;
  readonly source: string;
  readonly positives: number;
  readonly negatives: number;
  readonly byCategory: Map<string, Counts>;
  readonly negativesWithFindings: number;
  readonly microsPerSample: number;
  readonly errors: number;
  readonly misses: string[];
  readonly falseAlarms: string[];
}

async function loadCorpora(): Promise<{ loaded: LoadedCorpus[]; failures: string[] }> {
  const dir = join(repoRoot, "bench", "eval", "corpora");
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort();
  const loaded: LoadedCorpus[] = [];
  const failures: string[] = [];
  for (const file of files) {
    try {
      const mod = (await import(pathToFileURL(join(dir, file)).href)) as { default: Corpus; notes?: unknown };
      const samples = await mod.default.load(corporaRoot);
      const notes = Array.isArray(mod.notes) ? mod.notes.filter((n): n is string => typeof n === "string") : [];
      loaded.push({ corpus: mod.default, samples, notes });
    } catch (error) {
      failures.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { loaded, failures };
}

/** Runs every detector on one sample; returns the findings and the time spent (ns). */
function runSample(
  sample: LabelledSample,
  corpusName: string,
  detectors: readonly Detector[],
  nanosByDetector: Map<string, bigint>,
): { findings: Finding[]; nanos: bigint; errors: number } {
  const segment = create(SegmentSchema, {
    path: `/${corpusName}/${sample.id}`,
    channel: sample.channel,
    text: sample.text,
    addressable: true,
    toolName: sample.toolName ?? "",
    argumentKey: sample.argumentKey ?? "",
  });
  const findings: Finding[] = [];
  let nanos = 0n;
  let errors = 0;
  for (const detector of detectors) {
    const started = process.hrtime.bigint();
    try {
      findings.push(...detectSegment(detector, segment, EventKind.STEP_REQUEST));
    } catch {
      errors++;
    }
    const spent = process.hrtime.bigint() - started;
    nanos += spent;
    nanosByDetector.set(detector.name, (nanosByDetector.get(detector.name) ?? 0n) + spent);
  }
  return { findings, nanos, errors };
}

function counts(map: Map<string, Counts>, category: string): Counts {
  let c = map.get(category);
  if (!c) {
    c = { tp: 0, fn: 0, fp: 0 };
    map.set(category, c);
  }
  return c;
}

function evaluateCorpus(
  loaded: LoadedCorpus,
  detectors: readonly Detector[],
  nanosByDetector: Map<string, bigint>,
): CorpusResult {
  const byCategory = new Map<string, Counts>();
  const expectedIds = [...new Set(loaded.samples.flatMap((s) => s.expected))];
  let positives = 0;
  let negatives = 0;
  let negativesWithFindings = 0;
  let nanos = 0n;
  let errors = 0;
  const misses: string[] = [];
  const falseAlarms: string[] = [];
  for (const sample of loaded.samples) {
    const run = runSample(sample, loaded.corpus.name, detectors, nanosByDetector);
    nanos += run.nanos;
    errors += run.errors;
    const categories = run.findings.map((f) => f.category);
    if (sample.expected.length > 0) {
      positives++;
      for (const id of sample.expected) {
        const hit = categories.some((c) => c.startsWith(id));
        const c = counts(byCategory, id);
        if (hit) c.tp++;
        else {
          c.fn++;
          misses.push(`${sample.id} (${id})`);
        }
      }
      continue;
    }
    negatives++;
    if (categories.length === 0) continue;
    negativesWithFindings++;
    const drawn = new Set(categories.map((c) => expectedIds.find((id) => c.startsWith(id)) ?? c));
    for (const category of drawn) counts(byCategory, category).fp++;
    falseAlarms.push(`${sample.id}: ${[...new Set(categories)].join(", ")}`);
  }
  for (const id of expectedIds) counts(byCategory, id);
  return {
    name: loaded.corpus.name,
    source: loaded.corpus.source,
    positives,
    negatives,
    byCategory,
    negativesWithFindings,
    microsPerSample: loaded.samples.length === 0 ? 0 : Number(nanos) / 1000 / loaded.samples.length,
    errors,
    misses,
    falseAlarms,
  };
}

function ratio(numerator: number, denominator: number): string {
  return denominator === 0 ? "n/a" : (numerator / denominator).toFixed(3);
}

function f1(c: Counts): string {
  const precision = c.tp + c.fp === 0 ? 0 : c.tp / (c.tp + c.fp);
  const recall = c.tp + c.fn === 0 ? 0 : c.tp / (c.tp + c.fn);
  if (c.tp + c.fn === 0 || precision + recall === 0) return c.tp + c.fn === 0 ? "n/a" : "0.000";
  return ((2 * precision * recall) / (precision + recall)).toFixed(3);
}

function machine(): string {
  let nproc = String(availableParallelism());
  try {
    nproc = execSync("nproc", { encoding: "utf8" }).trim();
  } catch {
    // Keep Node's count when nproc is unavailable.
  }
  return nproc;
}

function renderMarkdown(
  results: readonly CorpusResult[],
  loaded: readonly LoadedCorpus[],
  failures: readonly string[],
  throughput: readonly string[],
): string {
  const lines: string[] = [];
  lines.push("# Detector evaluation", "");
  lines.push(`Produced by \`${COMMAND}\` on ${new Date().toISOString()}, machine nproc=${machine()}, Node ${process.version}.`);
  lines.push(`Corpora root: \`${corporaRoot}\`. Detectors: ${builtinDetectors.map((d) => `${d.name} v${d.version}`).join(", ")}.`, "");
  lines.push(
    "A positive sample is caught when some finding's category starts with one of its expected ids; any finding on a benign sample is a false positive (counted once per category it draws). FP rate = false positives / benign samples of the corpus.",
    "",
  );
  lines.push("| corpus | category | TP | FN | FP | precision | recall | F1 | FP rate | positives | negatives | µs/sample |");
  lines.push("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of results) {
    const rows = [...r.byCategory.entries()].sort(([a], [b]) => a.localeCompare(b));
    for (const [category, c] of rows) {
      lines.push(
        `| ${r.name} | \`${category}\` | ${c.tp} | ${c.fn} | ${c.fp} | ${ratio(c.tp, c.tp + c.fp)} | ${ratio(c.tp, c.tp + c.fn)} | ${f1(c)} | ${ratio(c.fp, r.negatives)} | ${r.positives} | ${r.negatives} | ${r.microsPerSample.toFixed(1)} |`,
      );
    }
    const total = rows.reduce((acc, [, c]) => ({ tp: acc.tp + c.tp, fn: acc.fn + c.fn, fp: acc.fp + c.fp }), {
      tp: 0,
      fn: 0,
      fp: 0,
    });
    lines.push(
      `| ${r.name} | **all** | ${total.tp} | ${total.fn} | ${r.negativesWithFindings} | ${ratio(total.tp, total.tp + r.negativesWithFindings)} | ${ratio(total.tp, total.tp + total.fn)} | ${f1({ ...total, fp: r.negativesWithFindings })} | ${ratio(r.negativesWithFindings, r.negatives)} | ${r.positives} | ${r.negatives} | ${r.microsPerSample.toFixed(1)} |`,
    );
  }
  lines.push("", "## Throughput", "", ...throughput, "");
  lines.push("## Corpora", "");
  for (const l of loaded) lines.push(`- **${l.corpus.name}** (${l.samples.length} samples): ${l.corpus.source}`);
  for (const f of failures) lines.push(`- failed to load ${f}`);
  const notes = loaded.flatMap((l) => l.notes);
  if (notes.length > 0) lines.push("", "## Notes on labels", "", ...notes.map((n) => `- ${n}`));
  const errored = results.filter((r) => r.errors > 0);
  if (errored.length > 0) {
    lines.push("", "## Detector errors", "");
    for (const r of errored) lines.push(`- ${r.name}: ${r.errors} detector runs threw`);
  }
  lines.push("", "## Misses and false alarms", "");
  for (const r of results) {
    if (r.misses.length === 0 && r.falseAlarms.length === 0) continue;
    lines.push(`<details><summary>${r.name}: ${r.misses.length} missed, ${r.falseAlarms.length} false alarms</summary>`, "");
    for (const m of r.misses) lines.push(`- missed ${m}`);
    for (const f of r.falseAlarms) lines.push(`- false alarm ${f}`);
    lines.push("", "</details>", "");
  }
  return `${lines.join("\n")}\n`;
}

/** MB/s of each detector over all loaded sample text, one segment per sample. */
function throughputLines(loaded: readonly LoadedCorpus[], nanosByDetector: Map<string, bigint>): string[] {
  const bytes = loaded.reduce((sum, l) => sum + l.samples.reduce((s, x) => s + Buffer.byteLength(x.text), 0), 0);
  const lines = ["| detector | MB/s over all corpus samples |", "|---|---:|"];
  for (const d of builtinDetectors) {
    const nanos = Number(nanosByDetector.get(d.name) ?? 0n);
    lines.push(`| ${d.name} | ${nanos === 0 ? "n/a" : (bytes / 1e6 / (nanos / 1e9)).toFixed(1)} |`);
  }
  lines.push("", `${(bytes / 1e6).toFixed(2)} MB of sample text in total; includes per-segment overhead of the service wrapper.`);
  return lines;
}

async function main(): Promise<void> {
  const { loaded, failures } = await loadCorpora();
  const nanosByDetector = new Map<string, bigint>();
  // One warm-up pass so JIT compilation is not billed to the first corpus.
  for (const l of loaded) for (const s of l.samples.slice(0, 50)) runSample(s, l.corpus.name, builtinDetectors, new Map());
  const results = loaded.map((l) => evaluateCorpus(l, builtinDetectors, nanosByDetector));
  const markdown = renderMarkdown(results, loaded, failures, throughputLines(loaded, nanosByDetector));
  writeFileSync(join(repoRoot, "EVAL.md"), markdown);
  process.stdout.write(markdown.split("\n## Misses")[0] ?? markdown);
}

await main();
