import { observeAgentType } from "./agents.js";
import { isFreshOpening, lastUserIndex, openingKey, userScoped } from "./conversation.js";
import { type ResolvedTrackerOptions, resolveTrackerOptions, type TrackerOptions } from "./options.js";
import { type Placement, placeRequest } from "./placement.js";
import { PrefixChain } from "./prefix-chain.js";
import {
  type AttachMethod,
  type ConversationEntryLike,
  type Decision,
  type EventKindName,
  type SessionRecord,
  SHADOW_AGENT_SIGNAL,
  type StepEvent,
  type StepRecord,
  type TurnCloseReason,
  type TurnRecord,
} from "./records.js";
import { SessionError } from "./session-error.js";
import type { IndexKind, StateWrite } from "./state.js";
import { closeTurn, isNewInstruction, openTurn, planTurn } from "./turns.js";

/** One event to place (AttachRequest without the proto). */
export interface AttachInput {
  orgId: string;
  agentId: string;
  agentType: string;
  agentUser: string;
  kind: EventKindName;
  stepId: string;
  /** Empty when not sent. */
  sessionHint: string;
  /** Empty when not sent. */
  connection: string;
  /** Conversation of a request, oldest first; ignored on a response. */
  conversation: readonly ConversationEntryLike[];
  /** Normalised finish reason of a response; `max_tokens` closes the turn. */
  finishReason: string;
  eventId: string;
}

/** Where the event landed (AttachResponse plus the turns this event closed). */
export interface AttachResult {
  sessionId: string;
  turnId: string;
  turnIndex: number;
  stepIndex: number;
  attachMethod: AttachMethod;
  /** For a response: whether its request half was seen. Always false for a request. */
  paired: boolean;
  signals: string[];
  /** Turns this event closed, e.g. the previous turn on a new instruction. */
  closedTurns: { turnId: string; reason: TurnCloseReason }[];
}

/** The pipeline's decision on one event of a step. */
export interface ConcludeInput {
  orgId: string;
  sessionId: string;
  stepId: string;
  kind: EventKindName;
  decision: Decision;
}

/** What Conclude did. */
export interface ConcludeResult {
  /** True when this decision closed the step's turn. */
  turnClosed: boolean;
  /** False when the session or the step's event is not held. */
  recorded: boolean;
}

/** Counters since start, for metrics. */
export interface TrackerStats {
  attached: Record<AttachMethod, number>;
  turnsClosed: Record<TurnCloseReason, number>;
  shadowAgentEvents: number;
  /** Conclude calls naming a session or step event no longer held. */
  concludeMisses: number;
}

/** Derives sessions, turns and steps from events (spec 1, 2.1, 6). */
export interface SessionTracker {
  readonly options: ResolvedTrackerOptions;
  attach(input: AttachInput): Promise<AttachResult>;
  /**
   * Records the decision on the step; a block closes the step's turn. A session or step no longer
   * held (evicted) is not an error: the verdict stands, the miss is counted (`concludeMisses`).
   */
  conclude(input: ConcludeInput): Promise<ConcludeResult>;
  stats(): TrackerStats;
}

/** Recent user digests a session keeps to tell a new instruction after compaction. */
const RECENT_USER_DIGESTS = 8;

/**
 * Creates a tracker over a SessionState. Decisions are pure functions of the state, the input and
 * `clock()`; all writes of one agent run inside `state.exclusive`, so step and turn numbers never
 * race, while different agents proceed concurrently.
 */
export function createSessionTracker(trackerOptions: TrackerOptions): SessionTracker {
  const options = resolveTrackerOptions(trackerOptions);
  const { state } = options;
  const stats: TrackerStats = {
    attached: {
      new: 0,
      prefix: 0,
      session_hint: 0,
      reattached_system: 0,
      connection: 0,
      step_id: 0,
      unpaired: 0,
    },
    turnsClosed: { new_instruction: 0, max_tokens: 0, block: 0, idle: 0 },
    shadowAgentEvents: 0,
    concludeMisses: 0,
  };

  function newSession(input: AttachInput, now: number, origin: SessionRecord["origin"]): SessionRecord {
    return {
      id: options.newSessionId(),
      orgId: input.orgId,
      agentId: input.agentId,
      agentUser: input.agentUser,
      hint: origin === "new" ? input.sessionHint : "",
      connection: "",
      openingKey: "",
      headKey: "",
      recentUserDigests: [],
      createdAt: now,
      lastSeenAt: now,
      origin,
      turnCount: 0,
      currentTurnId: "",
      stepCount: 0,
      eventCount: 0,
      signals: [],
    };
  }

  function event(input: AttachInput, now: number, method: AttachMethod, paired: boolean, signals: string[]) {
    const recorded: StepEvent = {
      kind: input.kind,
      eventId: input.eventId,
      at: now,
      attachMethod: method,
      paired,
      signals,
    };
    return recorded;
  }

  /** Queues a closed turn's write and counts it. */
  function saveClosed(writes: StateWrite[], turn: TurnRecord, closed: AttachResult["closedTurns"]) {
    writes.push({ kind: "turn", turn });
    if (turn.closeReason) {
      stats.turnsClosed[turn.closeReason]++;
      closed.push({ turnId: turn.id, reason: turn.closeReason });
    }
  }

  function touchSession(session: SessionRecord, now: number, signals: string[]): void {
    session.lastSeenAt = now;
    session.eventCount++;
    for (const signal of signals) if (!session.signals.includes(signal)) session.signals.push(signal);
  }

  function result(
    session: SessionRecord,
    turn: TurnRecord | undefined,
    step: StepRecord,
    method: AttachMethod,
    paired: boolean,
    signals: string[],
    closedTurns: AttachResult["closedTurns"],
  ): AttachResult {
    stats.attached[method]++;
    return {
      sessionId: session.id,
      turnId: turn?.id ?? step.turnId,
      turnIndex: turn?.index ?? step.turnIndex,
      stepIndex: step.index,
      attachMethod: method,
      paired,
      signals,
      closedTurns,
    };
  }

  /** A request or response whose step_id is known: same step, one more event (no dedup). */
  function attachToStep(
    input: AttachInput,
    step: StepRecord,
    session: SessionRecord,
    now: number,
    signals: string[],
    held: TurnRecord | undefined,
    writes: StateWrite[],
  ): AttachResult {
    const closed: AttachResult["closedTurns"] = [];
    const turnWrites: StateWrite[] = [];
    const paired = input.kind === "step/response" && step.events.some((e) => e.kind === "step/request");
    let turn = held;
    if (turn && turn.closedAt === undefined) {
      if (input.kind === "step/response" && input.finishReason === "max_tokens") {
        turn = closeTurn(turn, "max_tokens", now);
        saveClosed(turnWrites, turn, closed);
      } else {
        turn = { ...turn, lastActivityAt: now };
        turnWrites.push({ kind: "turn", turn });
      }
    }
    step.events.push(event(input, now, "step_id", paired, signals));
    touchSession(session, now, signals);
    // The session first: the turn and step writes need it held.
    writes.push({ kind: "session", session }, ...turnWrites, { kind: "step", step });
    return result(session, turn, step, "step_id", paired, signals, closed);
  }

  /** A response whose request was never seen: judged anyway, recorded in a session of its own. */
  function attachUnpaired(input: AttachInput, now: number, signals: string[], writes: StateWrite[]): AttachResult {
    const closed: AttachResult["closedTurns"] = [];
    const session = newSession(input, now, "unpaired");
    let turn = { ...openTurn(session.id, 0, now), stepCount: 1 };
    session.turnCount = 1;
    session.currentTurnId = turn.id;
    session.stepCount = 1;
    touchSession(session, now, signals);
    const step: StepRecord = {
      stepId: input.stepId,
      agentId: input.agentId,
      sessionId: session.id,
      turnId: turn.id,
      turnIndex: 1,
      index: 1,
      createdAt: now,
      events: [event(input, now, "unpaired", false, signals)],
    };
    writes.push({ kind: "session", session });
    if (input.finishReason === "max_tokens") {
      turn = closeTurn(turn, "max_tokens", now);
      saveClosed(writes, turn, closed);
    } else {
      writes.push({ kind: "turn", turn });
    }
    writes.push({ kind: "step", step });
    return result(session, turn, step, "unpaired", false, signals, closed);
  }

  async function attachRequest(
    input: AttachInput,
    now: number,
    signals: string[],
    writes: StateWrite[],
  ): Promise<AttachResult> {
    const conversation = input.conversation;
    const chain = new PrefixChain(conversation);
    const opening = openingKey(conversation);
    const placement: Placement = await placeRequest(
      {
        orgId: input.orgId,
        agentId: input.agentId,
        agentUser: input.agentUser,
        sessionHint: input.sessionHint,
        connection: input.connection,
        chain,
        opening,
        freshOpening: isFreshOpening(conversation),
      },
      options,
      now,
    );
    const session = placement.session ?? newSession(input, now, "new");
    const closed: AttachResult["closedTurns"] = [];

    const latest =
      session.currentTurnId === ""
        ? undefined
        : await state.getTurn(input.orgId, session.id, session.currentTurnId);
    const userAt = lastUserIndex(conversation);
    const lastUser = userAt < 0 ? undefined : { index: userAt, digest: conversation[userAt]!.digest };
    const newInstruction = isNewInstruction(
      lastUser,
      placement.extendsHead,
      placement.matchedLength,
      session.recentUserDigests,
    );
    const plan = planTurn(latest, now, newInstruction, options.idleTimeoutMs);
    // The session is written first (turns, steps and bindings need it held); a turn this
    // request closes is queued after it, before the turn it opens.
    const after: StateWrite[] = [];
    if (plan.close && latest) saveClosed(after, closeTurn(latest, plan.close.reason, plan.close.at), closed);
    let turn: TurnRecord;
    if (plan.open || !latest) {
      turn = openTurn(session.id, session.turnCount, now);
      session.turnCount = turn.index;
      session.currentTurnId = turn.id;
    } else {
      turn = latest;
    }
    turn = { ...turn, stepCount: turn.stepCount + 1, lastActivityAt: now };

    const step: StepRecord = {
      stepId: input.stepId,
      agentId: input.agentId,
      sessionId: session.id,
      turnId: turn.id,
      turnIndex: turn.index,
      index: turn.stepCount,
      createdAt: now,
      events: [event(input, now, placement.method, false, signals)],
    };

    session.stepCount++;
    touchSession(session, now, signals);
    if (chain.length > 0) session.headKey = chain.key(chain.length);
    if (session.openingKey === "") session.openingKey = opening;
    if (input.connection !== "") session.connection = input.connection;
    if (session.hint === "" && input.sessionHint !== "") session.hint = input.sessionHint;
    if (lastUser && session.recentUserDigests.at(-1) !== lastUser.digest) {
      session.recentUserDigests = [...session.recentUserDigests, lastUser.digest].slice(-RECENT_USER_DIGESTS);
    }

    writes.push({ kind: "session", session }, ...after, { kind: "turn", turn }, { kind: "step", step });
    bindRequest(input, session, chain, opening, writes);
    return result(session, turn, step, placement.method, false, signals, closed);
  }

  /** Points the request's signals at its session, for the next request of the conversation. */
  function bindRequest(
    input: AttachInput,
    session: SessionRecord,
    chain: PrefixChain,
    opening: string,
    writes: StateWrite[],
  ) {
    const { agentId, agentUser } = input;
    const bind = (index: IndexKind, key: string) =>
      writes.push({ kind: "bind", agentId, index, key, sessionId: session.id });
    if (chain.length > 0) bind("prefix", userScoped(agentUser, chain.key(chain.length)));
    if (opening !== "") bind("opening", userScoped(agentUser, opening));
    if (input.connection !== "") bind("connection", userScoped(agentUser, input.connection));
    if (session.hint !== "" && session.hint === input.sessionHint) bind("hint", session.hint);
  }

  return {
    options,

    async attach(input) {
      validateAttach(input);
      const now = options.clock();
      return state.exclusive(input.orgId, input.agentId, async () => {
        // Independent reads go out together; every write of the event goes out as one batch.
        const [agent, step] = await Promise.all([
          state.getAgent(input.orgId, input.agentId),
          state.getStep(input.orgId, input.agentId, input.stepId),
        ]);
        const observed = observeAgentType(agent, input.agentId, input.agentType, now);
        const writes: StateWrite[] = [{ kind: "agent", agent: observed.agent }];
        const signals: string[] = [];
        if (observed.shadow) {
          signals.push(SHADOW_AGENT_SIGNAL);
          stats.shadowAgentEvents++;
        }
        // A known step: its session and turn are read together.
        const [session, turn] = step
          ? await Promise.all([
              state.getSession(input.orgId, step.sessionId),
              state.getTurn(input.orgId, step.sessionId, step.turnId),
            ])
          : [undefined, undefined];
        let attached: AttachResult;
        if (step && session) attached = attachToStep(input, step, session, now, signals, turn, writes);
        else if (input.kind === "step/response") attached = attachUnpaired(input, now, signals, writes);
        else attached = await attachRequest(input, now, signals, writes);
        await state.write(input.orgId, writes);
        return attached;
      });
    },

    async conclude(input) {
      if (input.orgId === "") throw new SessionError("invalid_argument", "org_id is required");
      if (input.decision !== "allow" && input.decision !== "block") {
        throw new SessionError("invalid_argument", "decision must be allow or block");
      }
      const now = options.clock();
      const found = await state.getSession(input.orgId, input.sessionId);
      if (!found) {
        stats.concludeMisses++;
        return { turnClosed: false, recorded: false };
      }
      return state.exclusive(input.orgId, found.agentId, async () => {
        const step = await state.getStep(input.orgId, found.agentId, input.stepId);
        const recorded = step?.sessionId === input.sessionId ? step : undefined;
        const target =
          recorded?.events.findLast((e) => e.kind === input.kind && e.decision === undefined) ??
          recorded?.events.findLast((e) => e.kind === input.kind);
        if (!recorded || !target) {
          stats.concludeMisses++;
          return { turnClosed: false, recorded: false };
        }
        target.decision = input.decision;
        const writes: StateWrite[] = [{ kind: "step", step: recorded }];
        const turn =
          input.decision === "block"
            ? await state.getTurn(input.orgId, recorded.sessionId, recorded.turnId)
            : undefined;
        const closes = turn !== undefined && turn.closedAt === undefined;
        if (turn && closes) saveClosed(writes, closeTurn(turn, "block", now), []);
        await state.write(input.orgId, writes);
        return { turnClosed: closes, recorded: true };
      });
    },

    stats() {
      return structuredClone(stats);
    },
  };
}

function validateAttach(input: AttachInput): void {
  if (input.orgId === "") throw new SessionError("invalid_argument", "org_id is required");
  if (input.stepId === "") throw new SessionError("invalid_argument", "step_id is required");
  if (input.kind !== "step/request" && input.kind !== "step/response") {
    throw new SessionError("invalid_argument", "kind must be step/request or step/response");
  }
}
