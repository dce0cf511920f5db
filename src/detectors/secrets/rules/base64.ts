/**
 * Decoding helpers for values that may be base64: a secret's bytes are random, while a
 * base64 blob that decodes to readable text is encoded prose or a fixture.
 */

/** Decodes standard or URL-safe base64, or returns null when `value` is not base64. */
export function decodeBase64(value: string): Buffer | null {
  // Trim padding by hand: /=+$/ backtracks quadratically on long runs of '='.
  let end = value.length;
  while (end > 0 && value.charCodeAt(end - 1) === 0x3d) end--;
  const trimmed = value.slice(0, end);
  if (trimmed.length === 0 || !/^[A-Za-z0-9+/_-]+$/.test(trimmed)) return null;
  if (trimmed.length % 4 === 1) return null;
  return Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
}

/** True when every decoded byte is printable ASCII (or tab/newline). */
export function isPrintableAscii(bytes: Buffer): boolean {
  if (bytes.length === 0) return false;
  for (const b of bytes) if (!(b === 9 || b === 10 || b === 13 || (b >= 32 && b < 127))) return false;
  return true;
}

/** Share of decoded bytes that are printable ASCII. */
export function printableShare(bytes: Buffer): number {
  if (bytes.length === 0) return 0;
  let printable = 0;
  for (const b of bytes) if (b >= 32 && b < 127) printable++;
  return printable / bytes.length;
}

/** True when `value` is base64 of readable text containing a space: encoded prose. */
export function looksLikeEncodedText(value: string): boolean {
  const bytes = decodeBase64(value);
  if (!bytes || !isPrintableAscii(bytes)) return false;
  const text = bytes.toString("latin1");
  return text.includes(" ") || /^[a-z]+$/.test(text);
}
