import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type App, createApp } from "../../src/app.js";
import { hashKey } from "../../src/auth/keys.js";
import { parseConfig } from "../../src/config/load.js";
import { SecretBox } from "../../src/crypto/secret-box.js";
import type { DetectorHandle } from "../../src/pipeline/detect.js";

/** Keys of the test configuration, in plain text (only their hashes go into the config). */
export const KEYS = {
  main: "gk_test_main_0123456789abcdef",
  bound: "gk_test_bound_0123456789abcdef",
  revoked: "gk_test_revoked_0123456789abcdef",
  expired: "gk_test_expired_0123456789abcdef",
  small: "gk_test_small_0123456789abcdef",
  unpaid: "gk_test_unpaid_0123456789abcdef",
  orgBudget: "gk_test_orgbudget_0123456789abcdef",
  orgBudget2: "gk_test_orgbudget2_0123456789abcdef",
} as const;

export const TEST_CONFIG = `
orgs:
  - id: acme
    subscription: active
    default_workspace: default
    workspaces: [default, prod]
    limits: {max_request_bytes: 1048576, rate_per_minute: 600, org_rate_per_minute: 0,
             media: {image: 1000, audio: 0, document: 0, file: 0, video: 0}, media_parts_max: 4}
    keys:
      - {id: main, sha256: ${hashKey(KEYS.main)}}
      - id: bound
        sha256: ${hashKey(KEYS.bound)}
        workspace: prod
        bound: {agent_id: billing-bot, agent_workspace: prod}
      - {id: revoked, sha256: ${hashKey(KEYS.revoked)}, revoked: true}
      - {id: expired, sha256: ${hashKey(KEYS.expired)}, expires_at: 2020-01-01T00:00:00Z}
  - id: tiny
    subscription: active
    limits: {max_request_bytes: 2048, rate_per_minute: 3}
    keys:
      - {id: small, sha256: ${hashKey(KEYS.small)}}
  - id: shared-budget
    subscription: active
    limits: {rate_per_minute: 100, org_rate_per_minute: 4}
    keys:
      - {id: a, sha256: ${hashKey(KEYS.orgBudget)}}
      - {id: b, sha256: ${hashKey(KEYS.orgBudget2)}}
  - id: lapsed
    subscription: cancelled
    keys:
      - {id: unpaid, sha256: ${hashKey(KEYS.unpaid)}}
`;

export interface RunningGuard {
  readonly url: string;
  readonly app: App;
  readonly dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts the real service on 127.0.0.1 and a free port, with its own data folder (removed at stop
 * unless the caller gave one). `databaseUrl` and `redisUrl` put it on shared servers, as a replica.
 */
export async function startGuard(
  options: {
    basePath?: string;
    config?: string;
    dataDir?: string;
    databaseUrl?: string;
    redisUrl?: string;
    extraDetectors?: readonly DetectorHandle[];
    obligationTtlMs?: number;
  } = {},
): Promise<RunningGuard> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "guard-test-"));
  const app = await createApp({
    config: parseConfig(options.config ?? TEST_CONFIG),
    dataDir,
    box: new SecretBox(Buffer.alloc(32, 7)),
    basePath: options.basePath ?? "",
    extraDetectors: options.extraDetectors ?? [],
    whitelistRefreshMs: 60_000,
    ...(options.obligationTtlMs !== undefined ? { obligationTtlMs: options.obligationTtlMs } : {}),
    ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
    ...(options.redisUrl ? { redisUrl: options.redisUrl } : {}),
  });
  const address = await app.bridge.listen({ host: "127.0.0.1", port: 0 });
  return {
    url: address,
    app,
    dataDir,
    async stop() {
      await app.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A minimal valid event; `overrides` replace or add top-level fields. */
export function chatRequestEvent(userText: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kind: "step/request",
    step_id: `step-${Math.random().toString(36).slice(2)}`,
    agent_id: "agent-1",
    agent_type: "coder",
    agent_workspace: "",
    agent_user: "",
    llm_protocol: "vendor_a.chat",
    payload: {
      model: "model-x",
      messages: [
        { role: "system", content: "You are a helpful assistant." },
        { role: "user", content: userText },
      ],
    },
    ...overrides,
  };
}

export async function post(
  base: string,
  path: string,
  body: unknown,
  key: string | null = KEYS.main,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

export async function get(
  base: string,
  path: string,
  key?: string,
): Promise<{ status: number; body: Record<string, unknown>; contentType: string }> {
  const response = await fetch(`${base}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    contentType: response.headers.get("content-type") ?? "",
  };
}
