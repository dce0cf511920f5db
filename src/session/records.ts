/**
 * Records the session tracker keeps. They are plain data (no classes, no methods) so that a
 * storage backend can serialise them as they are: the in-memory state clones them, PostgreSQL or
 * Redis would store them as rows or JSON.
 */

/** How an event found its session (AttachResponse.attach_method). */
export type AttachMethod =
  | "new"
  | "prefix"
  | "session_hint"
  | "reattached_system"
  | "connection"
  | "step_id"
  | "unpaired";

/** Why a turn ended. */
export type TurnCloseReason = "new_instruction" | "max_tokens" | "block" | "idle";

/** Wire name of the event's half of a model call (spec 2.1 `kind`). */
export type EventKindName = "step/request" | "step/response";

/** Outcome the pipeline reports back through Conclude. */
export type Decision = "allow" | "block";

/** Signal raised when one agent_id shows up with a second agent_type (spec 2.1 rule 3). */
export const SHADOW_AGENT_SIGNAL = "shadow_agent";

/** One message of a request's conversation as the decomposer digests it, oldest first. */
export interface ConversationEntryLike {
  /** `system`, `user`, `assistant` or `tool`. */
  readonly role: string;
  /** Digest of role and content; equal content gives equal digests. */
  readonly digest: string;
}

/** One agent of an organization: the first labelled agent_type wins, later ones are shadows. */
export interface AgentRecord {
  agentId: string;
  /** First non-empty agent_type seen; empty while the agent is unlabelled. */
  agentType: string;
  firstSeenAt: number;
  lastSeenAt: number;
  /** Distinct disagreeing agent_type values, oldest first, bounded. */
  shadowTypes: string[];
  /** Events that disagreed with `agentType`. */
  shadowEvents: number;
}

/** One conversation of one agent (and one agent_user) as derived by the tracker. */
export interface SessionRecord {
  id: string;
  orgId: string;
  agentId: string;
  agentUser: string;
  /** Producer's session_hint naming this session, empty when none was sent. */
  hint: string;
  /** Latest non-empty `connection` seen on the session. */
  connection: string;
  /** Key of (system digest, first user digest) of the opening request; empty without a user entry. */
  openingKey: string;
  /** Prefix key of the latest request's whole conversation: a request extending it is a plain continuation. */
  headKey: string;
  /** Digests of the last user entries seen (bounded); they tell a new instruction after compaction. */
  recentUserDigests: string[];
  createdAt: number;
  lastSeenAt: number;
  /** How the session was created: `new`, or `unpaired` for a response whose request was never seen. */
  origin: "new" | "unpaired";
  /** Number of turns opened so far; the latest has index `turnCount`. */
  turnCount: number;
  /** Id of the latest turn, empty before the first. */
  currentTurnId: string;
  stepCount: number;
  eventCount: number;
  /** Distinct signals raised on any event of the session. */
  signals: string[];
}

/** One instruction until quiescence (spec 1, layer vocabulary). */
export interface TurnRecord {
  /** `<session id>/<turn index>`: derived, so that no extra id source is needed. */
  id: string;
  sessionId: string;
  index: number;
  openedAt: number;
  /** Last event of the turn; the idle timeout counts from here. */
  lastActivityAt: number;
  closedAt?: number;
  closeReason?: TurnCloseReason;
  /** Steps opened in the turn; the latest has index `stepCount`. */
  stepCount: number;
}

/** One event recorded on a step. Retries add events; nothing is deduplicated (spec 4.1). */
export interface StepEvent {
  kind: EventKindName;
  eventId: string;
  at: number;
  attachMethod: AttachMethod;
  /** For a response: whether a request half of the step was seen before it. */
  paired: boolean;
  signals: string[];
  /** Set by Conclude. */
  decision?: Decision;
}

/** One model call: the two events sharing a step_id. */
export interface StepRecord {
  stepId: string;
  agentId: string;
  sessionId: string;
  turnId: string;
  turnIndex: number;
  /** 1-based position in its turn. */
  index: number;
  createdAt: number;
  events: StepEvent[];
}
