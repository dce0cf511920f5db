/**
 * Fields removed from the GuardEvent in 1.0 (SPEC 9.5). The closed schema already refuses them as
 * unrecognized keys; these notes only make the 400 say why and what to do instead, because a caller
 * sending one is almost always an integration written against the pre-1.0 protocol.
 *
 * Maps, not object literals: a lookup of `__proto__` or `constructor` on an object literal would
 * find Object.prototype members, and those keys do arrive from JSON.parse as own properties.
 */

const SESSIONS_DERIVED =
  "sessions are derived by the service (send `session_hint` if you hold a conversation id)";
const VERSION_NOTE = "no protocol version exists on the wire: the service adapts to the events it receives";

const REMOVED_KEYS: ReadonlyMap<string, string> = new Map([
  ["timestamp", "the service timestamps events at ingress; a caller never sends timestamps"],
  ["session_id", SESSIONS_DERIVED],
  ["parent_session_id", SESSIONS_DERIVED],
  ["turn", "turns are derived and closed by the service"],
  ["step", "step numbering is derived by the service; `step_id` alone pairs the two halves of a call"],
  // The specification names the version field only as "the protocol version field"; these are the
  // spellings pre-1.0 integrations used for it.
  ["version", VERSION_NOTE],
  ["protocol_version", VERSION_NOTE],
  ["schema_version", VERSION_NOTE],
  ["spec_version", VERSION_NOTE],
  ["agent_owner", "who uses the agent is `agent_user`"],
  [
    "event_id",
    "the service assigns `event_id` at ingress and returns it in the Verdict; a caller never mints one",
  ],
]);

const REMOVED_KINDS: ReadonlyMap<string, string> = new Map([
  ["turn/end", "the service closes turns itself; send only `step/request` and `step/response`"],
]);

/** Why `key` is refused, when it is a field removed in 1.0. */
export function removedKeyNote(key: string): string | undefined {
  const why = REMOVED_KEYS.get(key);
  return why === undefined ? undefined : `\`${key}\` was removed in 1.0: ${why}`;
}

/** Why `kind` value `value` is refused, when it is an event kind removed in 1.0. */
export function removedKindNote(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const why = REMOVED_KINDS.get(value);
  return why === undefined ? undefined : `the event kind \`${value}\` was removed in 1.0: ${why}`;
}
