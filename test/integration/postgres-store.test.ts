import { createHash, randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../src/store/postgres/migrate.js";
import { defaultMigrationsDir, readMigrations } from "../../src/store/postgres/migrations.js";
import { PostgresStore, StoreCloseError } from "../../src/store/postgres/postgres-store.js";
import type { AgentRecord, EventRecord } from "../../src/store/records.js";
import { postgresReachable, requireOrSkip, TEST_DATABASE_URL } from "../helpers/servers.js";
import { queryDatabase, TestDatabases } from "../helpers/databases.js";
import { sleep } from "../helpers/wait.js";

/**
 * Runs against the machine's PostgreSQL (GUARD_TEST_DATABASE_URL, or the loopback server), each
 * run in databases of its own that are dropped afterwards, so parallel runs never meet.
 * In CI an unreachable server fails the file instead of skipping it.
 */
const ADMIN_URL = TEST_DATABASE_URL;
const up = requireOrSkip("postgres-store", (await postgresReachable(ADMIN_URL)) ? [] : [`PostgreSQL at ${ADMIN_URL}`]);

const databases = new TestDatabases("guard_test", ADMIN_URL);
const query = queryDatabase;

const sha = (body: Buffer) => createHash("sha256").update(body).digest("hex");

let seq = 0;
function event(orgId: string, body: Buffer, overrides: Partial<EventRecord> = {}): EventRecord {
  seq++;
  return {
    event_id: `ev_${randomBytes(8).toString("hex")}`,
    received_at: new Date(Date.UTC(2025, 0, 1, 0, 0, 0, seq)).toISOString(),
    org_id: orgId,
    key_id: "key_1",
    kind: "request",
    step_id: `step_${seq}`,
    agent_id: "agent_1",
    agent_id_derived: false,
    agent_type: "coder",
    agent_user: "alice",
    workspace: "default",
    llm_protocol: "openai-chat",
    payload_sha256: sha(body),
    payload_bytes: body.length,
    verdict: { decision: "allow", findings: [] },
    ...overrides,
  };
}

function agent(orgId: string, agentId: string, workspace: string): AgentRecord {
  return {
    org_id: orgId,
    agent_id: agentId,
    workspace,
    agent_type: "coder",
    first_seen: "2025-01-01T00:00:00.000Z",
  };
}

describe.skipIf(!up)("PostgresStore", () => {
  let url: string;
  let store: PostgresStore;

  beforeAll(async () => {
    url = await databases.fresh();
    store = await PostgresStore.open(url);
  });

  afterAll(async () => {
    await store?.close();
    await databases.dropAll();
  });

  it("migrates once when several replicas open at the same moment, and again finds nothing to do", async () => {
    const fresh = await databases.fresh();
    const opened = await Promise.all([PostgresStore.open(fresh), PostgresStore.open(fresh), migrate(fresh)]);
    await Promise.all([opened[0].close(), opened[1].close()]);
    const files = readMigrations();
    const rows = await query<{ version: number }>(
      fresh,
      "SELECT version FROM guard_schema_migrations ORDER BY version",
    );
    expect(rows.map((r) => r.version)).toEqual(files.map((m) => m.version));
    const again = await migrate(fresh);
    expect(again.applied).toEqual([]);
    expect(again.current).toBe(files.at(-1)?.version);
  });

  it("applies a new migration in order and refuses one edited after it was applied", async () => {
    const fresh = await databases.fresh();
    const dir = mkdtempSync(join(tmpdir(), "guard-migrations-"));
    try {
      cpSync(defaultMigrationsDir(), dir, { recursive: true });
      const shipped = readMigrations(dir).map((m) => m.version);
      const top = shipped.at(-1)!;
      const next = String(top + 1).padStart(3, "0");
      const after = String(top + 2).padStart(3, "0");
      expect((await migrate(fresh, { migrationsDir: dir })).applied).toEqual(shipped);
      writeFileSync(join(dir, `${next}_extra.sql`), "CREATE TABLE extra (id integer PRIMARY KEY);");
      expect(await migrate(fresh, { migrationsDir: dir })).toEqual({ applied: [top + 1], current: top + 1 });
      writeFileSync(join(dir, `${next}_extra.sql`), "CREATE TABLE extra (id bigint PRIMARY KEY);");
      await expect(migrate(fresh, { migrationsDir: dir })).rejects.toThrow(/edited after it was applied/);
      writeFileSync(join(dir, `${next}_extra.sql`), "CREATE TABLE extra (id integer PRIMARY KEY);");
      writeFileSync(
        join(dir, `${after}_broken.sql`),
        "CREATE TABLE half (id integer); CREATE TABLE broken (;",
      );
      await expect(migrate(fresh, { migrationsDir: dir })).rejects.toThrow(
        new RegExp(`${after}_broken.sql failed`),
      );
      const versions = await query<{ version: number }>(fresh, "SELECT version FROM guard_schema_migrations");
      expect(versions.map((r) => r.version).sort((a, b) => a - b)).toEqual([...shipped, top + 1]);
      // The failed migration's transaction took its first statement with it.
      expect(await query(fresh, "SELECT 1 FROM pg_tables WHERE tablename = 'half'")).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads events back newest first, each organization seeing only its own", async () => {
    const body = Buffer.from('{"messages":[]}');
    const a = [event("org_a", body), event("org_a", body), event("org_a", body)];
    const b = [event("org_b", body)];
    for (const e of [a[0], b[0], a[1], a[2]]) await store.recordEvent(e!, body);
    const readA = await store.recentEvents("org_a", 10);
    expect(readA.map((e) => e.event_id)).toEqual([a[2]!.event_id, a[1]!.event_id, a[0]!.event_id]);
    expect(readA[0]).toEqual(a[2]);
    expect((await store.recentEvents("org_a", 2)).length).toBe(2);
    expect((await store.recentEvents("org_b", 10)).map((e) => e.event_id)).toEqual([b[0]!.event_id]);
    expect(await store.recentEvents("org_none", 10)).toEqual([]);
  });

  it("stores a repeated body once and keeps its exact bytes", async () => {
    const body = Buffer.from(
      `{"messages":[{"role":"user","content":"${randomBytes(8).toString("hex")}"}]}  `,
    );
    await Promise.all([1, 2, 3].map(() => store.recordEvent(event("org_p", body), body)));
    await store.flush();
    await store.recordEvent(event("org_p", body), body);
    const replica = await PostgresStore.open(url);
    await replica.recordEvent(event("org_p", body), body);
    await Promise.all([store.flush(), replica.close()]);
    const rows = await query<{ body: Buffer; bytes: number }>(
      url,
      "SELECT body, bytes FROM payloads WHERE sha256 = $1",
      [sha(body)],
    );
    expect(rows.length).toBe(1);
    expect(rows[0]!.body.equals(body)).toBe(true);
    expect(rows[0]!.bytes).toBe(body.length);
    const refs = await query<{ n: string }>(
      url,
      "SELECT count(*) AS n FROM events WHERE payload_sha256 = $1",
      [sha(body)],
    );
    expect(refs[0]!.n).toBe("5");
  });

  it("keeps an agent's first placement, also against claims racing from another replica", async () => {
    expect(await store.claimAgent(agent("org_g", "a1", "first"))).toEqual(agent("org_g", "a1", "first"));
    expect(await store.claimAgent(agent("org_g", "a1", "second"))).toEqual(agent("org_g", "a1", "first"));
    const replica = await PostgresStore.open(url);
    expect(await replica.claimAgent(agent("org_g", "a1", "third"))).toEqual(agent("org_g", "a1", "first"));
    const raced = await Promise.all([
      store.claimAgent(agent("org_g", "a2", "left")),
      replica.claimAgent(agent("org_g", "a2", "right")),
    ]);
    expect(raced[0]).toEqual(raced[1]);
    await replica.close();
    const agents = (await store.loadAgents()).filter((a) => a.org_id === "org_g");
    expect(agents).toEqual([agent("org_g", "a1", "first"), raced[0]]);
  });

  it("claims placeholders: one token per value, ordinals per kind, agreed across replicas", async () => {
    const claim = (agent: string, kind: string, mac: string) =>
      ({ org_id: "org_h", agent_id: agent, kind, value_mac: mac, sealed: `sealed-${mac}` }) as const;
    expect(await store.claimPlaceholder(claim("a1", "EMAIL", "m1"))).toBe("${X_EMAIL_1}");
    expect(await store.claimPlaceholder(claim("a1", "EMAIL", "m1"))).toBe("${X_EMAIL_1}");
    expect(await store.claimPlaceholder(claim("a1", "PHONE", "m2"))).toBe("${X_PHONE_1}");
    expect(await store.claimPlaceholder(claim("a2", "EMAIL", "m1"))).toBe("${X_EMAIL_1}");
    // Two replicas claiming new values of one agent at once never mint the same token twice.
    const replica = await PostgresStore.open(url);
    const tokens = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? store : replica).claimPlaceholder(claim("a1", "EMAIL", `race-${i}`))),
    );
    expect(new Set(tokens).size).toBe(20);
    expect(await replica.claimPlaceholder(claim("a1", "EMAIL", "race-3"))).toBe(tokens[3]);
    expect(await replica.findPlaceholder("org_h", "a1", "${X_EMAIL_1}")).toMatchObject({ sealed: "sealed-m1", kind: "EMAIL", ordinal: 1 });
    expect(await replica.findPlaceholder("org_other", "a1", "${X_EMAIL_1}")).toBeUndefined();
    await replica.close();
  });

  it("records audits (read back newest first) and heartbeats", async () => {
    const audit = {
      at: "2025-01-01T00:00:01.000Z",
      org_id: "org_au",
      key_id: "key_1",
      action: "identity_refused" as const,
      field: "workspace",
      asserted: "x",
      expected: "y",
    };
    await store.recordAudit(audit);
    await store.recordAudit({ ...audit, at: "2025-01-01T00:00:02.000Z", field: "agent_id" });
    await store.recordHeartbeat({
      at: audit.at,
      org_id: "org_au",
      key_id: "key_1",
      integration: "sdk",
      interval_s: 30,
      counters: { sent: 3 },
    });
    const audits = await store.recentAudits("org_au", 10);
    expect(audits.map((a) => a.field)).toEqual(["agent_id", "workspace"]);
    expect(audits[1]).toEqual(audit);
    const beats = await query(
      url,
      "SELECT counters, interval_s, agent_id FROM heartbeats WHERE org_id = 'org_au'",
    );
    expect(beats).toEqual([{ counters: { sent: 3 }, interval_s: 30, agent_id: null }]);
  });

  it("writes whitelist changes through and replays them in order", async () => {
    const change = { at: "2025-01-01T00:00:00.000Z", org_id: "org_w", fp: "fp1", op: "add" as const };
    await store.recordWhitelist({ ...change, note: "known test key" });
    await store.recordWhitelist({ ...change, fp: "fp2" });
    await store.recordWhitelist({ ...change, op: "remove" });
    const replica = await PostgresStore.open(url);
    try {
      const loaded = (await replica.loadWhitelist()).filter((r) => r.org_id === "org_w");
      expect(loaded).toEqual([
        { ...change, note: "known test key" },
        { ...change, fp: "fp2" },
        { ...change, op: "remove" },
      ]);
    } finally {
      await replica.close();
    }
  });

  it("stores text PostgreSQL cannot hold (U+0000) with the character replaced instead of failing forever", async () => {
    const body = Buffer.from('{"a":"\\u0000"}');
    const e = event("org_nul", body, {
      agent_user: "ali\u0000ce",
      verdict: { "k\u0000": "v\u0000", "\\u0000": 1 },
    });
    await store.recordEvent(e, body);
    const [read] = await store.recentEvents("org_nul", 1);
    expect(read?.agent_user).toBe("ali\uFFFDce");
    expect(read?.verdict).toEqual({ "k\uFFFD": "v\uFFFD", "\\u0000": 1 });
  });

  it("parks a record PostgreSQL refuses for its content and writes the rest of its batch", async () => {
    const body = Buffer.from('{"ok":true}');
    const bad = event("org_q", body, { received_at: "not a time" });
    const good = [event("org_q", body), event("org_q", body)];
    const before = store.stats();
    await Promise.all([
      store.recordEvent(good[0]!, body),
      store.recordEvent(bad, body),
      store.recordEvent(good[1]!, body),
    ]);
    const read = await store.recentEvents("org_q", 10);
    expect(read.map((e) => e.event_id).sort()).toEqual(good.map((e) => e.event_id).sort());
    const parked = await query<{ kind: string; sqlstate: string; record: string }>(
      url,
      "SELECT kind, sqlstate, record FROM guard_write_failures WHERE op_id = $1",
      [bad.event_id],
    );
    expect(parked.length).toBe(1);
    expect(parked[0]?.sqlstate).toBe("22007");
    expect(JSON.parse(parked[0]!.record).payload_base64).toBe(body.toString("base64"));
    const after = store.stats();
    expect(after.quarantined - before.quarantined).toBe(1);
    expect(after.written - before.written).toBe(2);
  });

  it("loses nothing across a close: everything accepted is written before close resolves", async () => {
    const fresh = await databases.fresh();
    const writer = await PostgresStore.open(fresh, { batchSize: 100, maxQueued: 500 });
    const bodies = Array.from({ length: 50 }, (_, i) => Buffer.from(`{"turn":${i}}`));
    for (let i = 0; i < 3_000; i++) {
      const body = bodies[i % bodies.length]!;
      await writer.recordEvent(event("org_close", body), body);
    }
    await writer.claimAgent(agent("org_close", "a", "w"));
    await writer.close();
    expect(writer.stats()).toMatchObject({ accepted: 3_000, written: 3_000, queued: 0, write_errors: 0 });
    const counts = await query(
      fresh,
      `SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM payloads) AS payloads,
              (SELECT count(*) FROM agents) AS agents`,
    );
    expect(counts[0]).toEqual({ events: "3000", payloads: "50", agents: "1" });
    await expect(writer.claimAgent(agent("org_close", "b", "w"))).rejects.toThrow(/closed/);
  });

  it("keeps records queued and counted while the database is unreachable, with back-pressure when full", async () => {
    const unreachable = new URL(url);
    unreachable.port = "1";
    const offline = await PostgresStore.open(unreachable.toString(), {
      migrate: false,
      maxQueued: 5,
      retryMinMs: 10,
      retryMaxMs: 40,
      closeTimeoutMs: 300,
    });
    const body = Buffer.from("{}");
    for (let i = 0; i < 5; i++) await offline.recordEvent(event("org_off", body), body);
    await expect(offline.flush()).rejects.toThrow(/ECONNREFUSED|connect/);
    await sleep(150);
    const stats = offline.stats();
    expect(stats).toMatchObject({ accepted: 5, written: 0, queued: 5 });
    expect(stats.write_errors).toBeGreaterThan(1);
    // The queue is full: a sixth record waits instead of growing the queue or dropping one.
    let sixthQueued = false;
    void offline.recordEvent(event("org_off", body), body).then(() => {
      sixthQueued = true;
    });
    await sleep(100);
    expect(sixthQueued).toBe(false);
    expect(offline.stats()).toMatchObject({ accepted: 6, queued: 5 });
    const closing = offline.close();
    await expect(closing).rejects.toBeInstanceOf(StoreCloseError);
    await expect(closing).rejects.toMatchObject({ unwritten: 5 });
  });
});
