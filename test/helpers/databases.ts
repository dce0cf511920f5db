import { randomBytes } from "node:crypto";
import pg from "pg";
import { TEST_DATABASE_URL } from "./servers.js";

/**
 * PostgreSQL databases of a test file's own, so parallel runs and other files never meet:
 * `fresh()` creates an empty one and answers its URL; `dropAll()` (in afterAll) removes them.
 */
export class TestDatabases {
  readonly #names: string[] = [];

  constructor(
    private readonly prefix: string,
    readonly adminUrl: string = TEST_DATABASE_URL,
  ) {}

  async fresh(): Promise<string> {
    const name = `${this.prefix}_${randomBytes(6).toString("hex")}`;
    await queryDatabase(this.adminUrl, `CREATE DATABASE ${name}`);
    this.#names.push(name);
    const url = new URL(this.adminUrl);
    url.pathname = `/${name}`;
    return url.toString();
  }

  async dropAll(): Promise<void> {
    for (const name of this.#names.splice(0))
      await queryDatabase(this.adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

/** One statement on a connection of its own; its rows. */
export async function queryDatabase<R extends pg.QueryResultRow>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}
