import type {
  AgentRecord,
  AttachMethod,
  Decision,
  EventKindName,
  SessionRecord,
  StepEvent,
  StepRecord,
  TurnCloseReason,
  TurnRecord,
} from "./records.js";
import type { SessionState } from "./state.js";
import { isOpen } from "./turns.js";

/** What `guard sessions` lists per session. */
export interface SessionSummary {
  sessionId: string;
  agentId: string;
  /** The agent's first labelled agent_type (shadows are listed separately). */
  agentType: string;
  agentUser: string;
  hint: string;
  origin: SessionRecord["origin"];
  createdAt: number;
  lastSeenAt: number;
  turnCount: number;
  stepCount: number;
  eventCount: number;
  signals: string[];
}

/** One step as `guard session <id>` shows it. */
export interface StepView {
  stepId: string;
  index: number;
  /** Kinds seen, requests first; a retried half appears once here and twice in `events`. */
  kinds: EventKindName[];
  /** How the step's first event was attached. */
  attachMethod: AttachMethod;
  /** Whether a response of the step met its request. */
  paired: boolean;
  signals: string[];
  /** `block` when any event of the step was blocked, `allow` when concluded otherwise. */
  decision?: Decision;
  events: StepEvent[];
}

/** One turn with its steps. */
export interface TurnView {
  turnId: string;
  index: number;
  openedAt: number;
  /** False once closed, including by an idle timeout that no event has applied yet. */
  open: boolean;
  closedAt?: number;
  closeReason?: TurnCloseReason;
  /** False when the turn record was dropped from memory and the view is rebuilt from its steps. */
  held: boolean;
  steps: StepView[];
}

/** `guard session <id>`: the session, its turns and their steps. */
export interface SessionDetail extends SessionSummary {
  turns: TurnView[];
}

/** How queries judge open turns: the tracker's clock and idle timeout. */
export interface QueryOptions {
  now: number;
  idleTimeoutMs: number;
}

/** Sessions of an organization, most recently active first. */
export async function listSessions(
  state: SessionState,
  orgId: string,
  limit = 50,
): Promise<SessionSummary[]> {
  const sessions = await state.listSessions(orgId, limit);
  const types = new Map<string, string>();
  for (const agentId of new Set(sessions.map((s) => s.agentId))) {
    types.set(agentId, (await state.getAgent(orgId, agentId))?.agentType ?? "");
  }
  return sessions.map((s) => summarize(s, types.get(s.agentId) ?? ""));
}

/** One session with its turns and steps, or undefined when the organization holds no such session. */
export async function describeSession(
  state: SessionState,
  orgId: string,
  sessionId: string,
  options: QueryOptions,
): Promise<SessionDetail | undefined> {
  const session = await state.getSession(orgId, sessionId);
  if (!session) return undefined;
  const agent = await state.getAgent(orgId, session.agentId);
  const turns = new Map<number, TurnView>();
  for (const turn of await state.listTurns(orgId, sessionId)) turns.set(turn.index, turnView(turn, options));
  for (const step of await state.listSteps(orgId, sessionId)) {
    let turn = turns.get(step.turnIndex);
    if (!turn) {
      turn = {
        turnId: step.turnId,
        index: step.turnIndex,
        openedAt: step.createdAt,
        open: false,
        held: false,
        steps: [],
      };
      turns.set(step.turnIndex, turn);
    }
    turn.steps.push(stepView(step));
  }
  return {
    ...summarize(session, agent?.agentType ?? ""),
    turns: [...turns.values()].sort((a, b) => a.index - b.index),
  };
}

/** Agents of an organization that raised the shadow-agent signal, most shadow events first. */
export async function listShadowAgents(state: SessionState, orgId: string): Promise<AgentRecord[]> {
  const agents = await state.listAgents(orgId);
  return agents.filter((a) => a.shadowEvents > 0).sort((a, b) => b.shadowEvents - a.shadowEvents);
}

function summarize(session: SessionRecord, agentType: string): SessionSummary {
  return {
    sessionId: session.id,
    agentId: session.agentId,
    agentType,
    agentUser: session.agentUser,
    hint: session.hint,
    origin: session.origin,
    createdAt: session.createdAt,
    lastSeenAt: session.lastSeenAt,
    turnCount: session.turnCount,
    stepCount: session.stepCount,
    eventCount: session.eventCount,
    signals: [...session.signals],
  };
}

function turnView(turn: TurnRecord, options: QueryOptions): TurnView {
  const view: TurnView = {
    turnId: turn.id,
    index: turn.index,
    openedAt: turn.openedAt,
    open: isOpen(turn, options.now, options.idleTimeoutMs),
    held: true,
    steps: [],
  };
  if (turn.closedAt !== undefined && turn.closeReason !== undefined) {
    view.closedAt = turn.closedAt;
    view.closeReason = turn.closeReason;
  } else if (!view.open) {
    view.closedAt = turn.lastActivityAt + options.idleTimeoutMs;
    view.closeReason = "idle";
  }
  return view;
}

function stepView(step: StepRecord): StepView {
  const first = step.events[0];
  const kinds = (["step/request", "step/response"] as const).filter((k) =>
    step.events.some((e) => e.kind === k),
  );
  const signals = [...new Set(step.events.flatMap((e) => e.signals))];
  const decisions = step.events.map((e) => e.decision);
  const view: StepView = {
    stepId: step.stepId,
    index: step.index,
    kinds,
    attachMethod: first?.attachMethod ?? "new",
    paired: step.events.some((e) => e.paired),
    signals,
    events: step.events,
  };
  if (decisions.includes("block")) view.decision = "block";
  else if (decisions.includes("allow")) view.decision = "allow";
  return view;
}
