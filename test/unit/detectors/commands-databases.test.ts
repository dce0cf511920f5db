import { describe, expect, it } from "vitest";
import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { commandsDetector } from "../../../src/detectors/commands/index.js";
import { type Verdict, strongestOf, verdictsOf } from "../../helpers/shell-verdicts.js";

/** Findings on `text` as a bash tool call, as `[severity, reason]`. */
function verdicts(text: string): Verdict[] {
  return verdictsOf(commandsDetector, text);
}

function strongest(text: string): Severity {
  return strongestOf(verdicts(text));
}

describe("commands detector: database clients", () => {
  it.each([
    ["dropdb -h prod-db.acme.internal -U postgres production", Severity.HIGH, "drops a production database"],
    ["dropdb app_backups", Severity.HIGH, "drops a production database"],
    ["dropdb -h db.acme.internal app", Severity.MEDIUM, "drops a database"],
    [`psql "$PROD_DATABASE_URL" -c 'DROP SCHEMA public CASCADE'`, Severity.HIGH, "database or schema"],
    [`psql "$PROD_DATABASE_URL" --command="drop  database app"`, Severity.HIGH, "database or schema"],
    [`psql -h db.acme.internal -c 'DROP DATABASE app'`, Severity.MEDIUM, "database or schema"],
    [
      `mysql -h prod-db.acme.internal -u root -p"$PROD_DB_ROOT_PASSWORD" -e 'DROP DATABASE app'`,
      Severity.HIGH,
      "database or schema",
    ],
    [`mysql -h prod-db.acme.internal app -e "TRUNCATE TABLE orders"`, Severity.HIGH, "table's data"],
    [`psql "$PROD_DATABASE_URL" -c 'DELETE FROM users'`, Severity.HIGH, "table's data"],
    [`echo 'DROP DATABASE app;' | psql "$PROD_DATABASE_URL"`, Severity.HIGH, "database or schema"],
    [`printf 'drop schema public cascade;' | psql -h prod-db.acme.internal app`, Severity.HIGH, "schema"],
    [`psql "$PROD_DATABASE_URL" <<< 'DROP SCHEMA public CASCADE'`, Severity.HIGH, "schema"],
    ["mysql -h prod-db.acme.internal <<EOF\nDROP DATABASE app;\nEOF\n", Severity.HIGH, "database or schema"],
    ["mysqladmin -h prod-db.acme.internal -f drop app", Severity.HIGH, "drops a production database"],
    ["redis-cli -h redis.prod.acme.internal FLUSHALL", Severity.HIGH, "Redis"],
    ["redis-cli -u redis://redis.prod.acme.internal:6379 flushdb", Severity.HIGH, "Redis"],
    ["redis-cli -h cache.acme.internal FLUSHALL", Severity.MEDIUM, "Redis"],
    [
      `mongosh "$PROD_MONGO_URI" --eval 'db.getMongo().getDBNames().forEach(function(d){db.getSiblingDB(d).dropDatabase()})'`,
      Severity.HIGH,
      "MongoDB database",
    ],
    [`bash -c "psql \\"\\$PROD_DATABASE_URL\\" -c 'DROP SCHEMA public CASCADE'"`, Severity.HIGH, "schema"],
    [`echo ok | ssh db-admin 'dropdb production'`, Severity.HIGH, "drops a production database"],
    [
      `kubectl exec -n production postgres-0 -- psql -U postgres -c 'DROP DATABASE app'`,
      Severity.MEDIUM,
      "schema",
    ],
  ])("flags %s", (text, severity, reason) => {
    expect(strongest(text), JSON.stringify(verdicts(text))).toBeGreaterThanOrEqual(severity);
    expect(
      verdicts(text)
        .map(([, r]) => r)
        .join(" | "),
    ).toContain(reason);
  });

  it.each([
    "psql -h localhost -U app -d app_dev -c 'DROP TABLE IF EXISTS tmp_import'",
    "psql -h localhost -U postgres -c 'CREATE DATABASE app_test'",
    `psql "$DEV_DATABASE_URL" -c '\\dt'`,
    "psql -h db.acme.internal -c 'DROP TABLE old_sessions'",
    `psql "$STAGING_RO_URL" -c 'EXPLAIN ANALYZE SELECT * FROM invoices WHERE customer_id = 4821'`,
    `psql "$PROD_RO_URL" -c 'SELECT count(*) FROM orders'`,
    `psql "$PROD_DATABASE_URL" -c "DELETE FROM sessions WHERE expires_at < now()"`,
    `mysql -h 127.0.0.1 -u app -p"$MYSQL_DEV_PASSWORD" app_dev -e 'TRUNCATE TABLE session_cache'`,
    "dropdb --if-exists app_test && createdb app_test",
    "dropdb scratch_import",
    "redis-cli -h localhost -n 5 FLUSHDB",
    "redis-cli FLUSHALL",
    "redis-cli -h redis.dev.acme.internal flushall",
    "redis-cli -h redis.prod.acme.internal info memory",
    `mongosh "mongodb://localhost:27017/app_dev" --eval 'db.dropDatabase()'`,
    `mongosh "$MONGO_DEV_URI" --quiet --eval 'db.events.find({type:"signup"}).sort({ts:-1}).limit(5)'`,
    `echo 'SELECT 1' | psql "$PROD_RO_URL"`,
    `echo 'DROP TABLE IF EXISTS tmp_import' | psql -h localhost app_dev`,
    "docker compose exec db psql -U app -d app_dev -c 'DROP SCHEMA public CASCADE'",
  ])("allows %s", (text) => {
    expect(strongest(text), JSON.stringify(verdicts(text))).toBeLessThanOrEqual(Severity.LOW);
  });
});
