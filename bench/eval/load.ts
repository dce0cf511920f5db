import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Corpus, LoadedCorpus } from "./corpus.js";

export interface LoadOptions {
  /** Folder of the loaders, one file per corpus (bench/eval/corpora). */
  readonly loadersDir: string;
  /** Where the corpora are (../shared/corpora by default). */
  readonly corporaRoot: string;
  /** Corpus names to load; all when absent. */
  readonly only?: readonly string[];
}

export interface LoadResult {
  readonly loaded: LoadedCorpus[];
  /** Loaders that failed, as `file: message`. */
  readonly failures: string[];
}

/** Imports every corpus loader (or the named ones) and reads its samples; a loader that fails is reported, not fatal. */
export async function loadCorpora(options: LoadOptions): Promise<LoadResult> {
  const files = readdirSync(options.loadersDir)
    .filter((f) => f.endsWith(".ts"))
    .sort();
  const loaded: LoadedCorpus[] = [];
  const failures: string[] = [];
  for (const file of files) {
    try {
      const mod = (await import(pathToFileURL(join(options.loadersDir, file)).href)) as {
        default: Corpus;
        notes?: unknown;
      };
      if (options.only && !options.only.includes(mod.default.name)) continue;
      const samples = await mod.default.load(options.corporaRoot);
      const notes = Array.isArray(mod.notes)
        ? mod.notes.filter((n): n is string => typeof n === "string")
        : [];
      loaded.push({ corpus: mod.default, samples, notes });
    } catch (error) {
      failures.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const missing = (options.only ?? []).filter((name) => !loaded.some((l) => l.corpus.name === name));
  for (const name of missing)
    if (!failures.some((f) => f.startsWith(`${name}.ts:`))) failures.push(`${name}: no such corpus`);
  return { loaded, failures };
}
