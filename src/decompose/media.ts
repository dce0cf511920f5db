/**
 * Sizes of media parts. Media is never judged as text; the pipeline checks each part
 * against the organisation's per-kind caps, so decomposition only reports kind, path and
 * how many bytes of inline data the part carries (0 for a reference by URL or file id).
 */

const WHITESPACE = /\s/;
const ALL_WHITESPACE = /\s+/g;

/** Decoded size of base64 text, computed from its length without decoding it. */
export function base64Bytes(data: string): number {
  // MIME-style base64 may wrap lines; whitespace carries no data.
  const clean = WHITESPACE.test(data) ? data.replace(ALL_WHITESPACE, "") : data;
  let padding = 0;
  if (clean.endsWith("==")) padding = 2;
  else if (clean.endsWith("=")) padding = 1;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** Bytes carried inline by a URL: the payload of a `data:` URL, 0 for any other reference. */
export function urlBytes(url: string): number {
  if (!url.startsWith("data:")) return 0;
  const comma = url.indexOf(",");
  if (comma < 0) return 0;
  const data = url.slice(comma + 1);
  return url.slice(5, comma).endsWith(";base64") ? base64Bytes(data) : Buffer.byteLength(data, "utf8");
}

/** Bytes of a field that may hold either a data URL or bare base64 (vendor_a `file_data`). */
export function inlineBytes(value: string): number {
  return value.startsWith("data:") ? urlBytes(value) : base64Bytes(value);
}
