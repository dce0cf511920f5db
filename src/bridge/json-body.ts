/**
 * Parses a request body as JSON. `JSON.parse` never assigns through `__proto__` (it makes
 * an own property), so hostile keys stay plain data for the closed schema to refuse.
 */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

export function parseJsonBody(raw: Buffer): { ok: true; value: unknown } | { ok: false; message: string } {
  if (raw.length === 0) return { ok: false, message: "empty body: send one JSON object" };
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    // Offsets index the body as sent: a body that is not UTF-8 cannot be addressed.
    return { ok: false, message: "body is not valid UTF-8" };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: `body is not valid JSON: ${(error as Error).message}` };
  }
}
