/**
 * Decoders for the encodings attackers use to hide instructions from keyword filters while a
 * model still reads them (base64, hex, space-separated binary). Each returns the decoded text
 * only when it looks like prose: mostly printable ASCII with a few spaces. Random tokens, hashes,
 * images and keys decode to bytes that fail this test, so they cost a decode and nothing more.
 */

/** Longest blob decoded; longer ones are truncated (an instruction needs far less). */
export const MAX_BLOB_CHARS = 16_384;

/** True when `bytes` read as English-like text: printable ASCII and at least two spaces. */
function looksLikeProse(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false;
  let printable = 0;
  let spaces = 0;
  let letters = 0;
  for (const b of bytes) {
    if (b === 0x20) spaces++;
    if ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)) letters++;
    if ((b >= 0x20 && b < 0x7f) || b === 0x0a || b === 0x0d || b === 0x09) printable++;
  }
  return printable >= bytes.length * 0.95 && spaces >= 2 && letters >= bytes.length * 0.5;
}

function bytesToText(bytes: Uint8Array): string | undefined {
  return looksLikeProse(bytes) ? Buffer.from(bytes).toString("latin1") : undefined;
}

/** Decodes standard or URL-safe base64 (padding optional). */
export function decodeBase64Prose(blob: string): string | undefined {
  const clipped = blob.length > MAX_BLOB_CHARS ? blob.slice(0, MAX_BLOB_CHARS - (MAX_BLOB_CHARS % 4)) : blob;
  return bytesToText(new Uint8Array(Buffer.from(clipped, "base64")));
}

/** Decodes an even-length run of hex digits. */
export function decodeHexProse(blob: string): string | undefined {
  const clipped = blob.slice(0, Math.min(blob.length - (blob.length % 2), MAX_BLOB_CHARS));
  return bytesToText(new Uint8Array(Buffer.from(clipped, "hex")));
}

/** Decodes 8-bit groups such as `01001001 01100111`; `groups` are already split. */
export function decodeBinaryProse(groups: readonly string[]): string | undefined {
  const bytes = new Uint8Array(Math.min(groups.length, MAX_BLOB_CHARS / 8));
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(groups[i] ?? "0", 2);
  return bytesToText(bytes);
}
