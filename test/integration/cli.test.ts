import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { bootstrapLocalOrg } from "../../src/bootstrap.js";
import { SecretBox } from "../../src/crypto/secret-box.js";
import { EmbeddedStore } from "../../src/store/embedded/embedded-store.js";
import { parseConfig } from "../../src/config/load.js";
import { chatRequestEvent, post, TEST_CONFIG } from "../helpers/guard-server.js";
import { postgresReachable, requireOrSkip, TEST_DATABASE_URL } from "../helpers/servers.js";

/**
 * The `guard` CLI as an operator runs it: a child process over a data folder prepared by a real
 * service run (the embedded default: local-org.json, journals), while that service keeps running.
 */
const run = promisify(execFile);
// Each CLI call starts Node with tsx (seconds on a loaded machine) and a test makes up to ten.
vi.setConfig({ testTimeout: 180_000 });
const CLI = join(import.meta.dirname, "../../src/cli/main.ts");
// A GitHub classic token (ghp_ + 36 base62), assembled so the source holds no scannable secret.
const TOKEN = ["ghp_", "Zq7Kx2Lm9Pw4Rt6Yv8Bn3Cd5Fg1Hj0Ks2Xa7"].join("");

let dataDir: string;
let app: App;
let url: string;
let key: string;

async function guard(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", CLI, ...args], {
      env: { ...process.env, GUARD_DATA_DIR: dataDir, GUARD_CONFIG: "", GUARD_DATABASE_URL: "", ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function evaluate(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}/v1/evaluate`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

async function heartbeat(body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${url}/v1/heartbeat`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

async function startService(whitelistRefreshMs = 300): Promise<void> {
  const boot = bootstrapLocalOrg(dataDir);
  app = await createApp({
    config: boot.config,
    dataDir,
    box: new SecretBox(Buffer.alloc(32, 9)),
    whitelistRefreshMs,
  });
  url = await app.bridge.listen({ host: "127.0.0.1", port: 0 });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "guard-cli-"));
  await startService();
  key = readFileSync(join(dataDir, "api-key"), "utf8").trim();
  await evaluate(chatRequestEvent("hello there", { agent_id: "alpha", integration: "sdk-py/1.0", session_hint: "s-1" }));
  await evaluate(chatRequestEvent(`my key is ${TOKEN}`, { agent_id: "beta", integration: "sdk-py/1.0" }));
  await evaluate(chatRequestEvent("plain question", { agent_id: "alpha", agent_type: "coder" }));
  await app.store.flush();
});

afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("guard help and usage", () => {
  it("documents every command and answers usage errors with exit code 2", async () => {
    const help = await guard(["help"]);
    expect(help.code).toBe(0);
    for (const command of ["serve", "migrate", "keys create", "keys list", "keys revoke", "orgs", "workspaces", "whitelist add", "whitelist list", "whitelist remove", "events tail", "sessions", "session <id>", "coverage"])
      expect(help.stdout).toContain(`guard ${command}`);
    expect(help.stdout).toContain("Exit codes");
    const bad = await guard(["events", "tail", "--decision", "maybe"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--decision must be one of allow, block/);
    expect((await guard(["nonsense"])).code).toBe(2);
  });

  it("fails with exit code 1 and one line on stderr", async () => {
    const missing = await guard(["keys", "revoke", "no-such-key"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing.stderr).toMatch(/no key no-such-key/);
  });
});

describe("guard keys", () => {
  it("creates a key shown once, adds it to local-org.json, lists it without the key, revokes it", async () => {
    const created = await guard(["keys", "create", "--id", "ci-1", "--add", "--expires", "30d", "--json"]);
    expect(created.code).toBe(0);
    const out = JSON.parse(created.stdout) as { key: string; entry: { id: string; sha256: string; expires_at: string } };
    expect(out.key).toMatch(/^gk_live_/);
    expect(Date.parse(out.entry.expires_at)).toBeGreaterThan(Date.now());
    const file = readFileSync(join(dataDir, "local-org.json"), "utf8");
    expect(file).toContain(out.entry.sha256);
    expect(file).not.toContain(out.key);

    const listed = await guard(["keys", "list"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^ORG\s+ID\s+WORKSPACE\s+BOUND\s+EXPIRES\s+STATUS/);
    expect(listed.stdout).toMatch(/local\s+ci-1\s+default\s+-\s+\S+\s+active/);
    expect(listed.stdout).toMatch(/local\s+local-1\s+default/);
    expect(listed.stdout).not.toContain(out.key);
    expect(listed.stdout).not.toContain(key);

    const revoked = await guard(["keys", "revoke", "ci-1"]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(/revoked key ci-1 of org local/);
    const after = JSON.parse((await guard(["keys", "list", "--json"])).stdout) as { id: string; status: string }[];
    expect(after.find((k) => k.id === "ci-1")?.status).toBe("revoked");
    expect(after.find((k) => k.id === "local-1")?.status).toBe("active");
  });

  it("with GUARD_CONFIG prints the line to change and changes nothing", async () => {
    const config = join(dataDir, "guard.yaml");
    const text = `orgs:\n  - id: acme\n    keys:\n      - id: first\n        sha256: ${"a".repeat(64)}\n      - id: second\n        sha256: ${"b".repeat(64)}\n`;
    writeFileSync(config, text);
    const result = await guard(["keys", "revoke", "second"], { GUARD_CONFIG: config });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${config}:6`);
    expect(readFileSync(config, "utf8")).toBe(text);
    const add = await guard(["keys", "create", "--add"], { GUARD_CONFIG: config });
    expect(add.code).toBe(1);
  });
});

describe("guard orgs and workspaces", () => {
  it("lists the organization and the agents placed in its workspace", async () => {
    const orgs = await guard(["orgs"]);
    expect(orgs.stdout).toMatch(/local\s+active\s+default/);
    const workspaces = await guard(["workspaces", "--json"]);
    const rows = JSON.parse(workspaces.stdout) as { org: string; workspace: string; agents: string[] }[];
    expect(rows).toEqual([expect.objectContaining({ org: "local", workspace: "default", agents: ["alpha", "beta"] })]);
  });
});

describe("guard whitelist", () => {
  it("adds, lists and removes a fingerprint; the running service honours it within its refresh", async () => {
    const before = await evaluate(chatRequestEvent(`again ${TOKEN}`, { agent_id: "beta" }));
    const finding = (before["findings"] as { fp: string; category: string; whitelisted?: boolean }[]).find((f) =>
      f.category.startsWith("security.secret_leak"),
    );
    expect(finding?.whitelisted).toBeFalsy();
    const fp = (finding as { fp: string }).fp;

    const added = await guard(["whitelist", "add", fp, "--org", "local", "--note", "test fixture key"]);
    expect(added.code).toBe(0);
    const listed = await guard(["whitelist", "list"]);
    expect(listed.stdout).toMatch(new RegExp(`${fp}\\s+\\S+\\s+test fixture key`));

    await new Promise((resolve) => setTimeout(resolve, 800));
    const after = await evaluate(chatRequestEvent(`again ${TOKEN}`, { agent_id: "beta" }));
    const same = (after["findings"] as { fp: string; whitelisted?: boolean }[]).find((f) => f.fp === fp);
    expect(same?.whitelisted).toBe(true);

    expect((await guard(["whitelist", "remove", fp])).code).toBe(0);
    expect((await guard(["whitelist", "list", "--json"])).stdout.trim()).toBe("[]");
    expect((await guard(["whitelist", "add", "not-a-fingerprint"])).code).toBe(2);
  });
});

describe("guard events tail", () => {
  it("shows recorded events oldest first and filters by agent, decision, kind and time", async () => {
    const all = await guard(["events", "tail", "--limit", "100"]);
    expect(all.code).toBe(0);
    const lines = all.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^RECEIVED\s+ORG\s+AGENT\s+KIND\s+DECISION\s+FINDINGS/);
    expect(lines.length).toBeGreaterThanOrEqual(4);

    const alpha = (await guard(["events", "tail", "--agent", "alpha", "--json"])).stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(alpha).toHaveLength(2);
    expect(alpha.every((e: { agent_id: string }) => e.agent_id === "alpha")).toBe(true);
    expect(alpha[0].received_at <= alpha[1].received_at).toBe(true);

    const allowed = (await guard(["events", "tail", "--decision", "allow", "--limit", "100", "--json"])).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(allowed.length).toBe(lines.length - 1);
    expect((await guard(["events", "tail", "--decision", "block", "--json"])).stdout).toBe("");

    // A detected secret is shown by category and fingerprint, never by its text.
    const beta = await guard(["events", "tail", "--agent", "beta", "--json"]);
    expect(beta.stdout).toContain("security.secret_leak.github_token");
    expect(beta.stdout).not.toContain(TOKEN);

    const integration = await guard(["events", "tail", "--integration", "sdk-py/1.0", "--kind", "step/request", "--json"]);
    expect(integration.stdout.trim().split("\n")).toHaveLength(2);
    expect((await guard(["events", "tail", "--until", "2000-01-01T00:00:00Z", "--json"])).stdout).toBe("");
    expect((await guard(["events", "tail", "--since", "1h", "--limit", "1", "--json"])).stdout.trim().split("\n")).toHaveLength(1);
  });

  it("follows new events until interrupted", async () => {
    const child = execFile(process.execPath, ["--import", "tsx", CLI, "events", "tail", "--follow", "--json", "--limit", "1", "--interval-ms", "100", "--agent", "gamma"], {
      env: { ...process.env, GUARD_DATA_DIR: dataDir, GUARD_CONFIG: "", GUARD_DATABASE_URL: "" },
    });
    let out = "";
    child.stdout?.on("data", (chunk: string) => {
      out += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await evaluate(chatRequestEvent("followed", { agent_id: "gamma" }));
    // Until the follower has printed the event (it may still be starting): a deadline, not a guess.
    for (let i = 0; i < 1200 && !out.includes('"gamma"'); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(out.trim().split("\n").map((l) => JSON.parse(l).agent_id)).toEqual(["gamma"]);
  });
});

describe("guard sessions", () => {
  it("lists sessions from recorded events and shows one with its steps", async () => {
    const sessions = JSON.parse((await guard(["sessions", "--agent", "alpha", "--json"])).stdout) as { session_id: string; agent_id: string; events: number }[];
    expect(sessions.length).toBeGreaterThanOrEqual(1);
    expect(sessions.every((s) => s.agent_id === "alpha")).toBe(true);
    const id = (sessions[0] as { session_id: string }).session_id;
    const table = await guard(["sessions"]);
    expect(table.stdout).toMatch(/^SESSION\s+ORG\s+AGENT\s+TYPE\s+TURNS\s+STEPS\s+EVENTS/);
    const one = await guard(["session", id, "--org", "local"]);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain(`session  ${id}`);
    expect(one.stdout).toMatch(/TURN\s+STEP\s+STEP_ID\s+KINDS\s+ATTACH/);
    const missing = await guard(["session", "nope", "--org", "local"]);
    expect(missing.code).toBe(1);
  });
});

describe("guard coverage", () => {
  it("shows a source silent beyond 3 x interval as missed and reconciles events_sent", async () => {
    await heartbeat({ integration: "sdk-py/1.0", interval_s: 30, counters: { events_sent: 5, evaluate_errors: 1 } });
    await heartbeat({ integration: "fresh/2.0", interval_s: 3600, counters: { events_sent: 0 } });
    await app.store.flush();
    // Backdate one source by appending an older beat of a third integration to the journal itself.
    const old = new Date(Date.now() - 10 * 60_000).toISOString();
    const store = EmbeddedStore.open(dataDir);
    await store.recordHeartbeat({ at: old, org_id: "local", key_id: "local-1", integration: "stale/0.1", interval_s: 60 });
    await store.close();

    const rows = JSON.parse((await guard(["coverage", "--json"])).stdout) as {
      integration: string;
      state: string;
      missed_beats: number;
      reconciliation?: { events_sent: number; events_recorded: number; gap: number };
    }[];
    const stale = rows.find((r) => r.integration === "stale/0.1");
    expect(stale).toMatchObject({ state: "missed", missed_beats: 10 });
    const sdk = rows.find((r) => r.integration === "sdk-py/1.0");
    expect(sdk?.state).toBe("ok");
    // Five reported, two recorded: three events never reached Guard.
    expect(sdk?.reconciliation).toEqual(expect.objectContaining({ events_sent: 5, events_recorded: 2, gap: 3 }));
    expect(rows.find((r) => r.integration === "fresh/2.0")?.state).toBe("ok");

    const table = await guard(["coverage"]);
    expect(table.stdout).toMatch(/stale\/0\.1\s.*MISSED\s+10/);
    expect(table.stdout).toContain('This is not "no risk"');
    expect(table.stdout).toContain("GAP > 0");
  });
});

/**
 * The same commands over PostgreSQL (the store many replicas share): the machine's server, a
 * database of this run's own, dropped afterwards. In CI an unreachable server fails instead of skipping.
 */
const ADMIN_URL = TEST_DATABASE_URL;
const pgUp = requireOrSkip("cli over PostgreSQL", (await postgresReachable(ADMIN_URL)) ? [] : [`PostgreSQL at ${ADMIN_URL}`]);

describe.skipIf(!pgUp)("guard over PostgreSQL", () => {
  const name = `guard_cli_${randomBytes(5).toString("hex")}`;
  let pgApp: App;
  let pgUrl: string;
  let databaseUrl: string;
  let configFile: string;

  async function admin(sql: string): Promise<void> {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  const pgGuard = (args: string[]) => guard(args, { GUARD_DATABASE_URL: databaseUrl, GUARD_CONFIG: configFile });

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${name}`);
    const u = new URL(ADMIN_URL);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    configFile = join(dataDir, "pg-guard.yaml");
    writeFileSync(configFile, TEST_CONFIG);
    pgApp = await createApp({ config: parseConfig(TEST_CONFIG), dataDir, box: new SecretBox(Buffer.alloc(32, 4)), databaseUrl, whitelistRefreshMs: 300 });
    pgUrl = await pgApp.bridge.listen({ host: "127.0.0.1", port: 0 });
    for (const agent of ["p1", "p1", "p2"])
      expect((await post(pgUrl, "/v1/evaluate", chatRequestEvent(`hi from ${agent}`, { agent_id: agent, integration: "pg-sdk/1" }))).status).toBe(200);
    expect((await post(pgUrl, "/v1/heartbeat", { integration: "pg-sdk/1", interval_s: 30, counters: { events_sent: 4 } })).status).toBe(200);
    expect((await post(pgUrl, "/v1/heartbeat", { integration: "pg-quiet/1", interval_s: 1, counters: { events_sent: 0 } })).status).toBe(200);
    await pgApp.store.flush();
  });

  afterAll(async () => {
    await pgApp?.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it("migrate finds the schema current", async () => {
    const result = await pgGuard(["migrate"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/schema already current \(version \d+\)/);
  });

  it("tails events with filters, lists sessions and workspaces", async () => {
    const p1 = (await pgGuard(["events", "tail", "--org", "acme", "--agent", "p1", "--json"])).stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(p1.map((e: { agent_id: string }) => e.agent_id)).toEqual(["p1", "p1"]);
    expect((await pgGuard(["events", "tail", "--integration", "pg-sdk/1", "--kind", "step/response", "--json"])).stdout).toBe("");
    const sessions = JSON.parse((await pgGuard(["sessions", "--org", "acme", "--json"])).stdout) as { session_id: string }[];
    expect(sessions.length).toBeGreaterThanOrEqual(1);
    const detail = await pgGuard(["session", (sessions[0] as { session_id: string }).session_id, "--org", "acme", "--json"]);
    expect(detail.code).toBe(0);
    const workspaces = JSON.parse((await pgGuard(["workspaces", "--org", "acme", "--json"])).stdout) as { workspace: string; agents: string[] }[];
    expect(workspaces.find((w) => w.workspace === "default")?.agents).toEqual(["p1", "p2"]);
  });

  it("reports coverage from the trigger-kept sources and reconciles events_sent", async () => {
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    const rows = JSON.parse((await pgGuard(["coverage", "--org", "acme", "--json"])).stdout) as {
      integration: string;
      state: string;
      reconciliation?: { events_recorded: number; gap: number };
    }[];
    expect(rows.find((r) => r.integration === "pg-sdk/1")).toMatchObject({ state: "ok", reconciliation: { events_recorded: 3, gap: 1 } });
    expect(rows.find((r) => r.integration === "pg-quiet/1")?.state).toBe("missed");
  });

  it("whitelists through the database for every replica", async () => {
    const fp = "c".repeat(64);
    expect((await pgGuard(["whitelist", "add", fp, "--org", "acme", "--note", "pg"])).code).toBe(0);
    expect((await pgGuard(["whitelist", "list", "--org", "acme"])).stdout).toMatch(new RegExp(`${fp}\\s+\\S+\\s+pg`));
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(pgApp.whitelist.has("acme", fp)).toBe(true);
  });
});
