/**
 * Byte-level JSON helpers. Spec 2.2 forbids re-serializing a provider body before it is
 * judged (offsets index the body as sent), so the event is assembled around the raw text
 * instead of parsing and stringifying it; the one permitted addition, a top-level `timing`
 * key, is spliced into the body's own bytes.
 */

/** A GuardEvent whose `payload` is `rawPayload`, byte for byte. */
export function eventJson(envelope: Readonly<Record<string, unknown>>, rawPayload: string): string {
  const head = JSON.stringify(envelope);
  const separator = head === "{}" ? "" : ",";
  return `${head.slice(0, -1)}${separator}"payload":${rawPayload}}`;
}

/** `rawBody` with `"timing": {...}` inserted as its first key; the rest stays untouched. */
export function withTiming(rawBody: string, timing: Readonly<Record<string, string>>): string {
  const open = rawBody.indexOf("{");
  if (open < 0) return rawBody;
  const rest = rawBody.slice(open + 1);
  const separator = rest.trimStart().startsWith("}") ? "" : ",";
  return `${rawBody.slice(0, open + 1)}"timing":${JSON.stringify(timing)}${separator}${rest}`;
}

/** A copy of a body Guard returned, without the `timing` key this integration added. */
export function withoutTiming(body: Record<string, unknown>): Record<string, unknown> {
  const { timing: _timing, ...rest } = body;
  return rest;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
