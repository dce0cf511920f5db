import pg from "pg";
import { createClient } from "redis";

/**
 * The real servers integration tests run against, and the one rule for when they are
 * missing: a developer's machine skips with a message; CI (the CI variable set) fails, since
 * a suite that silently skipped its database tests would prove nothing.
 */
export const TEST_DATABASE_URL = process.env["GUARD_TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";
export const TEST_REDIS_URL = process.env["GUARD_TEST_REDIS_URL"] ?? "redis://127.0.0.1:6379";

export async function postgresReachable(url: string = TEST_DATABASE_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

export async function redisReachable(url: string = TEST_REDIS_URL): Promise<boolean> {
  const client = createClient({ url, socket: { connectTimeout: 2_000, reconnectStrategy: false } });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
    await client.close();
    return true;
  } catch {
    // A refused first connection (reconnects off) has already closed the client.
    if (client.isOpen) client.destroy();
    return false;
  }
}

/** Throws under CI when a needed server is missing; otherwise warns that `suite` is skipped. */
export function requireOrSkip(suite: string, missing: readonly string[]): boolean {
  if (missing.length === 0) return true;
  const what = missing.join(" and ");
  if (process.env["CI"]) throw new Error(`CI is set and ${what} unreachable: start it (see .ci/run), do not skip`);
  console.warn(`SKIPPED ${suite} tests: ${what} unreachable (set CI to fail instead)`);
  return false;
}
