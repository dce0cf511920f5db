import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { hashKey } from "../../src/auth/keys.js";
import { parseConfig } from "../../src/config/load.js";
import { SecretBox } from "../../src/crypto/secret-box.js";
import { post } from "../helpers/guard-server.js";
import { postgresReachable, redisReachable, requireOrSkip, TEST_DATABASE_URL, TEST_REDIS_URL } from "../helpers/servers.js";

/**
 * Issue 8's acceptance test: three replicas of the real service (createApp, each with its own
 * data folder) on one PostgreSQL database and one Redis behave as one service. The two halves of
 * steps go to different replicas; the test shows placeholders restored across replicas, sessions
 * continuous, a 600/min key limit exact across them, and every accepted event recorded once.
 *
 * Runs against the machine's servers (GUARD_TEST_DATABASE_URL, GUARD_TEST_REDIS_URL, or loopback)
 * in a database created for the run and dropped after. The organization id is unique per run, so
 * the session keys (`guard:s:{org}:...`) and rate counters (`guard:rl:...{org}...`) of parallel
 * runs never meet; they are deleted at the end. In CI an unreachable server fails the file.
 */
const ADMIN_URL = TEST_DATABASE_URL;
const REDIS_URL = TEST_REDIS_URL;
const [pgOk, redisOk] = await Promise.all([postgresReachable(ADMIN_URL), redisReachable(REDIS_URL)]);
const up = requireOrSkip("replicas", [
  ...(pgOk ? [] : [`PostgreSQL at ${ADMIN_URL}`]),
  ...(redisOk ? [] : [`Redis at ${REDIS_URL}`]),
]);

const RUN = randomBytes(6).toString("hex");
const ORG = `rep_${RUN}`;
const DATABASE = `guard_rep_${RUN}`;
const KEY = `gk_rep_main_${RUN}`;
const BURST_KEY = `gk_rep_burst_${RUN}`;
const LIMIT = 600;

const CONFIG = `
orgs:
  - id: ${ORG}
    subscription: active
    limits: {rate_per_minute: ${LIMIT}, org_rate_per_minute: 0}
    keys:
      - {id: main, sha256: ${hashKey(KEY)}}
      - {id: burst, sha256: ${hashKey(BURST_KEY)}}
`;

const WINDOW_MS = 60_000;

/**
 * The replicas' shared clock: real time, shifted so that `restartWindow` can put the next burst
 * one second into a fresh rate-limit window. It never goes back, so events keep their order.
 */
class WindowClock {
  #anchor = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS + 1_000;
  #startedAt = Date.now();
  readonly now = () => this.#anchor + (Date.now() - this.#startedAt);
  restartWindow(): number {
    this.#anchor = (Math.floor(this.now() / WINDOW_MS) + 1) * WINDOW_MS + 1_000;
    this.#startedAt = Date.now();
    return Math.floor(this.#anchor / WINDOW_MS);
  }
}

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DATABASE}`;
  return url.toString();
}

interface Replica {
  app: App;
  url: string;
  dataDir: string;
}

type Body = Record<string, unknown>;

describe.skipIf(!up)("three replicas on one PostgreSQL and one Redis", () => {
  const clock = new WindowClock();
  const replicas: Replica[] = [];
  let closed = false;
  /** Evaluates answered 200: each must be one row in `events`. */
  let accepted = 0;

  async function evaluate(replica: number, body: Body, query = "", key = KEY) {
    const answer = await post(replicas[replica]!.url, `/v1/evaluate${query}`, body, key);
    if (answer.status === 200) accepted++;
    return answer;
  }

  async function closeAll(): Promise<void> {
    if (closed) return;
    closed = true;
    await Promise.all(replicas.map((r) => r.app.close()));
  }

  beforeAll(async () => {
    await admin(ADMIN_URL, (c) => c.query(`CREATE DATABASE ${DATABASE}`));
    const config = parseConfig(CONFIG);
    // One at a time, as a rolling start would: the migrations run once, under their lock.
    for (let i = 0; i < 3; i++) {
      const dataDir = mkdtempSync(join(tmpdir(), `guard-replica-${i}-`));
      const app = await createApp({
        config,
        dataDir,
        box: new SecretBox(Buffer.alloc(32, 7)),
        databaseUrl: databaseUrl(),
        redisUrl: REDIS_URL,
        whitelistRefreshMs: 60_000,
        now: clock.now,
      });
      replicas.push({ app, dataDir, url: await app.bridge.listen({ host: "127.0.0.1", port: 0 }) });
    }
  });

  afterAll(async () => {
    await closeAll();
    for (const r of replicas) rmSync(r.dataDir, { recursive: true, force: true });
    await admin(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`));
    const redis = createClient({ url: REDIS_URL });
    await redis.connect();
    const doomed: string[] = [];
    for (const pattern of [`guard:s:{${ORG}}:*`, `guard:rl:*{${ORG}}*`]) {
      for await (const keys of redis.scanIterator({ MATCH: pattern, COUNT: 1000 })) doomed.push(...keys);
    }
    for (let i = 0; i < doomed.length; i += 500) await redis.del(doomed.slice(i, i + 500));
    await redis.close();
  });

  it("restores on replica 2 the placeholder minted on replica 1", async () => {
    const stepId = `mail-${RUN}`;
    const request = await evaluate(
      0,
      chatEvent("step/request", stepId, "agent-mail", [
        { role: "system", content: "You send mail." },
        { role: "user", content: "Write to jane@corp.example about the invoice." },
      ]),
      "?payload=true",
    );
    expect(request.status).toBe(200);
    const redacted = request.body["payload"] as { messages: { content: string }[] };
    expect(redacted.messages[1]?.content).toBe("Write to ${X_EMAIL_1} about the invoice.");

    const response = await evaluate(
      1,
      responseEvent(stepId, "agent-mail", "Sent the invoice to ${X_EMAIL_1}."),
      "?payload=true",
    );
    expect(response.status).toBe(200);
    const restored = response.body["payload"] as { choices: { message: { content: string } }[] };
    expect(restored.choices[0]?.message.content).toBe("Sent the invoice to jane@corp.example.");
  });

  it("keeps a 5-step conversation whose halves alternate replicas in one session", async () => {
    const agent = "agent-conv";
    const messages: Body[] = [
      { role: "system", content: "You are a coding agent." },
      { role: "user", content: "Fix the failing build." },
    ];
    for (let step = 1; step <= 5; step++) {
      const stepId = `conv-${RUN}-${step}`;
      const request = await evaluate(step % 3, chatEvent("step/request", stepId, agent, messages));
      expect(request.status).toBe(200);
      const response = await evaluate((step + 1) % 3, responseEvent(stepId, agent, null, `call_${step}`));
      expect(response.status).toBe(200);
      messages.push(
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: `call_${step}`,
              type: "function",
              function: { name: "bash", arguments: `{"command":"make ${step}"}` },
            },
          ],
        },
        { role: "tool", tool_call_id: `call_${step}`, content: `build output ${step}` },
      );
    }
    await Promise.all(replicas.map((r) => r.app.store.flush()));
    const events = (await replicas[0]!.app.store.recentEvents(ORG, 100))
      .filter((e) => e.agent_id === agent)
      .reverse();
    expect(events).toHaveLength(10);
    const sessions = new Set(events.map((e) => e.session?.session_id));
    expect(sessions.size).toBe(1);
    const requests = events.filter((e) => e.kind === "step/request");
    const responses = events.filter((e) => e.kind === "step/response");
    expect(requests.map((e) => [e.session?.turn_index, e.session?.step_index])).toEqual([
      [1, 1],
      [1, 2],
      [1, 3],
      [1, 4],
      [1, 5],
    ]);
    expect(requests.map((e) => e.session?.attach_method)).toEqual([
      "new",
      "prefix",
      "prefix",
      "prefix",
      "prefix",
    ]);
    expect(responses.every((e) => e.session?.paired === true && e.session.attach_method === "step_id")).toBe(
      true,
    );
    // Every replica's tracker reads the same state: the session is listed whole on replica 3.
    const [listed] = await replicas[2]!.app.sessions.state
      .listSessions(ORG, 10)
      .then((all) => all.filter((s) => s.agentId === agent));
    expect(listed).toMatchObject({ stepCount: 5, eventCount: 10, turnCount: 1 });
  });

  it("holds a 600/min key limit exactly across the replicas", async () => {
    const window = clock.restartWindow();
    const statuses: number[] = [];
    const total = LIMIT + 50;
    const batch = 24;
    for (let sent = 0; sent < total; sent += batch) {
      const answers = await Promise.all(
        Array.from({ length: Math.min(batch, total - sent) }, (_, i) => {
          const n = sent + i;
          const body = chatEvent("step/request", `burst-${RUN}-${n}`, `agent-burst-${n % 12}`, [
            { role: "system", content: "You help." },
            { role: "user", content: `request ${n}` },
          ]);
          return evaluate(n % 3, body, "", BURST_KEY);
        }),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    // The burst must have stayed inside the window it started in, or the count proves nothing.
    expect(Math.floor(clock.now() / WINDOW_MS), "burst crossed a minute boundary").toBe(window);
    const tally: Record<number, number> = {};
    for (const status of statuses) tally[status] = (tally[status] ?? 0) + 1;
    console.log(`burst of ${total} over 3 replicas: ${JSON.stringify(tally)}`);
    expect(tally).toEqual({ 200: LIMIT, 429: total - LIMIT });
  });

  it("records every accepted event exactly once", async () => {
    await closeAll();
    const counted = await admin(databaseUrl(), (c) =>
      c.query<{ rows: string; ids: string }>(
        "SELECT count(*) AS rows, count(DISTINCT event_id) AS ids FROM events WHERE org_id = $1",
        [ORG],
      ),
    );
    console.log(`accepted evaluates ${accepted}, event rows ${counted.rows[0]?.rows}`);
    expect(accepted).toBe(2 + 10 + LIMIT);
    expect(Number(counted.rows[0]?.rows)).toBe(accepted);
    expect(Number(counted.rows[0]?.ids)).toBe(accepted);
  });
});

function chatEvent(kind: "step/request", stepId: string, agentId: string, messages: Body[]): Body {
  return {
    kind,
    step_id: stepId,
    agent_id: agentId,
    agent_type: "coder",
    agent_workspace: "",
    agent_user: "",
    llm_protocol: "vendor_a.chat",
    payload: { model: "model-x", messages },
  };
}

function responseEvent(stepId: string, agentId: string, content: string | null, callId?: string): Body {
  return {
    kind: "step/response",
    step_id: stepId,
    agent_id: agentId,
    agent_type: "coder",
    agent_workspace: "",
    agent_user: "",
    llm_protocol: "vendor_a.chat",
    payload: {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: "model-x",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content,
            ...(callId
              ? {
                  tool_calls: [
                    {
                      id: callId,
                      type: "function",
                      function: { name: "bash", arguments: '{"command":"make"}' },
                    },
                  ],
                }
              : {}),
          },
          finish_reason: callId ? "tool_calls" : "stop",
        },
      ],
    },
  };
}
