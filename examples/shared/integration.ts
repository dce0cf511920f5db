import type { Dialect } from "./dialect.js";
import { type Fetch, GuardClient } from "./guard-client.js";
import { type FailMode, guardedFetch, type StepRecord } from "./guarded-fetch.js";
import { HeartbeatTimer } from "./heartbeat.js";
import type { ToolRun, Tools } from "./tools.js";
import type { Identity } from "./verdict.js";

/** What both example agents are configured with. */
export interface AgentOptions {
  /** Guard's base URL (with any deployment prefix) and organization key. */
  readonly guardUrl: string;
  readonly guardApiKey: string;
  /** The provider's base URL, as the SDK's `baseURL`; the examples point it at their mock. */
  readonly modelBaseUrl: string;
  readonly model?: string;
  readonly identity: Identity;
  readonly tools: Tools;
  /** Ask the provider for a streamed reply; Guard still judges it once, whole. */
  readonly stream?: boolean;
  readonly failMode?: FailMode;
  /** Caller evaluate time-out; spec 8's minimal integration uses 5 s. */
  readonly evaluateTimeoutMs?: number;
  readonly heartbeatIntervalMs?: number;
  /** Model calls one run may make before it gives up. */
  readonly maxSteps?: number;
  /** HTTP client for Guard (not the model); defaults to the global fetch. */
  readonly guardFetch?: Fetch;
}

export interface RunResult {
  /** The text the agent ends with, as its user would see it. */
  readonly answer: string;
  readonly toolRuns: readonly ToolRun[];
  readonly steps: readonly StepRecord[];
}

export interface Integration {
  readonly guard: GuardClient;
  readonly heartbeat: HeartbeatTimer;
  /** Every model call this agent made, in order. */
  readonly steps: StepRecord[];
  /** The `fetch` to hand the provider SDK. */
  readonly fetch: Fetch;
  /** Stops the heartbeat timer after one last beat. */
  close(): Promise<void>;
}

/**
 * The Guard side of an agent, independent of the provider: the client, the heartbeat timer
 * (started here, so an idle agent is visible from its first second) and the guarded fetch.
 */
export function createIntegration(options: AgentOptions, dialect: Dialect, integration: string): Integration {
  const guard = new GuardClient({
    baseUrl: options.guardUrl,
    apiKey: options.guardApiKey,
    integration,
    ...(options.evaluateTimeoutMs !== undefined ? { timeoutMs: options.evaluateTimeoutMs } : {}),
    ...(options.guardFetch ? { fetch: options.guardFetch } : {}),
  });
  const heartbeat = new HeartbeatTimer(
    guard,
    options.identity.agent_id,
    options.heartbeatIntervalMs ?? 30_000,
  );
  heartbeat.start();
  const steps: StepRecord[] = [];
  const fetch = guardedFetch({
    guard,
    dialect,
    identity: options.identity,
    steps,
    ...(options.failMode ? { failMode: options.failMode } : {}),
  });
  return { guard, heartbeat, steps, fetch, close: () => heartbeat.stop() };
}
