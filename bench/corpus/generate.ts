import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { corpusSessions, DEFAULT_CORPUS, sessionEvents, type CorpusOptions } from "./corpus.js";
import { RATES } from "./sprinkles.js";

/**
 * Writes the replay corpus to disk for replay by other tools (`tsx bench/corpus/generate.ts
 * [--seed N] [--sessions N] [--out DIR]`, default bench/.data/corpus): one JSON-lines file per
 * session, one GuardEvent a line in sending order, and manifest.json with the options, the
 * sprinkle rates and the byte counts. The benchmark itself renders the same corpus in memory.
 */

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface WrittenCorpus {
  readonly dir: string;
  readonly sessions: number;
  readonly events: number;
  readonly bytes: number;
}

export function writeCorpus(options: CorpusOptions, dir: string): WrittenCorpus {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const sessions = corpusSessions(options);
  const perSession: { id: string; protocol: string; steps: number; events: number; bytes: number }[] = [];
  let events = 0;
  let bytes = 0;
  for (const s of sessions) {
    const fd = openSync(join(dir, `${s.id}.jsonl`), "w");
    let count = 0;
    let size = 0;
    try {
      for (const e of sessionEvents(s, options.contextBudgetBytes)) {
        // One write per event: a long session re-sends hundreds of megabytes in total.
        writeSync(fd, `${e.body}\n`);
        count++;
        size += Buffer.byteLength(e.body);
      }
    } finally {
      closeSync(fd);
    }
    perSession.push({ id: s.id, protocol: s.protocol, steps: s.steps.length, events: count, bytes: size });
    events += count;
    bytes += size;
  }
  writeFileSync(
    join(dir, "manifest.json"),
    `${JSON.stringify({ options: { ...options, stepsFor: undefined }, rates: RATES, events, bytes, sessions: perSession }, null, 2)}\n`,
  );
  return { dir, sessions: sessions.length, events, bytes };
}

function argValue(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

function main(): void {
  const args = process.argv.slice(2);
  const seed = Number(argValue(args, "--seed") ?? DEFAULT_CORPUS.seed);
  const sessions = Number(argValue(args, "--sessions") ?? DEFAULT_CORPUS.sessions);
  if (!Number.isInteger(seed) || !Number.isInteger(sessions) || sessions < 1) {
    process.stderr.write("usage: tsx bench/corpus/generate.ts [--seed N] [--sessions N] [--out DIR]\n");
    process.exit(2);
  }
  const out = resolve(argValue(args, "--out") ?? join(repoRoot, "bench", ".data", "corpus"));
  const written = writeCorpus({ ...DEFAULT_CORPUS, seed, sessions }, out);
  process.stdout.write(
    `wrote ${written.events} events of ${written.sessions} sessions (${(written.bytes / 1e6).toFixed(1)} MB) to ${written.dir}\n`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
