import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import {
  AttachResponseSchema,
  ConcludeResponseSchema,
  type SessionService,
} from "../../gen/guard/v1/session_pb.js";
import { EventKind } from "../../gen/guard/v1/types_pb.js";
import { MemorySessionState } from "./memory-state.js";
import type { TrackerOptions } from "./options.js";
import type { EventKindName } from "./records.js";
import { SessionStateUnavailableError } from "./redis-state.js";
import { SessionError } from "./session-error.js";
import type { SessionState } from "./state.js";
import { createSessionTracker, type SessionTracker } from "./tracker.js";

export type { SessionDetail, SessionSummary, StepView, TurnView } from "./queries.js";
export { describeSession, listSessions, listShadowAgents } from "./queries.js";

/**
 * Either a tracker built by the caller (to share it with the CLI queries and metrics), or the
 * pieces to build one: a state (default: a fresh in-memory state with its default bounds), a
 * clock (default Date.now) and the tracker's tuning.
 */
export type SessionServiceOptions =
  | { tracker: SessionTracker }
  | ({ state?: SessionState; now?: () => number } & Omit<TrackerOptions, "state" | "clock">);

/** Serves the session tracker as SessionService, in process or over the network. */
export function createSessionService(
  options: SessionServiceOptions = {},
): ServiceImpl<typeof SessionService> {
  const tracker =
    "tracker" in options
      ? options.tracker
      : createSessionTracker({
          ...options,
          state: options.state ?? new MemorySessionState(),
          clock: options.now ?? Date.now,
        });
  return {
    async attach(request) {
      const result = await guarded(() =>
        tracker.attach({
          orgId: request.orgId,
          agentId: request.agentId,
          agentType: request.agentType,
          agentUser: request.agentUser,
          kind: kindName(request.kind),
          stepId: request.stepId,
          sessionHint: request.sessionHint,
          connection: request.connection,
          conversation: request.conversation,
          finishReason: request.finishReason,
          eventId: request.eventId,
        }),
      );
      return create(AttachResponseSchema, {
        sessionId: result.sessionId,
        turnId: result.turnId,
        turnIndex: result.turnIndex,
        stepIndex: result.stepIndex,
        attachMethod: result.attachMethod,
        paired: result.paired,
        signals: result.signals,
      });
    },
    async conclude(request) {
      const decision = request.decision;
      if (decision !== "allow" && decision !== "block") {
        throw new ConnectError("decision must be allow or block", Code.InvalidArgument);
      }
      const result = await guarded(() =>
        tracker.conclude({
          orgId: request.orgId,
          sessionId: request.sessionId,
          stepId: request.stepId,
          kind: kindName(request.kind),
          decision,
        }),
      );
      return create(ConcludeResponseSchema, { turnClosed: result.turnClosed });
    },
  };
}

function kindName(kind: EventKind): EventKindName {
  if (kind === EventKind.STEP_REQUEST) return "step/request";
  if (kind === EventKind.STEP_RESPONSE) return "step/response";
  throw new ConnectError("kind must be step/request or step/response", Code.InvalidArgument);
}

/** Maps the tracker's errors to Connect codes; anything else stays an internal error. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SessionError) {
      throw new ConnectError(
        error.message,
        error.code === "not_found" ? Code.NotFound : Code.InvalidArgument,
      );
    }
    // Shared state out of reach is an outage, not a bug: callers apply their fail mode.
    if (error instanceof SessionStateUnavailableError) throw new ConnectError(error.message, Code.Unavailable);
    throw error;
  }
}
