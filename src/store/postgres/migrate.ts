import pg from "pg";
import { type Migration, readMigrations } from "./migrations.js";

/**
 * Session advisory lock taken around migrating: replicas starting together queue on it, and
 * each one after the first finds nothing left to apply, so every migration runs exactly once.
 */
const MIGRATION_LOCK = "7404297001";

export interface MigrateOptions {
  /** Where the `NNN_name.sql` files are; the repository's `migrations/` by default. */
  readonly migrationsDir?: string;
}

export interface MigrateResult {
  /** Versions applied by this call, in order (empty when the schema was already current). */
  readonly applied: number[];
  /** The highest version recorded in the database afterwards. */
  readonly current: number;
}

/** `guard migrate`: brings the database at `url` up to the newest migration. */
export async function migrate(url: string, options: MigrateOptions = {}): Promise<MigrateResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await migrateWith(client, readMigrations(options.migrationsDir));
  } finally {
    await client.end();
  }
}

/**
 * Applies, in version order, each migration the database has not recorded, each inside its own
 * transaction together with its row in `guard_schema_migrations`, so a failed migration leaves
 * neither a half-built schema nor a record claiming it ran.
 */
export async function migrateWith(
  client: pg.ClientBase,
  migrations: readonly Migration[],
): Promise<MigrateResult> {
  await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS guard_schema_migrations (
      version     integer PRIMARY KEY,
      name        text NOT NULL,
      checksum    text NOT NULL,
      applied_at  timestamptz NOT NULL DEFAULT now()
    )`);
    const done = await client.query<{ version: number; name: string; checksum: string }>(
      "SELECT version, name, checksum FROM guard_schema_migrations",
    );
    const recorded = new Map(done.rows.map((row) => [row.version, row]));
    const applied: number[] = [];
    for (const migration of migrations) {
      const existing = recorded.get(migration.version);
      if (existing) {
        // An applied migration that changed on disk means the schema no longer matches its files.
        if (existing.checksum !== migration.checksum)
          throw new Error(
            `migration ${migration.file} was edited after it was applied ` +
              `(recorded ${existing.checksum.slice(0, 12)}, file ${migration.checksum.slice(0, 12)}); add a new migration instead`,
          );
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query(
          "INSERT INTO guard_schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
          [migration.version, migration.name, migration.checksum],
        );
        await client.query("COMMIT");
      } catch (error) {
        // The connection may be gone too; the migration's own error is the one worth reporting.
        await client.query("ROLLBACK").catch(() => undefined);
        throw new Error(`migration ${migration.file} failed: ${(error as Error).message}`, {
          cause: error,
        });
      }
      applied.push(migration.version);
    }
    const top = await client.query<{ current: number | null }>(
      "SELECT max(version) AS current FROM guard_schema_migrations",
    );
    return { applied, current: top.rows[0]?.current ?? 0 };
  } finally {
    // A dead connection releases its session lock by itself, so a failed unlock changes nothing.
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
  }
}
