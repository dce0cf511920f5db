import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { boundSubject, type Detection } from "../detector.js";

/**
 * Email addresses, found by scanning out from each `@` instead of by one regular
 * expression: a pattern such as `[\w.]+@...` retries from every start position and is
 * quadratic on long runs of word characters. This scan is linear and bounded.
 */

const MAX_LOCAL = 64;
const PUNYCODE_TLD = /^xn--[a-z0-9-]{2,59}$/i;
const WHITESPACE = /\s/;

/** The regular expressions of this scanner, for the regex safety test. */
export const emailPatterns: readonly RegExp[] = [PUNYCODE_TLD, WHITESPACE];
const MAX_DOMAIN = 253;

function isLocalChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || // a-z
    (c >= 0x41 && c <= 0x5a) || // A-Z
    (c >= 0x30 && c <= 0x39) || // 0-9
    c === 0x2e || // .
    c === 0x5f || // _
    c === 0x25 || // %
    c === 0x2b || // +
    c === 0x2d // -
  );
}

function isDomainChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x2d ||
    c === 0x2e
  );
}

function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/** Validates the domain: at least two labels, no empty or hyphen-edged label, alphabetic TLD. */
function validDomain(domain: string): boolean {
  const labels = domain.split(".");
  if (labels.length < 2) return false;
  for (const label of labels) {
    if (label.length === 0 || label.length > 63) return false;
    if (label.startsWith("-") || label.endsWith("-")) return false;
  }
  const tld = labels[labels.length - 1] ?? "";
  if (tld.length < 2) return false;
  // Internationalised TLDs travel as punycode: `xn--p1ai`.
  if (PUNYCODE_TLD.test(tld)) return true;
  for (let i = 0; i < tld.length; i++) if (!isLetter(tld.charCodeAt(i))) return false;
  return true;
}

/** True when the ':' at `colon` separates user and password in a URL (`://` earlier in the token). */
function isUrlUserinfo(text: string, colon: number): boolean {
  let i = colon;
  while (i > 0 && colon - i < 256 && !WHITESPACE.test(text.charAt(i - 1))) i--;
  return text.slice(i, colon).includes("://");
}

/**
 * True when the address ending at `end` is followed by `:` and a path, as a login and host are
 * in `scp f deploy@web1.example.com:/srv/`, `rsync ... user@host:dir` and
 * `git@github.com:acme/app.git`: a machine account, not a mailbox. Prose puts a space (or
 * nothing) after a colon that ends a sentence's address.
 */
function isRemoteTarget(text: string, end: number): boolean {
  return text.charCodeAt(end) === 0x3a && end + 1 < text.length && !WHITESPACE.test(text.charAt(end + 1));
}

/** Finds email addresses; offsets are UTF-16 indexes into `text`. */
export function findEmails(text: string): Detection[] {
  const found: Detection[] = [];
  let at = text.indexOf("@");
  let consumedUntil = 0;
  while (at !== -1) {
    let start = at;
    while (start > consumedUntil && at - start < MAX_LOCAL && isLocalChar(text.charCodeAt(start - 1)))
      start--;
    // A local part neither starts nor ends with a dot.
    while (start < at && text.charCodeAt(start) === 0x2e) start++;
    let end = at + 1;
    while (end < text.length && end - at - 1 < MAX_DOMAIN && isDomainChar(text.charCodeAt(end))) end++;
    // Trailing dots and hyphens are sentence punctuation, not part of the domain.
    while (end > at + 1 && (text.charCodeAt(end - 1) === 0x2e || text.charCodeAt(end - 1) === 0x2d)) end--;
    // `scheme://user:password@host`: the "local part" is a URL password, not a mailbox.
    const inUrlUserinfo = text.charCodeAt(start - 1) === 0x3a && isUrlUserinfo(text, start - 1);
    const local = inUrlUserinfo || isRemoteTarget(text, end) ? "" : text.slice(start, at);
    const domain = text.slice(at + 1, end);
    if (local.length > 0 && !local.endsWith(".") && !local.includes("..") && validDomain(domain)) {
      const value = text.slice(start, end);
      found.push({
        category: "privacy.pii.email",
        severity: Severity.MEDIUM,
        start,
        end,
        score: 0.95,
        subject: boundSubject(value),
        placeholderKind: "EMAIL",
        reason: "email address",
      });
      consumedUntil = end;
    }
    at = text.indexOf("@", Math.max(at + 1, consumedUntil));
  }
  return found;
}
