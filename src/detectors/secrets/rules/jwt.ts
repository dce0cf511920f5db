import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import type { SecretRule } from "../rule.js";
import { decodeBase64 } from "./base64.js";

/**
 * JSON Web Tokens: three base64url parts whose first decodes to a JSON header with "alg".
 * A bearer JWT is a live credential until it expires. Unsigned tokens (alg "none") are
 * reported lower because anyone can forge them.
 */

function jwtHeader(part: string): Record<string, unknown> | null {
  const bytes = decodeBase64(part);
  if (!bytes) return null;
  try {
    const parsed: unknown = JSON.parse(bytes.toString("utf8"));
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export const jwtRules: readonly SecretRule[] = [
  {
    id: "jwt",
    kind: "JWT",
    keywords: ["eyj"],
    pattern:
      /(?<![A-Za-z0-9-])(eyJ[A-Za-z0-9_-]{8,2048})\.(eyJ[A-Za-z0-9_-]{2,8192})\.([A-Za-z0-9_-]{0,2048})(?![A-Za-z0-9_-])/dg,
    group: 0,
    severity: Severity.HIGH,
    score: 0.9,
    priority: 1,
    ownPlaceholderCheck: true,
    reason: "JSON Web Token",
    accept: (_value, match) => {
      const header = jwtHeader(match[1] ?? "");
      if (!header || typeof header["alg"] !== "string") return false;
      if (jwtHeader(match[2] ?? "") === null) return false;
      const alg = header["alg"].toLowerCase();
      const signature = match[3] ?? "";
      if (alg === "none") return { severity: Severity.MEDIUM, score: 0.6 };
      return signature.length >= 16 ? true : { score: 0.6 };
    },
  },
];
