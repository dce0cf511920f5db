/**
 * A deep copy of plain record data (objects, arrays, primitives), the only shapes the session
 * records hold (records.ts). The in-memory state hands out and keeps copies so that no caller
 * can change a stored record behind its back; `structuredClone` does the same through a
 * serialiser, several times slower, and a step reads and writes several records.
 */
export function clonePlain<T>(value: T): T {
  if (Array.isArray(value)) return value.map(clonePlain) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = clonePlain((value as Record<string, unknown>)[key]);
    return out as T;
  }
  return value;
}
