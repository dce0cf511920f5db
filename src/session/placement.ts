import { userScoped } from "./conversation.js";
import type { ResolvedTrackerOptions } from "./options.js";
import type { PrefixChain } from "./prefix-chain.js";
import type { AttachMethod, SessionRecord } from "./records.js";

/** Where a step/request goes. Without `session`, it starts a new one. */
export interface Placement {
  session?: SessionRecord;
  method: AttachMethod;
  /** Entries of the request already known to `session` by prefix (0 when not matched by prefix). */
  matchedLength: number;
  /** True when the request extends the session's latest conversation. */
  extendsHead: boolean;
}

/** The request's facts that placement reads. */
export interface PlacementRequest {
  orgId: string;
  agentId: string;
  agentUser: string;
  sessionHint: string;
  connection: string;
  chain: PrefixChain;
  /** `openingKey` of the request's conversation. */
  opening: string;
  /** `isFreshOpening` of the request's conversation: `connection` never re-attaches it. */
  freshOpening: boolean;
}

interface PrefixHit {
  session: SessionRecord;
  length: number;
  key: string;
}

/** Probe batches grow so that a continuation costs one round trip and a miss few. */
const FIRST_PROBE_BATCH = 4;

/**
 * Finds the session of a step/request, in order of strength: session_hint; the longest known
 * prefix of its conversation; after compaction, the same system prompt and first user message;
 * `connection` when the session is recent and the request is not a fresh opening; otherwise a
 * new session. Recency is a window and the
 * tie-break, never a signal of its own: an agent's next conversation must not join its last one
 * merely for being next.
 */
export async function placeRequest(
  request: PlacementRequest,
  options: ResolvedTrackerOptions,
  now: number,
): Promise<Placement> {
  const { state } = options;
  const hit = await probePrefix(request, options);
  if (request.sessionHint !== "") {
    const [hinted] = await state.lookup(request.orgId, request.agentId, "hint", [request.sessionHint]);
    const session = hinted === undefined ? undefined : await state.getSession(request.orgId, hinted);
    if (session) {
      const sameSession = hit?.session.id === session.id;
      return {
        session,
        method: "session_hint",
        matchedLength: sameSession ? hit.length : 0,
        extendsHead: sameSession && hit.key === session.headKey,
      };
    }
  }
  const inferred = await infer(request, hit, options, now);
  // An unknown hint names a new conversation unless the inferred session has no hint of its own.
  if (inferred.session && request.sessionHint !== "" && inferred.session.hint !== "") {
    return { method: "new", matchedLength: 0, extendsHead: false };
  }
  return inferred;
}

async function infer(
  request: PlacementRequest,
  hit: PrefixHit | undefined,
  options: ResolvedTrackerOptions,
  now: number,
): Promise<Placement> {
  const recent = (session: SessionRecord, window: number) => now - session.lastSeenAt <= window;
  if (hit) {
    const extendsHead = hit.key === hit.session.headKey;
    // A request that only repeats the latest conversation of a stale session is a new run with
    // the same opening (a scheduled agent), not a continuation.
    const repeatsStale =
      hit.length === request.chain.length && !recent(hit.session, options.reattachWindowMs);
    if (extendsHead && !repeatsStale) {
      return { session: hit.session, method: "prefix", matchedLength: hit.length, extendsHead: true };
    }
    if (!extendsHead && recent(hit.session, options.reattachWindowMs)) {
      const kept = request.opening !== "" && request.opening === hit.session.openingKey;
      return {
        session: hit.session,
        method: kept ? "reattached_system" : "prefix",
        matchedLength: hit.length,
        extendsHead: false,
      };
    }
  }
  if (request.opening !== "") {
    const session = await lookupSession(request, "opening", request.opening, options);
    if (session && recent(session, options.reattachWindowMs)) {
      return { session, method: "reattached_system", matchedLength: 0, extendsHead: false };
    }
  }
  if (request.connection !== "" && !request.freshOpening) {
    const session = await lookupSession(request, "connection", request.connection, options);
    if (session && recent(session, options.connectionWindowMs)) {
      return { session, method: "connection", matchedLength: 0, extendsHead: false };
    }
  }
  return { method: "new", matchedLength: 0, extendsHead: false };
}

/**
 * Probes the request's prefixes from the longest down, in growing batches, and returns the
 * longest one bound to a session still held. A continuation with n new messages hits within its
 * first n + 1 keys, so the cost follows the new messages, not the history.
 */
async function probePrefix(
  request: PlacementRequest,
  options: ResolvedTrackerOptions,
): Promise<PrefixHit | undefined> {
  const { chain } = request;
  let next = chain.length;
  let budget = options.maxPrefixProbe;
  let batch = FIRST_PROBE_BATCH;
  while (next >= 1 && budget > 0) {
    const count = Math.min(batch, next, budget);
    const lengths = Array.from({ length: count }, (_, i) => next - i);
    const keys = lengths.map((length) => chain.key(length));
    const found = await options.state.lookup(
      request.orgId,
      request.agentId,
      "prefix",
      keys.map((key) => userScoped(request.agentUser, key)),
    );
    for (let i = 0; i < count; i++) {
      const sessionId = found[i];
      if (sessionId === undefined) continue;
      const session = await options.state.getSession(request.orgId, sessionId);
      if (session) return { session, length: lengths[i]!, key: keys[i]! };
    }
    next -= count;
    budget -= count;
    batch *= 2;
  }
  return undefined;
}

async function lookupSession(
  request: PlacementRequest,
  index: "opening" | "connection",
  key: string,
  options: ResolvedTrackerOptions,
): Promise<SessionRecord | undefined> {
  const [sessionId] = await options.state.lookup(request.orgId, request.agentId, index, [
    userScoped(request.agentUser, key),
  ]);
  return sessionId === undefined ? undefined : options.state.getSession(request.orgId, sessionId);
}
