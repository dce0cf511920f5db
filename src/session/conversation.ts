import type { ConversationEntryLike } from "./records.js";

/** Index of the last `user` entry, -1 when there is none. */
export function lastUserIndex(conversation: readonly ConversationEntryLike[]): number {
  for (let i = conversation.length - 1; i >= 0; i--) if (conversation[i]!.role === "user") return i;
  return -1;
}

/**
 * Key of what survives a context compaction: the first system digest (empty when the request has
 * no system entry) and the first user digest. Empty when there is no user entry, because a
 * system prompt alone is shared by every conversation of an agent.
 */
export function openingKey(conversation: readonly ConversationEntryLike[]): string {
  let system = "";
  for (const entry of conversation) {
    if (entry.role === "system" && system === "") system = entry.digest;
    if (entry.role === "user") return system.length + ":" + system + entry.digest;
  }
  return "";
}

/**
 * Scopes an index key to one agent_user: the spec gives a session one user, so two users of one
 * agent with the same opening must not share a session.
 */
export function userScoped(agentUser: string, key: string): string {
  return agentUser.length + ":" + agentUser + key;
}

/**
 * Whether the conversation has the shape of a conversation's first request: system entries and
 * one user instruction, nothing the model said. Such a request is a new conversation unless a
 * stronger signal says otherwise; `connection` alone must not glue it to the previous one (a
 * client connection commonly carries one conversation after another).
 */
export function isFreshOpening(conversation: readonly ConversationEntryLike[]): boolean {
  let users = 0;
  for (const entry of conversation) {
    if (entry.role === "user") users++;
    else if (entry.role !== "system") return false;
    if (users > 1) return false;
  }
  return users === 1;
}
