import type pg from "pg";

/** A column and the PostgreSQL type its parameter is cast to (parameters are sent untyped). */
export type Column = readonly [name: string, type: string];

/** PostgreSQL accepts at most 65,535 parameters in one statement; stay clear of it. */
const MAX_PARAMS = 60_000;

/**
 * Inserts `rows` with multi-row `INSERT ... VALUES` statements, parameterised, split only when a
 * statement would exceed the parameter limit. `conflict` is the `ON CONFLICT` clause that makes
 * the write idempotent, so a batch retried after an unacknowledged commit inserts nothing twice.
 */
export async function insertRows(
  client: pg.ClientBase,
  table: string,
  columns: readonly Column[],
  rows: readonly (readonly unknown[])[],
  conflict: string,
): Promise<void> {
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const names = columns.map(([name]) => name).join(", ");
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const values: unknown[] = [];
    const tuples = chunk.map((row) => {
      const slots = columns.map(([, type], i) => {
        values.push(row[i] ?? null);
        return `$${values.length}::${type}`;
      });
      return `(${slots.join(", ")})`;
    });
    await client.query(`INSERT INTO ${table} (${names}) VALUES ${tuples.join(", ")} ${conflict}`, values);
  }
}

/**
 * PostgreSQL text cannot hold U+0000, and jsonb refuses the `\u0000` escape. Either would make a
 * record fail on every retry, so the character is replaced (with U+FFFD) before it is written.
 */
export function pgText(value: string): string;
export function pgText(value: string | undefined): string | undefined;
export function pgText(value: string | undefined): string | undefined {
  return value?.replaceAll("\0", "\uFFFD");
}

/** A JSON value as jsonb parameter text, with `\u0000` escapes (in keys too) made storable. */
export function pgJson(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  // An escape is one only after an even number of backslashes (`\\u0000` is a literal backslash).
  return JSON.stringify(value).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, "$1\\ufffd");
}

/** Connection-class problems are retried; a refusal of the data itself would fail the same way again. */
export function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== "string" || code.length !== 5) return false;
  const sqlClass = code.slice(0, 2);
  // 22: data exception, 23: integrity constraint violation. Not 42 (a missing table, say): that is
  // a deployment to fix (run the migrations), after which the same records go in unchanged.
  return sqlClass === "22" || sqlClass === "23";
}

/** A client taken from the pool for several statements, and how to give it back. */
export interface CheckedOutClient {
  readonly client: pg.PoolClient;
  /** Returns the client; discards it instead when `failure` is anything but a refusal of the data, or it was lost. */
  release(failure?: unknown): void;
}

/**
 * Takes a client from the pool for a transaction. While a client is checked out the pool does not
 * listen to it, and a connection lost mid-transaction emits `error` on the client (besides failing
 * the statement): without a listener of its own that is an uncaught exception, which ends the
 * process with everything still queued. The listener here keeps the error for `release`.
 */
export async function checkout(pool: pg.Pool): Promise<CheckedOutClient> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost = error;
  };
  client.on("error", onError);
  return {
    client,
    release(failure) {
      client.removeListener("error", onError);
      const broken = lost ?? (failure !== undefined && !isDataError(failure) ? failure : undefined);
      client.release(broken === undefined ? undefined : broken instanceof Error ? broken : new Error(String(broken)));
    },
  };
}

/**
 * The database could not be reached or lost the connection (as opposed to answering with a
 * refusal): a network error, a timeout, a connection exception (class 08), the server shutting
 * down or not accepting connections (57P), or out of connection slots (53300).
 */
export function isUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code !== "string" || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return code.startsWith("08") || code.startsWith("57P") || code === "53300";
}
