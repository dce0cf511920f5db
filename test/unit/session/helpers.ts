import { createHash } from "node:crypto";
import { MemorySessionState, type MemoryStateOptions } from "../../../src/session/memory-state.js";
import type { TrackerOptions } from "../../../src/session/options.js";
import type { ConversationEntryLike } from "../../../src/session/records.js";
import type { IndexKind, SessionState } from "../../../src/session/state.js";
import { type AttachInput, createSessionTracker, type SessionTracker } from "../../../src/session/tracker.js";

export const MINUTE = 60_000;
export const T0 = Date.UTC(2025, 0, 1);

/** Digest of a message as the decomposer makes it: SHA-256 over role and content. */
export function digest(role: string, content: string): string {
  return createHash("sha256").update(role).update("\0").update(content).digest("hex");
}

export function entry(role: string, content: string): ConversationEntryLike {
  return { role, digest: digest(role, content) };
}

/** An agent loop's conversation: a system prompt and a first instruction, grown step by step. */
export function opening(system: string, user: string): ConversationEntryLike[] {
  return [entry("system", system), entry("user", user)];
}

/** The conversation after `steps` tool-calling steps on top of `base` (each adds assistant + tool). */
export function grow(
  base: readonly ConversationEntryLike[],
  tag: string,
  steps: number,
): ConversationEntryLike[] {
  const out = [...base];
  for (let i = 1; i <= steps; i++)
    out.push(entry("assistant", `${tag} call ${i}`), entry("tool", `${tag} result ${i}`));
  return out;
}

/** A clock the test moves by hand. */
export class ManualClock {
  now = T0;
  readonly read = () => this.now;
  advance(ms: number): void {
    this.now += ms;
  }
}

/** Counts every key the tracker looks up, per index: the cost measure of prefix chaining. */
export class CountingState extends MemorySessionState {
  readonly lookups: Record<IndexKind, number> = { prefix: 0, hint: 0, opening: 0, connection: 0 };

  override async lookup(
    orgId: string,
    agentId: string,
    index: IndexKind,
    keys: readonly string[],
  ): Promise<(string | undefined)[]> {
    this.lookups[index] += keys.length;
    return super.lookup(orgId, agentId, index, keys);
  }

  totalLookups(): number {
    return Object.values(this.lookups).reduce((a, b) => a + b, 0);
  }
}

export interface Harness<S extends SessionState = CountingState> {
  tracker: SessionTracker;
  state: S;
  clock: ManualClock;
  /** Attaches a step/request with a fresh step id unless one is given. */
  request(
    conversation: readonly ConversationEntryLike[],
    over?: Partial<AttachInput>,
  ): ReturnType<SessionTracker["attach"]>;
  /** Attaches the step/response of `stepId`. */
  response(stepId: string, over?: Partial<AttachInput>): ReturnType<SessionTracker["attach"]>;
  /** The step id the last `request` used. */
  lastStepId(): string;
}

export function harness(
  tuning: Omit<TrackerOptions, "state" | "clock" | "newSessionId"> = {},
  bounds: MemoryStateOptions = {},
): Harness {
  return harnessOn(new CountingState(bounds), tuning);
}

/** A tracker over any state (the Redis tests use it), with a manual clock and numbered ids. */
export function harnessOn<S extends SessionState>(
  state: S,
  tuning: Omit<TrackerOptions, "state" | "clock" | "newSessionId"> = {},
): Harness<S> {
  const clock = new ManualClock();
  let sessions = 0;
  let steps = 0;
  let events = 0;
  let last = "";
  const tracker = createSessionTracker({
    ...tuning,
    state,
    clock: clock.read,
    newSessionId: () => `s${++sessions}`,
  });
  const base = (over: Partial<AttachInput>): AttachInput => ({
    orgId: "org-a",
    agentId: "agent-1",
    agentType: "coder",
    agentUser: "",
    kind: "step/request",
    stepId: "",
    sessionHint: "",
    connection: "",
    conversation: [],
    finishReason: "",
    eventId: `e${++events}`,
    ...over,
  });
  return {
    tracker,
    state,
    clock,
    request(conversation, over = {}) {
      last = over.stepId ?? `step-${++steps}`;
      return tracker.attach(base({ ...over, conversation, stepId: last, kind: "step/request" }));
    },
    response(stepId, over = {}) {
      return tracker.attach(base({ finishReason: "tool_calls", ...over, stepId, kind: "step/response" }));
    },
    lastStepId: () => last,
  };
}
