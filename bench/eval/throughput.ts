import { create } from "@bufbuild/protobuf";
import { Channel, EventKind, type Segment, SegmentSchema } from "../../gen/guard/v1/types_pb.js";
import type { Detector } from "../../src/detectors/detector.js";
import { detectSegment } from "../../src/detectors/service.js";
import { type ContentKind, prose, toolOutput } from "../corpus/content.js";
import { Random } from "../corpus/random.js";
import type { LabelledSample, LoadedCorpus } from "./corpus.js";
import type { System } from "./system.js";

/**
 * Throughput on text without triggers: MB/s of each Guard detector (and, for reference, each
 * peer check) over a fixed set of texts that no Guard detector reports anything on. The set
 * is (1) ordinary text from a seeded generator (bench/corpus/content.ts: source code, logs,
 * HTML, JSON API answers as tool results, prose as user turns) and (2) the benign samples of
 * the loaded corpora. A text that draws any Guard finding is dropped from the set.
 *
 * Every detector reads every byte: a detector that reads only some channels is measured once
 * per channel it reads, every text given to it on that channel; as tool-call arguments a text
 * is the `command` argument of a `bash` tool, so the commands and exfiltration detectors parse
 * all of it as shell (their most expensive reading), and as prose only its fenced shell blocks
 * and `$ ` lines. A detector that reads every channel sees each text on its own channel.
 */

/** The figure the issue asks of every Guard detector on trigger-free text. */
export const TARGET_MB_PER_S = 50;

export interface TriggerFreeItem {
  readonly sample: LabelledSample;
  readonly part: "generated" | "corpus";
}

export interface TriggerFreeSet {
  readonly items: readonly TriggerFreeItem[];
  readonly bytes: { readonly generated: number; readonly corpus: number };
  /** Candidates dropped because some Guard detector reported on them. */
  readonly dropped: { readonly generated: number; readonly corpus: number };
  readonly seed: number;
}

const KINDS: readonly ContentKind[] = ["code", "log", "html", "json"];

/** About `targetBytes` of ordinary text from `seed`: tool output of the four kinds and prose. */
export function generatedTexts(seed: number, targetBytes: number): LabelledSample[] {
  const rng = new Random(seed);
  const out: LabelledSample[] = [];
  let bytes = 0;
  for (let i = 0; bytes < targetBytes; i++) {
    const kind = i % 5 === 4 ? undefined : KINDS[i % 5];
    const text =
      kind === undefined
        ? prose(rng, rng.logUniform(1, 60))
        : toolOutput(rng, kind, rng.logUniform(200, 64_000), []);
    out.push({
      id: `generated/${i}/${kind ?? "prose"}`,
      text,
      channel: kind === undefined ? Channel.USER : Channel.TOOL_RESULT,
      expected: [],
    });
    bytes += Buffer.byteLength(text);
  }
  return out;
}

/**
 * The channels a detector is measured on: each channel it restricts itself to (every text is
 * given to it on each in turn), or, for a detector that reads all channels, the text's own.
 */
export function readings(detector: Detector): readonly (Channel | undefined)[] {
  return detector.channels === undefined ? [undefined] : detector.channels;
}

/** The segment `detector` reads for `sample` on `channel` (the sample's own when undefined). */
export function segmentFor(sample: LabelledSample, channel: Channel | undefined): Segment {
  const moved =
    channel !== undefined && channel !== sample.channel && channel === Channel.TOOL_CALL_ARGUMENTS;
  return create(SegmentSchema, {
    path: `/throughput/${sample.id}`,
    channel: channel ?? sample.channel,
    text: sample.text,
    addressable: true,
    toolName: moved ? "bash" : (sample.toolName ?? ""),
    argumentKey: moved ? "command" : (sample.argumentKey ?? ""),
  });
}

function quiet(detectors: readonly Detector[], sample: LabelledSample): boolean {
  return detectors.every((d) =>
    readings(d).every(
      (channel) => detectSegment(d, segmentFor(sample, channel), EventKind.STEP_REQUEST).length === 0,
    ),
  );
}

/** The trigger-free set: generated text of `seed`, then the benign corpus samples, minus anything a detector reports on. */
export function triggerFreeSet(
  detectors: readonly Detector[],
  corpora: readonly LoadedCorpus[],
  seed: number,
  generatedBytes: number,
): TriggerFreeSet {
  const items: TriggerFreeItem[] = [];
  const bytes = { generated: 0, corpus: 0 };
  const dropped = { generated: 0, corpus: 0 };
  const candidates: TriggerFreeItem[] = [
    ...generatedTexts(seed, generatedBytes).map((sample) => ({ sample, part: "generated" as const })),
    ...corpora.flatMap((l) =>
      l.samples
        .filter((s) => s.expected.length === 0 && s.text.length > 0)
        .map((sample) => ({ sample, part: "corpus" as const })),
    ),
  ];
  for (const item of candidates) {
    if (!quiet(detectors, item.sample)) {
      dropped[item.part]++;
      continue;
    }
    items.push(item);
    bytes[item.part] += Buffer.byteLength(item.sample.text);
  }
  return { items, bytes, dropped, seed };
}

export interface ThroughputRow {
  readonly system: string;
  readonly check: string;
  /** The channel the texts were given on, when the check is measured per channel. */
  readonly channel?: string;
  /** Median over the timed passes, MB/s (10^6 bytes). */
  readonly generated: number;
  readonly corpus: number;
  readonly all: number;
  readonly passes: number;
  /** Guard detectors only: whether `all` reaches TARGET_MB_PER_S. */
  readonly target?: boolean;
}

export interface MeasureOptions {
  /** Timed passes at least, and at least this long in all (ms); capped at maxPasses. */
  readonly minPasses: number;
  readonly minMillis: number;
  readonly maxPasses: number;
  /** Texts of each part run untimed first; the whole set when absent. */
  readonly warmupTexts?: number;
}

/** Guard's detectors: a whole untimed pass, then at least 3 timed passes and 2 s. */
export const DETECTOR_MEASURE: MeasureOptions = { minPasses: 3, minMillis: 2000, maxPasses: 25 };

/** Peers, for reference only: some take milliseconds per call, so one timed pass may do. */
export const PEER_MEASURE: MeasureOptions = { minPasses: 1, minMillis: 2000, maxPasses: 10, warmupTexts: 20 };

/** The measuring rule in words, for EVAL.md. */
export function describeMeasure(o: MeasureOptions): string {
  const warmup =
    o.warmupTexts === undefined ? "one untimed pass" : `${o.warmupTexts} texts of each part untimed`;
  return `${warmup}, then timed passes until at least ${o.minPasses} and ${o.minMillis / 1000} s (at most ${o.maxPasses})`;
}

function channelName(channel: Channel): string {
  const name = (Channel[channel] ?? String(channel)).toLowerCase();
  return channel === Channel.TOOL_CALL_ARGUMENTS ? `${name} (bash \`command\`)` : name;
}

/**
 * CPU time of this process so far (ns). Throughput is billed in CPU time, not wall time: the
 * machines running the harness are shared, and a detector preempted by another process has not
 * become slower. The detectors are synchronous, so the process's CPU time is theirs (plus the
 * collector's, which they caused).
 */
function cpuNanos(): bigint {
  const { user, system } = process.cpuUsage();
  return BigInt(user + system) * 1000n;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Times passes of `pass(part)` over both parts of the set; a pass returns the ns spent. */
async function passes(
  set: TriggerFreeSet,
  pass: (part: TriggerFreeItem["part"], limit?: number) => Promise<bigint> | bigint,
  options: MeasureOptions,
): Promise<Pick<ThroughputRow, "generated" | "corpus" | "all" | "passes">> {
  // Untimed first: JIT compilation and lazy loading (model files, rule tables) are not billed.
  await pass("generated", options.warmupTexts);
  await pass("corpus", options.warmupTexts);
  const rates = { generated: [] as number[], corpus: [] as number[], all: [] as number[] };
  const mbps = (bytes: number, nanos: bigint) => (nanos === 0n ? 0 : bytes / 1e6 / (Number(nanos) / 1e9));
  let spent = 0n;
  let n = 0;
  while (n < options.maxPasses && (n < options.minPasses || spent < BigInt(options.minMillis) * 1_000_000n)) {
    const g = await pass("generated");
    const c = await pass("corpus");
    rates.generated.push(mbps(set.bytes.generated, g));
    rates.corpus.push(mbps(set.bytes.corpus, c));
    rates.all.push(mbps(set.bytes.generated + set.bytes.corpus, g + c));
    spent += g + c;
    n++;
  }
  return {
    generated: median(rates.generated),
    corpus: median(rates.corpus),
    all: median(rates.all),
    passes: n,
  };
}

/** MB/s of each Guard detector on the set, through `detectSegment` as in the service. */
export async function measureDetectors(
  detectors: readonly Detector[],
  set: TriggerFreeSet,
  options: MeasureOptions = DETECTOR_MEASURE,
): Promise<ThroughputRow[]> {
  const rows: ThroughputRow[] = [];
  for (const detector of detectors) {
    for (const channel of readings(detector)) {
      const segments = {
        generated: set.items.filter((i) => i.part === "generated").map((i) => segmentFor(i.sample, channel)),
        corpus: set.items.filter((i) => i.part === "corpus").map((i) => segmentFor(i.sample, channel)),
      };
      const figures = await passes(
        set,
        (part, limit) => {
          const started = cpuNanos();
          for (const segment of segments[part].slice(0, limit))
            detectSegment(detector, segment, EventKind.STEP_REQUEST);
          return cpuNanos() - started;
        },
        options,
      );
      rows.push({
        system: "guard",
        check: detector.name,
        ...(channel === undefined ? {} : { channel: channelName(channel) }),
        ...figures,
        target: figures.all >= TARGET_MB_PER_S,
      });
    }
  }
  return rows;
}

/** MB/s of each check of each peer on the same texts, for reference (a check that throws still spends its time). */
export async function measurePeers(
  peers: readonly System[],
  set: TriggerFreeSet,
  options: MeasureOptions = PEER_MEASURE,
): Promise<ThroughputRow[]> {
  const rows: ThroughputRow[] = [];
  const inputs = {
    generated: set.items.filter((i) => i.part === "generated"),
    corpus: set.items.filter((i) => i.part === "corpus"),
  };
  // Peers read the text only; the segment is there to satisfy the check interface.
  const segment = create(SegmentSchema, {});
  for (const peer of peers) {
    for (const check of peer.checks) {
      const figures = await passes(
        set,
        async (part, limit) => {
          const started = cpuNanos();
          for (const { sample } of inputs[part].slice(0, limit)) {
            try {
              const result = check.run({ sample, segment });
              if (result instanceof Promise) await result;
            } catch {
              // An error is the peer's answer for this text; its time counts.
            }
          }
          return cpuNanos() - started;
        },
        options,
      );
      rows.push({ system: peer.name, check: check.name, ...figures });
    }
  }
  return rows;
}
