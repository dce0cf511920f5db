import type { LoadedCorpus } from "./corpus.js";
import { microsPerSample, type SystemCorpusResult } from "./evaluate.js";
import { addCounts, type Counts, f1, precision, recall, totalCounts } from "./score.js";
import type { System } from "./system.js";
import type { LoadedProjectSet } from "./project-sets.js";
import {
  DETECTOR_MEASURE,
  describeMeasure,
  PEER_MEASURE,
  TARGET_MB_PER_S,
  type ThroughputRow,
  type TriggerFreeSet,
} from "./throughput.js";

/** Everything EVAL.md is made of; `renderReport` only formats it. */
export interface ReportInput {
  readonly command: string;
  readonly date: string;
  readonly nproc: string;
  readonly node: string;
  readonly corporaRoot: string;
  /** Guard first, then the peers that loaded. */
  readonly systems: readonly System[];
  readonly unavailable: readonly { readonly name: string; readonly reason: string }[];
  readonly loaded: readonly LoadedCorpus[];
  readonly failures: readonly string[];
  readonly results: readonly SystemCorpusResult[];
  readonly triggerFree?: { readonly set: TriggerFreeSet; readonly rows: readonly ThroughputRow[] };
  /** The project's own fixtures (project-sets.ts), each run by the systems that claim its category. */
  readonly projectSets?: readonly {
    readonly project: LoadedProjectSet;
    readonly results: readonly SystemCorpusResult[];
  }[];
}

function fixed(value: number | undefined, digits = 3): string {
  return value === undefined ? "n/a" : value.toFixed(digits);
}

function rate(numerator: number, denominator: number): string {
  return denominator === 0 ? "n/a" : (numerator / denominator).toFixed(3);
}

function row(cells: readonly (string | number)[]): string {
  return `| ${cells.join(" | ")} |`;
}

function countCells(c: Counts, negatives: number): (string | number)[] {
  return [c.tp, c.fn, c.fp, fixed(precision(c)), fixed(recall(c)), fixed(f1(c)), rate(c.fp, negatives)];
}

function resultsTable(input: ReportInput): string[] {
  const lines = [
    row([
      "corpus",
      "category",
      "system",
      "TP",
      "FN",
      "FP",
      "precision",
      "recall",
      "F1",
      "FP rate",
      "positives",
      "negatives",
      "µs/sample",
      "errors",
    ]),
    "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const l of input.loaded) {
    const results = input.systems.flatMap((s) =>
      input.results.filter((r) => r.corpus === l.corpus.name && r.system === s),
    );
    const categories = [...new Set(results.flatMap((r) => [...r.score.byCategory.keys()]))].sort();
    const tail = (r: SystemCorpusResult) => [
      r.score.positives,
      r.score.negatives,
      microsPerSample(r).toFixed(1),
      r.score.erroredSamples,
    ];
    for (const category of categories) {
      for (const r of results) {
        const c = r.score.byCategory.get(category);
        if (c === undefined) continue;
        lines.push(
          row([
            l.corpus.name,
            `\`${category}\``,
            r.system.name,
            ...countCells(c, r.score.negatives),
            ...tail(r),
          ]),
        );
      }
    }
    for (const r of results) {
      // A peer with nothing to find here and no false alarm has no row.
      if (r.system.scope === "covered" && r.score.positives === 0 && r.score.negativesWithFindings === 0)
        continue;
      lines.push(
        row([
          l.corpus.name,
          "**all**",
          r.system.name,
          ...countCells(totalCounts(r.score), r.score.negatives),
          ...tail(r),
        ]),
      );
    }
  }
  return lines;
}

function verdict(guard: number | undefined, peer: number | undefined): string {
  if (guard === undefined || peer === undefined) return "n/a";
  const g = Number(guard.toFixed(3));
  const p = Number(peer.toFixed(3));
  return g > p ? "yes" : g === p ? "tie" : "**no**";
}

/** Guard's F1 against each peer's, per category a peer covers, per corpus with positives of it and pooled. */
/** False positives of `category` over the benign samples of every corpus, as a rate. */
function benignRate(input: ReportInput, system: System, category: string): string {
  let fp = 0;
  let negatives = 0;
  for (const r of input.results) {
    if (r.system !== system) continue;
    negatives += r.score.negatives;
    for (const [k, c] of r.score.byCategory) if (k.startsWith(category)) fp += c.fp;
  }
  return rate(fp, negatives);
}

/** Guard's F1 against each peer's, per category a peer covers, per corpus with positives of it and pooled. */
function versusTable(input: ReportInput): string[] {
  const guard = input.systems.find((s) => s.scope === "all");
  const peers = input.systems.filter((s) => s.scope === "covered");
  if (guard === undefined || peers.length === 0) return ["No peer ran."];
  const lines = [
    row([
      "category",
      "corpus",
      "peer",
      "Guard F1",
      "peer F1",
      "Guard better",
      "Guard P / R",
      "peer P / R",
      "FP rate on all benign samples, Guard / peer",
      "µs/sample, Guard / peer",
    ]),
    "|---|---|---|---:|---:|---|---:|---:|---:|---:|",
  ];
  const pr = (c: Counts) => `${fixed(precision(c), 2)} / ${fixed(recall(c), 2)}`;
  for (const peer of peers) {
    const peerResults = input.results.filter((r) => r.system === peer);
    const categories = [
      ...new Set(
        peerResults.flatMap((r) =>
          [...r.score.byCategory.entries()].filter(([, c]) => c.tp + c.fn > 0).map(([k]) => k),
        ),
      ),
    ].sort();
    for (const category of categories) {
      const rates = `${benignRate(input, guard, category)} / ${benignRate(input, peer, category)}`;
      let pooledGuard: Counts = { tp: 0, fn: 0, fp: 0 };
      let pooledPeer: Counts = { tp: 0, fn: 0, fp: 0 };
      let corpora = 0;
      for (const p of peerResults) {
        const pc = p.score.byCategory.get(category);
        const g = input.results.find((r) => r.system === guard && r.corpus === p.corpus);
        const gc = g?.score.byCategory.get(category);
        if (pc === undefined || gc === undefined || g === undefined || pc.tp + pc.fn === 0) continue;
        corpora++;
        pooledGuard = addCounts(pooledGuard, gc);
        pooledPeer = addCounts(pooledPeer, pc);
        const f = [f1(gc), f1(pc)] as const;
        const times = `${microsPerSample(g).toFixed(0)} / ${microsPerSample(p).toFixed(0)}`;
        lines.push(
          row([
            `\`${category}\``,
            p.corpus,
            peer.name,
            fixed(f[0]),
            fixed(f[1]),
            verdict(...f),
            pr(gc),
            pr(pc),
            rates,
            times,
          ]),
        );
      }
      if (corpora > 1) {
        const f = [f1(pooledGuard), f1(pooledPeer)] as const;
        lines.push(
          row([
            `\`${category}\``,
            "_pooled_",
            peer.name,
            fixed(f[0]),
            fixed(f[1]),
            verdict(...f),
            pr(pooledGuard),
            pr(pooledPeer),
            rates,
            "",
          ]),
        );
      }
    }
  }
  return lines;
}

function triggerFreeSection(input: ReportInput): string[] {
  const tf = input.triggerFree;
  if (tf === undefined) return ["Not measured in this run."];
  const { set, rows } = tf;
  const mb = (b: number) => (b / 1e6).toFixed(2);
  const generated = set.items.filter((i) => i.part === "generated").length;
  const corpus = set.items.length - generated;
  const lines = [
    `The set: ${generated} generated texts (${mb(set.bytes.generated)} MB; source code, logs, HTML and JSON tool results and user prose from bench/corpus/content.ts, seed ${set.seed}) and ${corpus} benign corpus samples (${mb(set.bytes.corpus)} MB), minus ${set.dropped.generated} generated texts and ${set.dropped.corpus} benign samples that drew a Guard finding. Every detector reads every byte: a detector that reads only some channels is measured once per channel it reads, every text given to it on that channel (as tool-call arguments, the text is the \`command\` argument of a \`bash\` tool, so commands and exfiltration parse all of it as shell; as prose, they read only fenced shell blocks and \`$ \` lines); pii and secrets read every channel and see each text on its own (tool result for generated tool output, user for prose). Guard's detectors: ${describeMeasure(DETECTOR_MEASURE)}; peers: ${describeMeasure(PEER_MEASURE)}; the median pass is reported, timed in CPU time of the process (the machine is shared: time spent preempted is not the detector's). MB = 10^6 bytes of UTF-8.`,
    "",
    row([
      "system",
      "check",
      "channel",
      "MB/s, whole set",
      "MB/s, generated",
      "MB/s, benign corpus samples",
      "passes",
      `≥ ${TARGET_MB_PER_S} MB/s`,
    ]),
    "|---|---|---|---:|---:|---:|---:|---|",
  ];
  for (const r of rows) {
    const target = r.target === undefined ? "(peer, reference)" : r.target ? "met" : "**not met**";
    const mbps = (v: number) => v.toFixed(v < 1 ? 2 : 1);
    lines.push(
      row([
        r.system,
        r.check,
        r.channel ?? "own",
        mbps(r.all),
        mbps(r.generated),
        mbps(r.corpus),
        r.passes,
        target,
      ]),
    );
  }
  return lines;
}

function allSamplesThroughput(input: ReportInput): string[] {
  const lines = [row(["system", "check", "MB/s over all corpus samples"]), "|---|---|---:|"];
  let bytes = 0;
  for (const system of input.systems) {
    const results = input.results.filter((r) => r.system === system);
    bytes = results.reduce((sum, r) => sum + r.bytes, 0);
    for (const check of system.checks) {
      const nanos = Number(results.reduce((sum, r) => sum + (r.nanosByCheck.get(check.name) ?? 0n), 0n));
      const mbps = nanos === 0 ? undefined : bytes / 1e6 / (nanos / 1e9);
      lines.push(row([system.name, check.name, mbps === undefined ? "n/a" : mbps.toFixed(mbps < 1 ? 2 : 1)]));
    }
  }
  lines.push(
    "",
    `${(bytes / 1e6).toFixed(2)} MB of sample text in total, one call per sample (triggers included); Guard's figures include the per-segment overhead of \`detectSegment\`.`,
  );
  return lines;
}

/** A fixture set written for the project: false alarms (all, and on the held-out half) and catches per system. */
function projectSetSection(done: NonNullable<ReportInput["projectSets"]>[number]): string[] {
  const { set, loaded, heldOutHonest } = done.project;
  const honest = loaded.samples.filter((s) => s.expected.length === 0).length;
  const hostile = loaded.samples.length - honest;
  const lines = [
    `## ${set.title}`,
    "",
    `The ${honest} ${set.honestNoun} and ${hostile} ${set.hostileNoun}: ${set.about}`,
    "",
    row([
      "system",
      `${set.honestNoun} with any finding (of ${honest})`,
      `of which \`${set.category}\``,
      `of which in the held-out half (of ${heldOutHonest.size})`,
      `${set.hostileNoun} caught (of ${hostile})`,
      "µs/sample",
    ]),
    "|---|---:|---:|---:|---:|---:|",
  ];
  for (const r of done.results) {
    const counts = r.score.byCategory.get(set.category) ?? { tp: 0, fn: 0, fp: 0 };
    // A false alarm reads "<sample id>: <categories>"; only the set's own category counts here.
    const heldOut = r.score.falseAlarms.filter((alarm) => {
      const at = alarm.indexOf(": ");
      return (
        heldOutHonest.has(alarm.slice(0, at)) &&
        alarm
          .slice(at + 2)
          .split(", ")
          .includes(set.category)
      );
    }).length;
    lines.push(
      row([
        r.system.name,
        r.score.negativesWithFindings,
        counts.fp,
        heldOut,
        counts.tp,
        microsPerSample(r).toFixed(0),
      ]),
    );
  }
  return lines;
}

export function renderReport(input: ReportInput): string {
  const lines: string[] = [];
  const guard = input.systems.find((s) => s.scope === "all");
  lines.push("# Detector evaluation", "");
  lines.push(
    `Produced by \`${input.command}\` on ${input.date}, machine nproc=${input.nproc}, Node ${input.node}.`,
  );
  lines.push(`Corpora root: \`${input.corporaRoot}\`. Guard detectors: ${guard?.version ?? "none"}.`, "");
  lines.push(
    "A positive sample is caught when some finding's category starts with one of its expected ids; any finding on a benign sample is a false positive (counted once per category it draws). FP rate = false positives / benign samples of the corpus. Guard is scored on every category; a peer only on the expected ids it covers (a positive sample whose expected ids it does not cover is left out for it), and every finding it makes on a benign sample counts against it. `errors` = samples on which a check threw; such a sample is scored on what the other checks reported.",
    "",
  );
  lines.push("## Guard vs peers", "", ...versusTable(input), "");
  for (const done of input.projectSets ?? []) lines.push(...projectSetSection(done), "");
  lines.push("## Results", "", ...resultsTable(input), "");
  lines.push("## Throughput on text without triggers", "", ...triggerFreeSection(input), "");
  lines.push("## Throughput over all corpus samples", "", ...allSamplesThroughput(input), "");
  lines.push("## Systems", "");
  for (const s of input.systems) lines.push(`- **${s.name}** (${s.version}): ${s.how}.`);
  for (const u of input.unavailable) lines.push(`- **${u.name}**: not run, ${u.reason}`);
  lines.push("", "## Corpora", "");
  for (const l of input.loaded)
    lines.push(`- **${l.corpus.name}** (${l.samples.length} samples): ${l.corpus.source}`);
  for (const f of input.failures) lines.push(`- failed to load ${f}`);
  const notes = input.loaded.flatMap((l) => l.notes);
  if (notes.length > 0) lines.push("", "## Notes on labels", "", ...notes.map((n) => `- ${n}`));
  const errored = input.results.filter((r) => r.score.erroredSamples > 0);
  if (errored.length > 0) {
    lines.push("", "## Errors", "");
    for (const r of errored)
      lines.push(`- ${r.system.name} on ${r.corpus}: a check threw on ${r.score.erroredSamples} samples`);
  }
  lines.push("", "## Guard's misses and false alarms", "");
  for (const r of input.results.filter((x) => x.system === guard)) {
    const { misses, falseAlarms } = r.score;
    if (misses.length === 0 && falseAlarms.length === 0) continue;
    lines.push(
      `<details><summary>${r.corpus}: ${misses.length} missed, ${falseAlarms.length} false alarms</summary>`,
      "",
    );
    for (const m of misses) lines.push(`- missed ${m}`);
    for (const f of falseAlarms) lines.push(`- false alarm ${f}`);
    lines.push("", "</details>", "");
  }
  return `${lines.join("\n")}\n`;
}
