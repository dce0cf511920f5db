import { existsSync, readFileSync } from "node:fs";

/**
 * Reads a JSON-lines journal. A line that does not parse (a write torn by a crash) is
 * skipped and counted instead of failing the whole start.
 */
export function readJournal<T>(path: string): { records: T[]; torn: number } {
  if (!existsSync(path)) return { records: [], torn: 0 };
  const records: T[] = [];
  let torn = 0;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.length === 0) continue;
    try {
      records.push(JSON.parse(line) as T);
    } catch {
      torn++;
    }
  }
  return { records, torn };
}
