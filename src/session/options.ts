import { monotonicUlid } from "../identity/event-id.js";
import type { SessionState } from "./state.js";

/** Configuration of the session tracker. Times are milliseconds. */
export interface TrackerOptions {
  state: SessionState;
  /** Current time in ms since the epoch; the only time source of every decision. */
  clock: () => number;
  /** Mints session ids; defaults to monotonic ULIDs stamped with `clock`. */
  newSessionId?: () => string;
  /** A turn with no event for this long is closed (default 30 min). */
  idleTimeoutMs?: number;
  /**
   * How recently a session must have been active to take a request that no longer extends its
   * latest conversation: compaction, a fork from an older point, or an identical opening
   * (default 30 min, the idle timeout's default). Past it, such a request starts a new session.
   */
  reattachWindowMs?: number;
  /** How recently a session must have been active for `connection` to corroborate it (default 5 min). */
  connectionWindowMs?: number;
  /**
   * Prefix keys probed per request, longest first (default 64). A continuation needs one probe
   * per new message; a request adding more messages than this falls back to the other signals.
   */
  maxPrefixProbe?: number;
}

export type ResolvedTrackerOptions = Required<TrackerOptions>;

export const TRACKER_DEFAULTS = {
  idleTimeoutMs: 30 * 60_000,
  reattachWindowMs: 30 * 60_000,
  connectionWindowMs: 5 * 60_000,
  maxPrefixProbe: 64,
} as const;

/** Fills defaults and rejects values that would make the tracker misbehave silently. */
export function resolveTrackerOptions(options: TrackerOptions): ResolvedTrackerOptions {
  const resolved: ResolvedTrackerOptions = {
    state: options.state,
    clock: options.clock,
    newSessionId: options.newSessionId ?? defaultSessionIds(options.clock),
    idleTimeoutMs: options.idleTimeoutMs ?? TRACKER_DEFAULTS.idleTimeoutMs,
    reattachWindowMs: options.reattachWindowMs ?? TRACKER_DEFAULTS.reattachWindowMs,
    connectionWindowMs: options.connectionWindowMs ?? TRACKER_DEFAULTS.connectionWindowMs,
    maxPrefixProbe: options.maxPrefixProbe ?? TRACKER_DEFAULTS.maxPrefixProbe,
  };
  for (const name of ["idleTimeoutMs", "reattachWindowMs", "connectionWindowMs"] as const) {
    if (!(resolved[name] >= 0)) throw new RangeError(`${name} must be a non-negative number`);
  }
  if (!Number.isInteger(resolved.maxPrefixProbe) || resolved.maxPrefixProbe < 1) {
    throw new RangeError("maxPrefixProbe must be a positive integer");
  }
  return resolved;
}

/** Session ids are ULIDs like event ids, from the same pooled randomness (src/identity/event-id.ts). */
function defaultSessionIds(clock: () => number): () => string {
  return monotonicUlid(clock);
}
