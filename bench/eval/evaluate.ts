import { create } from "@bufbuild/protobuf";
import { type Segment, SegmentSchema } from "../../gen/guard/v1/types_pb.js";
import type { LabelledSample, LoadedCorpus } from "./corpus.js";
import { type CorpusScore, type SampleOutcome, scoreCorpus } from "./score.js";
import { type Check, type CheckInput, covers, type System } from "./system.js";

/** One system's run over one corpus. */
export interface SystemCorpusResult {
  readonly system: System;
  readonly corpus: string;
  readonly score: CorpusScore;
  /** Samples run and their UTF-8 bytes. */
  readonly samples: number;
  readonly bytes: number;
  /** Time in each check, summed over the samples (ns). */
  readonly nanosByCheck: ReadonlyMap<string, bigint>;
}

/** Total time per sample, over every check of the system (µs). */
export function microsPerSample(r: SystemCorpusResult): number {
  let nanos = 0n;
  for (const n of r.nanosByCheck.values()) nanos += n;
  return r.samples === 0 ? 0 : Number(nanos) / 1000 / r.samples;
}

/** The segment Guard's detectors read for a sample; built once and shared by every system. */
export function sampleSegment(corpusName: string, sample: LabelledSample): Segment {
  return create(SegmentSchema, {
    path: `/${corpusName}/${sample.id}`,
    channel: sample.channel,
    text: sample.text,
    addressable: true,
    toolName: sample.toolName ?? "",
    argumentKey: sample.argumentKey ?? "",
  });
}

/** Runs one check; returns what it found (nothing when it threw), whether it threw, and the time. */
export async function timeCheck(
  check: Check,
  input: CheckInput,
): Promise<{ categories: readonly string[]; failed: boolean; nanos: bigint }> {
  const started = process.hrtime.bigint();
  try {
    const result = check.run(input);
    // Guard's checks are synchronous; awaiting only promises keeps microtask hops out of their time.
    const categories = result instanceof Promise ? await result : result;
    return { categories, failed: false, nanos: process.hrtime.bigint() - started };
  } catch {
    return { categories: [], failed: true, nanos: process.hrtime.bigint() - started };
  }
}

async function runSystem(
  system: System,
  name: string,
  inputs: readonly CheckInput[],
): Promise<SystemCorpusResult> {
  const nanosByCheck = new Map<string, bigint>(system.checks.map((c) => [c.name, 0n]));
  const outcomes: SampleOutcome[] = [];
  let bytes = 0;
  for (const input of inputs) {
    const categories: string[] = [];
    let errors = 0;
    for (const check of system.checks) {
      const run = await timeCheck(check, input);
      categories.push(...run.categories);
      if (run.failed) errors++;
      nanosByCheck.set(check.name, (nanosByCheck.get(check.name) ?? 0n) + run.nanos);
    }
    outcomes.push({ sample: input.sample, categories, errors });
    bytes += Buffer.byteLength(input.sample.text);
  }
  const score = scoreCorpus(outcomes, (id) => covers(system, id));
  return { system, corpus: name, score, samples: inputs.length, bytes, nanosByCheck };
}

export interface EvaluateOptions {
  /** Samples per corpus run once, untimed, before measuring, so JIT compilation is not billed. */
  readonly warmupSamples?: number;
  /** Called after each system finishes a corpus (progress on a slow machine). */
  readonly onProgress?: (result: SystemCorpusResult) => void;
}

/** Runs every system over every corpus, one sample at a time, one check after another. */
export async function evaluate(
  systems: readonly System[],
  corpora: readonly LoadedCorpus[],
  options: EvaluateOptions = {},
): Promise<SystemCorpusResult[]> {
  const inputs = corpora.map((l) => ({
    name: l.corpus.name,
    inputs: l.samples.map((sample) => ({ sample, segment: sampleSegment(l.corpus.name, sample) })),
  }));
  const warmup = options.warmupSamples ?? 50;
  for (const system of systems)
    for (const corpus of inputs)
      for (const input of corpus.inputs.slice(0, warmup))
        for (const check of system.checks) await timeCheck(check, input);
  const results: SystemCorpusResult[] = [];
  for (const corpus of inputs) {
    for (const system of systems) {
      const result = await runSystem(system, corpus.name, corpus.inputs);
      options.onProgress?.(result);
      results.push(result);
    }
  }
  return results;
}
