import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** One versioned schema change: `migrations/NNN_name.sql`. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  /** The file name, as messages name the migration. */
  readonly file: string;
  readonly sql: string;
  /** SHA-256 of the file, recorded when applied so an edited migration is caught at the next start. */
  readonly checksum: string;
}

const FILE_NAME = /^(\d+)_([A-Za-z0-9_-]+)\.sql$/;

/**
 * The repository's `migrations/` folder. Walks up from this module because it runs both from
 * `src/` (tsx, vitest) and from `dist/src/` (the build), which sit at different depths.
 */
export function defaultMigrationsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "migrations")))
      return join(dir, "migrations");
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error("migrations folder not found above " + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

/** Reads and orders the migration files; a duplicate version is a packaging mistake and refused. */
export function readMigrations(dir: string = defaultMigrationsDir()): Migration[] {
  const migrations: Migration[] = [];
  for (const file of readdirSync(dir)) {
    const match = FILE_NAME.exec(file);
    if (!match?.[1] || !match[2]) continue;
    const sql = readFileSync(join(dir, file), "utf8");
    migrations.push({
      version: Number(match[1]),
      name: match[2],
      file,
      sql,
      checksum: createHash("sha256").update(sql).digest("hex"),
    });
  }
  migrations.sort((a, b) => a.version - b.version);
  for (let i = 1; i < migrations.length; i++) {
    if (migrations[i]?.version === migrations[i - 1]?.version)
      throw new Error(`two migrations share version ${migrations[i]?.version} in ${dir}`);
  }
  return migrations;
}
