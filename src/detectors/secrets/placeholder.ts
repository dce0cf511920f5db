import { distinctChars } from "./entropy.js";

/**
 * Recognises values that stand in for a secret instead of being one: redaction fillers
 * (`xxxx`, `****`, `####`), template references (`${TOKEN}`, `{{ .token }}`, `<your key>`,
 * `$(cat file)`), documentation words (`YOUR_API_KEY`, `changeme`) and truncations
 * (`ops_eyJ...`). A finding on such a value would be noise, and redacting it gains nothing.
 */

const PLACEHOLDER_WORDS = [
  "your_",
  "your-",
  "yourkey",
  "yourtoken",
  "placeholder",
  "redacted",
  "changeme",
  "change_me",
  "replace_with",
  "replace-with",
  "replaceme",
  "insert_",
  "put_your",
  "example.com",
  "<",
  ">",
  "${",
  "{{",
  "$(",
  "%(",
  "..",
  "…",
];

/** Characters conventionally typed to blank out a secret. */
function isFiller(c: string): boolean {
  return c === "x" || c === "X" || c === "*" || c === "#" || c === "." || c === "•";
}

/** True when half or more of `value` is redaction filler, or it repeats at most two characters. */
export function isMaskedOrRepetitive(value: string): boolean {
  if (distinctChars(value) <= 2) return true;
  let fillers = 0;
  for (const c of value) if (isFiller(c)) fillers++;
  return fillers * 2 >= value.length;
}

/** True when `value` is a placeholder, a template reference or a masked value. */
export function isPlaceholder(value: string): boolean {
  const lower = value.toLowerCase();
  for (const word of PLACEHOLDER_WORDS) if (lower.includes(word)) return true;
  if (/x{6}|\*{3}|#{4}/i.test(value)) return true;
  return isMaskedOrRepetitive(value);
}

/** Words that name a credential rather than being one (`user:password`, `token=token`). */
const CREDENTIAL_WORDS = new Set([
  "pass",
  "password",
  "passwd",
  "pwd",
  "secret",
  "token",
  "apikey",
  "api_key",
  "key",
  "changeme",
  "test",
  "example",
  "user",
  "username",
  "admin",
  "root",
  "guest",
  "default",
  "none",
  "null",
  "undefined",
]);

/** True when a password-like value is just a word for a credential (`pass`, `mypassword`). */
export function isCredentialWord(value: string): boolean {
  const lower = value.toLowerCase();
  if (CREDENTIAL_WORDS.has(lower)) return true;
  return lower.includes("password") || lower.includes("passwd");
}

/** True when `value` expands a shell or template variable (`$USER`, `${X}`, `$(cmd)`, `%VAR%`). */
export function isVariableReference(value: string): boolean {
  return /\$[A-Za-z_{(]|%[A-Za-z_]+%|\{\{|\[[A-Z_]+\]/.test(value);
}
