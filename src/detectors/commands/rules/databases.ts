import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import type { Analysis, Invocation } from "../shell/analyze.js";
import { ruleModule } from "./dispatch.js";
import { type Hit, operands, optionValue, pushHit } from "./types.js";
import { gradedHit, targetTier, tierWord } from "./targets.js";

/**
 * Database clients told to destroy data: `dropdb`, `DROP DATABASE`/`DROP SCHEMA` through
 * `psql -c` or `mysql -e`, `redis-cli FLUSHALL`, `dropDatabase()` through `mongosh --eval`.
 * Dropping a scratch table or flushing a test cache on localhost is routine; the target's names
 * (host, database, connection-string variable) grade the rest (see targets.ts). Every argument
 * is read as a name: hosts, databases and URLs are all where environments are named.
 */

/** Statements that remove a whole database or schema. */
const DROP_SCOPE = /\bdrop\s{1,20}(database|schema|keyspace)\b/i;
/** Statements that remove a table's data: `DROP TABLE`, `TRUNCATE`, `DELETE FROM t` with no `WHERE`. */
const DROP_TABLE = /\b(drop\s{1,20}table|truncate)\b/i;
const DELETE_ALL = /\bdelete\s{1,20}from\s{1,20}[\w."]{1,100}\s{0,20}(;|$)/i;

export const databasePatterns: readonly RegExp[] = [DROP_SCOPE, DROP_TABLE, DELETE_ALL];

const SQL_CLIENTS: ReadonlyMap<string, readonly string[]> = new Map([
  ["psql", ["-c", "--command"]],
  ["mysql", ["-e", "--execute"]],
  ["mariadb", ["-e", "--execute"]],
  ["sqlcmd", ["-Q", "-q"]],
  ["clickhouse-client", ["-q", "--query"]],
  ["cqlsh", ["-e", "--execute"]],
]);

/** The SQL a client runs: its `-c`/`-e` option, or a here-string or here-document fed to it. */
function statementOf(inv: Invocation, options: readonly string[]): string | undefined {
  const option = optionValue(inv.args, options);
  if (option !== undefined) return option;
  for (const r of inv.redirects) if (r.body !== undefined && r.op.startsWith("<<")) return r.body;
  return undefined;
}

function sql(inv: Invocation, piped?: string): Hit | undefined {
  const options = SQL_CLIENTS.get(inv.name);
  if (options === undefined) return undefined;
  const statement = piped ?? statementOf(inv, options);
  if (statement === undefined) return undefined;
  const tier = targetTier(inv.args);
  if (DROP_SCOPE.test(statement)) {
    return gradedHit(
      inv,
      "sql-drop-database",
      tier,
      Severity.MEDIUM,
      0.75,
      `drops a ${tierWord(tier)}database or schema`,
    );
  }
  if (DROP_TABLE.test(statement) || DELETE_ALL.test(statement)) {
    return gradedHit(
      inv,
      "sql-drop-table",
      tier,
      Severity.LOW,
      0.75,
      `removes a ${tierWord(tier)}table's data`,
    );
  }
  return undefined;
}

function dropdb(inv: Invocation): Hit | undefined {
  if (inv.name !== "dropdb" && !(inv.name === "mysqladmin" && operands(inv.args).includes("drop")))
    return undefined;
  const tier = targetTier(inv.args);
  return gradedHit(inv, "drop-database", tier, Severity.MEDIUM, 0.75, `drops a ${tierWord(tier)}database`);
}

function redis(inv: Invocation): Hit | undefined {
  if (inv.name !== "redis-cli") return undefined;
  const ops = operands(inv.args).map((o) => o.toUpperCase());
  const flushAll = ops.includes("FLUSHALL");
  if (!flushAll && !ops.includes("FLUSHDB")) return undefined;
  // Without -h, -u or a URL the client talks to localhost.
  const host = optionValue(inv.args, ["-h", "-u"]);
  const tier = targetTier(host === undefined ? ["localhost", ...inv.args] : inv.args);
  return gradedHit(
    inv,
    "redis-flush",
    tier,
    flushAll ? Severity.MEDIUM : Severity.LOW,
    0.75,
    `empties ${flushAll ? "every database of " : "a database of "}a ${tierWord(tier)}Redis server`,
  );
}

const MONGO_DROP = /\.drop(Database)?\(\)/;

function mongo(inv: Invocation): Hit | undefined {
  if (inv.name !== "mongosh" && inv.name !== "mongo") return undefined;
  const code = optionValue(inv.args, ["--eval"]);
  if (code === undefined || !MONGO_DROP.test(code)) return undefined;
  const tier = targetTier(inv.args.filter((a) => a !== code));
  return code.includes("dropDatabase")
    ? gradedHit(
        inv,
        "mongo-drop-database",
        tier,
        Severity.MEDIUM,
        0.75,
        `drops a ${tierWord(tier)}MongoDB database`,
      )
    : gradedHit(
        inv,
        "mongo-drop-collection",
        tier,
        Severity.LOW,
        0.75,
        `drops a ${tierWord(tier)}MongoDB collection`,
      );
}

/** `echo 'DROP DATABASE app' | psql "$URL"`: SQL printed into a client's input. */
function pipedSql(analysis: Analysis, hits: Hit[]): void {
  for (const p of analysis.pipelines) {
    const members = p.invocations;
    for (let k = 1; k < members.length; k++) {
      const client = members[k]!;
      const source = members[k - 1]!;
      // The source first: comparing two names is cheaper than hashing the client's, and most are neither.
      if ((source.name !== "echo" && source.name !== "printf") || !SQL_CLIENTS.has(client.name)) continue;
      pushHit(hits, sql(client, source.args.join(" ")));
    }
  }
}

export const databases = ruleModule({
  name: "databases",
  after: pipedSql,
  // SQL is piped into one of the clients.
  hooksNeed: [...SQL_CLIENTS.keys()],
  commands: [
    { programs: [...SQL_CLIENTS.keys()], check: (inv, hits) => pushHit(hits, sql(inv)) },
    { programs: ["dropdb", "mysqladmin"], check: (inv, hits) => pushHit(hits, dropdb(inv)) },
    { programs: ["redis-cli"], check: (inv, hits) => pushHit(hits, redis(inv)) },
    { programs: ["mongosh", "mongo"], check: (inv, hits) => pushHit(hits, mongo(inv)) },
  ],
});
