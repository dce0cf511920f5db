import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { shannonEntropy } from "../entropy.js";
import { isPlaceholder, isVariableReference } from "../placeholder.js";
import type { SecretRule } from "../rule.js";
import { decodeBase64, printableShare } from "./base64.js";
import { isRealPassword } from "./url-credentials.js";

/**
 * Credentials in HTTP terms: `Authorization:` header values (Bearer, Basic, Token or
 * bare) and `curl -u user:password` / `--user` arguments, as they appear in commands an
 * agent runs or pastes.
 */

const SCHEME_WORDS = new Set(["bearer", "basic", "token", "bot", "api-token", "digest", "negotiate"]);

function acceptHeader(value: string, match: RegExpExecArray): boolean | { score: number } {
  const scheme = (match[1] ?? "").toLowerCase();
  if (SCHEME_WORDS.has(value.toLowerCase()) || isPlaceholder(value) || isVariableReference(value))
    return false;
  if (scheme === "basic") {
    const bytes = decodeBase64(value);
    // `user:password` in base64; tolerate a stray byte (a mangled paste is still a leak).
    if (bytes === null) return false;
    return bytes.includes(":".charCodeAt(0)) && printableShare(bytes) >= 0.9;
  }
  if (value.length < 8 && shannonEntropy(value) < 2.5) return false;
  return shannonEntropy(value) >= 2.5 ? true : { score: 0.6 };
}

function acceptCurlUser(match: RegExpExecArray): boolean | { start: number; end: number; value: string } {
  const user = match[1] ?? "";
  const password = match[2] ?? "";
  if (/[<$]/.test(user) && isVariableReference(user)) return false;
  if (user.includes("<")) return false;
  if (password.length === 0) {
    // `-u "<token>:"`: the user part is the credential (API keys passed as user names).
    const span = match.indices?.[1];
    if (!span || user.length < 8 || shannonEntropy(user) < 3 || isPlaceholder(user)) return false;
    return { start: span[0], end: span[1], value: user };
  }
  return isRealPassword(password, user) && password.length >= 6;
}

export const authHeaderRules: readonly SecretRule[] = [
  {
    id: "http_authorization",
    kind: "AUTH_HEADER",
    keywords: ["authorization"],
    pattern:
      /(?<![A-Za-z0-9-])(?:[Pp]roxy-)?[Aa]uthorization["']?[ \t]{0,4}[:=][ \t]{0,4}(?:(Bearer|Basic|Token|Bot|Api-Token|bearer|basic|token)[ \t]{1,4})?([A-Za-z0-9+/=._~:@!%-]{6,4096})/dg,
    group: 2,
    severity: Severity.HIGH,
    score: 0.85,
    priority: 1,
    ownPlaceholderCheck: true,
    reason: "credential in an Authorization header",
    accept: (value, match) => acceptHeader(value, match),
  },
  {
    id: "basic_auth_credentials",
    kind: "BASIC_AUTH",
    keywords: ["-u", "--user"],
    pattern:
      /(?<![A-Za-z0-9_-])(?:-u|--user)(?:[ \t]{1,3}|=)["']?([^\s"':]{0,100})["']?:["']?([^\s"']{0,128})/dg,
    group: 2,
    severity: Severity.HIGH,
    score: 0.8,
    priority: 1,
    ownPlaceholderCheck: true,
    reason: "password passed on a command line (-u user:password)",
    accept: (_value, match) => acceptCurlUser(match),
  },
];
