import type { TurnCloseReason, TurnRecord } from "./records.js";

/** What a request does to the session's latest turn. */
export interface TurnPlan {
  /** Close the latest turn first, with this reason and time. */
  close?: { reason: TurnCloseReason; at: number };
  /** Open a new turn (otherwise the request joins the latest one). */
  open: boolean;
}

/** Whether a turn is still open at `now`, counting the idle timeout as a close. */
export function isOpen(turn: TurnRecord, now: number, idleTimeoutMs: number): boolean {
  return turn.closedAt === undefined && now - turn.lastActivityAt <= idleTimeoutMs;
}

/**
 * Decides the turn of a new step/request. An idle timeout is applied lazily, at the session's
 * next event, and dated when it actually expired, so that the record does not depend on when
 * the next event happened to come.
 */
export function planTurn(
  latest: TurnRecord | undefined,
  now: number,
  newInstruction: boolean,
  idleTimeoutMs: number,
): TurnPlan {
  if (!latest || latest.closedAt !== undefined) return { open: true };
  if (now - latest.lastActivityAt > idleTimeoutMs) {
    return { close: { reason: "idle", at: latest.lastActivityAt + idleTimeoutMs }, open: true };
  }
  if (newInstruction) return { close: { reason: "new_instruction", at: now }, open: true };
  return { open: false };
}

/**
 * Whether the request carries a new user instruction.
 *
 * When it extends the session's latest conversation by prefix (`matchedLength` entries known),
 * the last user entry is new exactly when it lies past the known prefix: position, not content,
 * so a user repeating "continue" still opens a turn. Otherwise (compaction, hint, connection)
 * positions mean nothing and the digest decides: new unless it is one of the session's recent
 * user digests.
 */
export function isNewInstruction(
  lastUser: { index: number; digest: string } | undefined,
  extendsHead: boolean,
  matchedLength: number,
  recentUserDigests: readonly string[],
): boolean {
  if (!lastUser) return false;
  if (extendsHead) return lastUser.index >= matchedLength;
  return !recentUserDigests.includes(lastUser.digest);
}

/** A turn closed at `at` for `reason`; a closed turn stays as it is. */
export function closeTurn(turn: TurnRecord, reason: TurnCloseReason, at: number): TurnRecord {
  if (turn.closedAt !== undefined) return turn;
  return { ...turn, closedAt: at, closeReason: reason };
}

/** The first turn or the one after `previousIndex`, opened at `now`. */
export function openTurn(sessionId: string, previousIndex: number, now: number): TurnRecord {
  const index = previousIndex + 1;
  return { id: `${sessionId}/${index}`, sessionId, index, openedAt: now, lastActivityAt: now, stepCount: 0 };
}
