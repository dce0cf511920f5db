import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { characterClasses, hasSequentialRun, shannonEntropy } from "../entropy.js";
import { isPlaceholder, isVariableReference } from "../placeholder.js";
import type { SecretRule } from "../rule.js";
import { looksLikeEncodedText } from "./base64.js";

/**
 * Generic assignments: `api_key = "..."`, `token: ...`, `PASSWORD=...`, `"secret": "..."`.
 * The name must say credential (password, secret, token, key, ...) and not describe one
 * (`token_url`, `key_file`, `public_key`); the value must look generated: long enough,
 * several character classes, Shannon entropy over a bar, no placeholder, variable,
 * reference or function call. Format-specific rules win any overlap with this one.
 */

const MIN_LENGTH = 10;
const MIN_ENTROPY = 3;
/** Hex digests spread over 16 symbols only, so their ceiling (4 bits) sits lower. */
const MIN_ENTROPY_HEX = 2.8;

/** Name words that make the value a credential. */
function isCredentialName(words: readonly string[]): boolean {
  return words.some(
    (w) =>
      w === "key" ||
      w === "pass" ||
      w === "pwd" ||
      w === "passphrase" ||
      w.includes("passw") ||
      w.includes("secret") ||
      w.endsWith("token") ||
      w.endsWith("tokens") ||
      w.endsWith("apikey") ||
      w.endsWith("accesskey") ||
      w.endsWith("secretkey") ||
      w.endsWith("privatekey") ||
      w.endsWith("authkey") ||
      w === "credential" ||
      w === "credentials",
  );
}

/** Trailing name words that describe a credential instead of holding one. */
const DESCRIPTIVE_SUFFIXES = new Set([
  "file",
  "path",
  "dir",
  "url",
  "uri",
  "endpoint",
  "name",
  "type",
  "id",
  "ids",
  "length",
  "len",
  "size",
  "count",
  "format",
  "field",
  "env",
  "var",
  "header",
  "prefix",
  "hint",
  "policy",
  "mode",
  "expiry",
  "expires",
  "expiration",
  "ttl",
  "timeout",
  "version",
  "enabled",
  "required",
  "label",
  "description",
  "regex",
  "pattern",
  "placeholder",
  "provider",
  "store",
  "manager",
  "ref",
  "source",
  "location",
  "hash",
  "class",
]);

/** Splits `AWS_SECRET_ACCESS_KEY`, `apiKey` or `client-secret` into lower-case words. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

/** True when the name denotes a secret value. */
export function isSecretName(name: string): boolean {
  const words = nameWords(name);
  if (words.length === 0 || !isCredentialName(words)) return false;
  if (words.includes("public") || words.includes("pub")) return false;
  return !DESCRIPTIVE_SUFFIXES.has(words[words.length - 1] ?? "");
}

/**
 * `AWS_SECRET_ACCESS_KEY`, `aws_secret_key`: the AWS rule judges these, since such a key is
 * always 40 characters; a value of another shape under that name (an encrypted blob, a
 * vault reference) is not an AWS key.
 */
function isAwsSecretKeyName(name: string): boolean {
  const words = nameWords(name);
  return words.includes("aws") && words.includes("secret") && words[words.length - 1] === "key";
}

/** `process.env.TOKEN`, `self.api_key`, `os.environ`: a reference to where the value lives. */
function isMemberReference(value: string): boolean {
  const parts = value.split(".");
  return parts.length > 1 && parts.every((p) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(p) && !/\d{3}/.test(p));
}

/** True when `value` runs into a template interpolation: `${`, `#{` or `%{` (JS, Ruby, Python). */
function isInterpolation(value: string, next: string): boolean {
  return next === "{" && /[$#%]$/.test(value);
}

/** True when `value` looks like a generated credential rather than a word, path or reference. */
export function looksGenerated(value: string): boolean {
  if (value.length < MIN_LENGTH || isPlaceholder(value) || isVariableReference(value)) return false;
  if (/^[a-z_-]+$/.test(value) || /^[A-Z_-]+$/.test(value) || /^\d+$/.test(value)) return false;
  // A URL or a path; `@path` is curl's and httpie's "the contents of this file" (`-F key=@~/k.pub`).
  if (value.includes("://") || /^@?(?:\/|\.{1,2}\/|~\/|[A-Za-z]:\\)/.test(value)) return false;
  if (isMemberReference(value) || hasSequentialRun(value, 6)) return false;
  if (characterClasses(value) < 2) return false;
  const entropy = shannonEntropy(value);
  const isHex = /^[0-9a-f]+$/i.test(value);
  if (entropy < (isHex && value.length >= 16 ? MIN_ENTROPY_HEX : MIN_ENTROPY)) return false;
  // Only letters: a camelCase identifier unless long and very spread out.
  if (/^[A-Za-z]+$/.test(value) && (value.length < 16 || entropy < 3.6)) return false;
  return !looksLikeEncodedText(value);
}

const NAME_KEYWORDS = ["key", "token", "secret", "pass", "pwd", "credential"];
/** The longest name the pattern accepts. */
const MAX_NAME = 64;

/** True for the characters of a name: letters, digits, `_`, `.` and `-`. */
function isNameChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x5f ||
    c === 0x2e ||
    c === 0x2d
  );
}

/**
 * Where an assignment to a credential name can start: the name holds one of the keywords,
 * so each keyword occurrence is walked back to the start of its name (at most 64
 * characters, the longest name the pattern takes).
 */
function locateNames(text: string, lower: string): number[] {
  const starts = new Set<number>();
  for (const keyword of NAME_KEYWORDS) {
    for (let at = lower.indexOf(keyword); at !== -1; at = lower.indexOf(keyword, at + 1)) {
      let start = at;
      while (start > 0 && at - start < MAX_NAME && isNameChar(text.charCodeAt(start - 1))) start--;
      if (start === 0 || !isNameChar(text.charCodeAt(start - 1))) starts.add(start);
    }
  }
  return [...starts].sort((a, b) => a - b);
}

export const genericRules: readonly SecretRule[] = [
  {
    id: "generic",
    kind: "SECRET",
    keywords: NAME_KEYWORDS,
    pattern:
      /(?<![A-Za-z0-9_.-])([A-Za-z_][A-Za-z0-9_.-]{0,63})["'\]]{0,2}[ \t]{0,4}(?::=|=>|=|:)[ \t]{0,4}(?:\\?["'`])?([^\s"'`\\;,<>(){}[\]|]{8,256})/dg,
    group: 2,
    severity: Severity.HIGH,
    score: 0.7,
    priority: 0,
    ownPlaceholderCheck: true,
    locate: locateNames,
    reason: "high-entropy value assigned to a credential name",
    accept: (value, match, text) => {
      const name = match[1] ?? "";
      if (!isSecretName(name) || isAwsSecretKeyName(name)) return false;
      // Trailing dots end the sentence, unless they mark a truncation (`ops_eyJzaWdu..[Redacted]`).
      if (isPlaceholder(value) || /EXAMPLE/.test(value)) return false;
      let cut = value.length;
      while (cut > 0 && value.charCodeAt(cut - 1) === 0x2e) cut--;
      const trimmed = value.slice(0, cut);
      const end = (match.indices?.[2]?.[0] ?? 0) + trimmed.length;
      // `token = getToken()`: a call, not a value; `key: \`user-${id}\``: built from a template.
      if (text.charAt(end) === "(" || isInterpolation(trimmed, text.charAt(end))) return false;
      if (!looksGenerated(trimmed)) return false;
      return { end, value: trimmed, score: Math.min(0.9, 0.5 + shannonEntropy(trimmed) / 10) };
    },
  },
];
