import { Counters } from "./counters.js";
import { eventJson } from "./raw-json.js";
import type { EventKind, Identity, LlmProtocol, Verdict } from "./verdict.js";

/** The minimal integration's caller time-out (spec 8): past it the step proceeds unjudged. */
export const DEFAULT_EVALUATE_TIMEOUT_MS = 5_000;

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface GuardClientOptions {
  /** Base URL including any deployment prefix (spec 4: never hard-code one). */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** `name/version` of this integration, sent on every event and heartbeat. */
  readonly integration: string;
  readonly timeoutMs?: number;
  /** The HTTP client for Guard itself; defaults to the global fetch. */
  readonly fetch?: Fetch;
}

export interface EvaluateInput {
  readonly kind: EventKind;
  readonly stepId: string;
  readonly protocol: LlmProtocol;
  readonly identity: Identity;
  readonly sessionHint?: string;
  /** The provider body exactly as sent or received (plus at most a `timing` key). */
  readonly rawPayload: string;
}

/** Why no verdict came back; every one of these is an outage to the caller (spec 4.1). */
export type NoVerdictReason = "timeout" | "network" | "rate_limited" | "server_error" | "refused";

export type EvaluateOutcome =
  | { readonly ok: true; readonly verdict: Verdict }
  | { readonly ok: false; readonly reason: NoVerdictReason; readonly status?: number };

/**
 * Guard's HTTP API as one small client. There is no client library (spec 1): this is the
 * whole surface an integration needs. `evaluate` never throws: a time-out, a network error,
 * a 429, a 5xx and any other non-200 answer become `{ok: false}`, which the caller turns
 * into its fail mode, and each is counted in `evaluate_errors` so the next heartbeat tells
 * the service that this integration ran degraded. A 400 or 401 is counted the same way
 * rather than thrown: a broken key must not take the agent down, and the counter (plus the
 * refused heartbeats) is what makes it visible to the operator.
 */
export class GuardClient {
  readonly counters = new Counters();
  readonly #options: GuardClientOptions;
  readonly #fetch: Fetch;

  constructor(options: GuardClientOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  get integration(): string {
    return this.#options.integration;
  }

  /** POST /v1/evaluate?payload=true: the verdict plus the fixed body (spec 4.1). */
  async evaluate(input: EvaluateInput): Promise<EvaluateOutcome> {
    const envelope = {
      kind: input.kind,
      step_id: input.stepId,
      ...input.identity,
      llm_protocol: input.protocol,
      integration: this.#options.integration,
      ...(input.sessionHint ? { session_hint: input.sessionHint } : {}),
    };
    this.counters.eventsSent += 1;
    const outcome = await this.#post("/v1/evaluate?payload=true", eventJson(envelope, input.rawPayload));
    if (!outcome.ok) this.counters.evaluateErrors += 1;
    return outcome.ok ? { ok: true, verdict: outcome.body as Verdict } : outcome;
  }

  /** POST /v1/heartbeat with the cumulative counters; true when the service took it. */
  async heartbeat(agentId: string, intervalS: number): Promise<boolean> {
    const body = {
      integration: this.#options.integration,
      ...(agentId ? { agent_id: agentId } : {}),
      interval_s: intervalS,
      counters: this.counters.snapshot(),
    };
    return (await this.#post("/v1/heartbeat", JSON.stringify(body))).ok;
  }

  async #post(
    path: string,
    body: string,
  ): Promise<{ ok: true; body: unknown } | { ok: false; reason: NoVerdictReason; status?: number }> {
    const url = `${this.#options.baseUrl.replace(/\/+$/, "")}${path}`;
    // One deadline covers connecting, waiting and reading the answer.
    const signal = AbortSignal.timeout(this.#options.timeoutMs ?? DEFAULT_EVALUATE_TIMEOUT_MS);
    try {
      const response = await this.#fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${this.#options.apiKey}`, "content-type": "application/json" },
        body,
        signal,
      });
      const text = await response.text();
      if (response.status === 200) return { ok: true, body: JSON.parse(text) as unknown };
      const reason =
        response.status === 429 ? "rate_limited" : response.status >= 500 ? "server_error" : "refused";
      return { ok: false, reason, status: response.status };
    } catch {
      return { ok: false, reason: signal.aborted ? "timeout" : "network" };
    }
  }
}
