import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { distinctChars, shannonEntropy } from "../entropy.js";
import { isCredentialWord, isPlaceholder, isVariableReference } from "../placeholder.js";
import type { SecretRule } from "../rule.js";

/**
 * Credentials embedded in URLs: `scheme://user:password@host`. Database schemes are
 * reported as `database_url` (DB_URL), every other scheme as `basic_auth_url`.
 *
 * The span covers the password only, not the whole URL: redacting it yields
 * `postgres://app:[DB_URL]@db:5432/x`, which still tells the reader (and the model) which
 * server and account were meant while removing the part that grants access. For GitHub's
 * `https://<token>:x-oauth-basic@github.com` form the token sits in the user part, and
 * the span covers that instead.
 */

const DATABASE_SCHEMES = new Set([
  "postgres",
  "postgresql",
  "mysql",
  "mysqlx",
  "mariadb",
  "mongodb",
  "mongodb+srv",
  "redis",
  "rediss",
  "amqp",
  "amqps",
  "mssql",
  "sqlserver",
  "oracle",
  "cockroachdb",
  "clickhouse",
  "neo4j",
  "neo4j+s",
  "bolt",
  "couchbase",
  "couchbases",
  "memcached",
  "nats",
  "kafka",
]);

const TOKEN_PASSWORDS = new Set(["x-oauth-basic", "x-oauth-token"]);

/** A password worth reporting: not a placeholder, a variable, a word, or the user name. */
export function isRealPassword(password: string, user: string): boolean {
  if (password.length < 4 || password === user) return false;
  if (isPlaceholder(password) || isVariableReference(password) || isCredentialWord(password)) return false;
  // `{PASS}`, `[PASSWORD]`: a template slot, not a value.
  if (/^[{[][A-Za-z_]+[}\]]$/.test(password)) return false;
  return distinctChars(password) >= 3;
}

function isDatabaseScheme(scheme: string): boolean {
  return DATABASE_SCHEMES.has(scheme) || scheme.startsWith("jdbc");
}

function acceptUrl(
  match: RegExpExecArray,
  database: boolean,
): boolean | { start: number; end: number; value: string; severity?: Severity } {
  const scheme = (match[1] ?? "").toLowerCase();
  if (isDatabaseScheme(scheme) !== database) return false;
  const user = match[2] ?? "";
  const password = match[3] ?? "";
  const userSpan = match.indices?.[2];
  if (TOKEN_PASSWORDS.has(password.toLowerCase())) {
    if (!userSpan || user.length < 20 || shannonEntropy(user) < 3) return false;
    return { start: userSpan[0], end: userSpan[1], value: user, severity: Severity.CRITICAL };
  }
  return isRealPassword(password, user);
}

/** The user part stops at ':' and '@'; the password may hold '@', so it runs to the last one. */
const URL_WITH_PASSWORD =
  /\b([A-Za-z][A-Za-z0-9+.-]{0,19}):\/\/([^\s:/?#@"'`<>[\]{}]{0,128}):([^\s/?#"'`<>]{1,256})@(?=[A-Za-z0-9[])/dg;

/** The longest scheme the pattern accepts. */
const MAX_SCHEME = 20;

function isWordChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}

function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/** True for the characters of a scheme after its first letter. */
function isSchemeChar(c: number): boolean {
  return isWordChar(c) ? c !== 0x5f : c === 0x2b || c === 0x2e || c === 0x2d;
}

/** Where a URL can start: a letter at a word boundary, at most 20 characters before a `://`. */
function locateUrls(text: string, lower: string): number[] {
  const starts: number[] = [];
  for (let at = lower.indexOf("://"); at !== -1; at = lower.indexOf("://", at + 3)) {
    let start = at;
    while (start > 0 && at - start < MAX_SCHEME && isSchemeChar(text.charCodeAt(start - 1))) start--;
    for (let p = start; p < at; p++)
      if (isLetter(text.charCodeAt(p)) && (p === 0 || !isWordChar(text.charCodeAt(p - 1)))) starts.push(p);
  }
  return starts;
}

export const urlCredentialRules: readonly SecretRule[] = [
  {
    id: "database_url",
    kind: "DB_URL",
    keywords: ["://"],
    pattern: URL_WITH_PASSWORD,
    group: 3,
    severity: Severity.CRITICAL,
    score: 0.9,
    priority: 2,
    ownPlaceholderCheck: true,
    locate: locateUrls,
    reason: "database connection URL with a password",
    accept: (_value, match) => acceptUrl(match, true),
  },
  {
    id: "basic_auth_url",
    kind: "BASIC_AUTH",
    keywords: ["://"],
    pattern: new RegExp(URL_WITH_PASSWORD.source, "dg"),
    group: 3,
    severity: Severity.HIGH,
    score: 0.85,
    priority: 2,
    ownPlaceholderCheck: true,
    locate: locateUrls,
    reason: "URL with embedded credentials",
    accept: (_value, match) => acceptUrl(match, false),
  },
];
