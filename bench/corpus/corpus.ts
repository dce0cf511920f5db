import { Random } from "./random.js";
import { canonicalRequest, canonicalResponse } from "./render/canonical.js";
import { visibleResults } from "./render/history.js";
import { vendorAChatRequest, vendorAChatResponse } from "./render/vendor-a-chat.js";
import { vendorBMessagesRequest, vendorBMessagesResponse } from "./render/vendor-b-messages.js";
import { buildSession, type Protocol, type SessionModel, type SessionShape } from "./session.js";

/**
 * The replay corpus: deterministic agent sessions rendered, step by step, into the GuardEvents a
 * real integration sends: a `step/request` carrying the whole conversation so far (agents
 * re-send it every step) and a `step/response` carrying the model's answer. Sessions are built
 * eagerly (their content is small) and rendered lazily, because re-sent conversations add up
 * to hundreds of megabytes that no phase of the benchmark needs all at once.
 */

export interface CorpusOptions {
  readonly seed: number;
  readonly sessions: number;
  /** Protocols, assigned round-robin. */
  readonly protocols: readonly Protocol[];
  /** Tool output an agent keeps in context before clearing the oldest (see render/history.ts). */
  readonly contextBudgetBytes: number;
  readonly resultBytes: SessionShape["resultBytes"];
  /** Steps of session `index`; the default mixes short, medium and long sessions. */
  readonly stepsFor?: (rng: Random, index: number) => number;
}

export const DEFAULT_CORPUS: CorpusOptions = {
  seed: 20250314,
  sessions: 24,
  protocols: ["vendor_a.chat", "vendor_b.messages", "canonical"],
  contextBudgetBytes: 900 * 1024,
  resultBytes: { min: 1024, max: 50 * 1024 },
};

/**
 * 45% of sessions take 1 to 8 steps, 30% 9 to 40, 17% 41 to 120 and 8% 121 to 200; the first
 * session of each protocol runs the full 200 so every protocol reaches the largest bodies.
 */
export function defaultSteps(rng: Random, index: number, protocols: number): number {
  if (index < protocols) return 200;
  const r = rng.next();
  if (r < 0.45) return rng.int(1, 8);
  if (r < 0.75) return rng.int(9, 40);
  if (r < 0.92) return rng.int(41, 120);
  return rng.int(121, 200);
}

export function corpusSessions(options: CorpusOptions): SessionModel[] {
  const root = new Random(options.seed);
  const sessions: SessionModel[] = [];
  for (let i = 0; i < options.sessions; i++) {
    const rng = root.fork(i);
    const protocol = options.protocols[i % options.protocols.length] ?? "canonical";
    const steps = options.stepsFor ? options.stepsFor(rng, i) : defaultSteps(rng, i, options.protocols.length);
    sessions.push(buildSession(rng, i, protocol, { steps, resultBytes: options.resultBytes }));
  }
  return sessions;
}

export type EventKindName = "step/request" | "step/response";

export interface CorpusEvent {
  readonly session: string;
  readonly protocol: Protocol;
  /** 1-based step number within the session. */
  readonly step: number;
  readonly kind: EventKindName;
  /** The GuardEvent as sent on the wire (UTF-8 JSON text). */
  readonly body: string;
}

const RENDERERS = {
  "vendor_a.chat": { request: vendorAChatRequest, response: vendorAChatResponse },
  "vendor_b.messages": { request: vendorBMessagesRequest, response: vendorBMessagesResponse },
  canonical: { request: canonicalRequest, response: canonicalResponse },
} as const;

/** The GuardEvent envelope; `tag` keeps agents and step ids of separate replays apart. */
export function guardEvent(
  s: SessionModel,
  step: number,
  kind: EventKindName,
  payload: Record<string, unknown>,
  tag = "",
): Record<string, unknown> {
  return {
    kind,
    step_id: `${s.id}${tag}-step-${step}`,
    agent_id: `${s.agentId}${tag}`,
    agent_type: "coder",
    agent_workspace: "",
    agent_user: "",
    llm_protocol: s.protocol,
    integration: "guard-bench/1",
    payload,
  };
}

/** The events of one session in the order an agent sends them: request, response, request... */
export function* sessionEvents(
  s: SessionModel,
  contextBudgetBytes: number,
  options: { tag?: string; kinds?: readonly EventKindName[] } = {},
): Generator<CorpusEvent> {
  const render = RENDERERS[s.protocol];
  const kinds = options.kinds ?? ["step/request", "step/response"];
  for (let k = 0; k < s.steps.length; k++) {
    const step = k + 1;
    for (const kind of kinds) {
      const payload =
        kind === "step/request"
          ? render.request(s, k, visibleResults(s, k, contextBudgetBytes))
          : render.response(s, k);
      const body = JSON.stringify(guardEvent(s, step, kind, payload, options.tag));
      yield { session: s.id, protocol: s.protocol, step, kind, body };
    }
  }
}

/** Every event of the corpus, session after session. */
export function* corpusEvents(options: CorpusOptions, tag = ""): Generator<CorpusEvent> {
  for (const s of corpusSessions(options)) yield* sessionEvents(s, options.contextBudgetBytes, { tag });
}
