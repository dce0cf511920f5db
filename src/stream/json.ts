/**
 * Small readers for the untrusted JSON inside frames. Frame data comes from a provider (or
 * from whoever stands in for one), so every access is typed defensively and nothing here
 * throws: a wrong shape reads as "absent".
 */

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The parsed value, or `undefined` when the text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The value when it is a string, else `undefined`. */
export function stringValue(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A non-negative integer index, else `undefined` (so a hostile index cannot alias another). */
export function indexValue(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** UTF-8 length of a string (0 for anything else): the unit of the head-release budget. */
export function utf8Bytes(value: unknown): number {
  return typeof value === "string" ? Buffer.byteLength(value, "utf8") : 0;
}

/**
 * Sets an own, enumerable property. Plain assignment would treat a provider-sent key
 * `__proto__` as a prototype change; this keeps it an ordinary (inert) data property.
 */
export function setOwn(target: JsonRecord, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Copies the own enumerable properties of `source` into a fresh object, safely. */
export function copyRecord(source: JsonRecord): JsonRecord {
  const copy: JsonRecord = {};
  for (const key of Object.keys(source)) setOwn(copy, key, source[key]);
  return copy;
}
