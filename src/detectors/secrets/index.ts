import type { Detection, Detector } from "../detector.js";
import { boundSubject } from "../detector.js";
import { buildPrefilter } from "./prefilter.js";
import { runRule, type SecretHit, type SecretRule } from "./rule.js";
import { authHeaderRules } from "./rules/auth-header.js";
import { cloudRules } from "./rules/cloud.js";
import { genericRules } from "./rules/generic.js";
import { jwtRules } from "./rules/jwt.js";
import { llmRules } from "./rules/llm.js";
import { privateKeyRules } from "./rules/private-key.js";
import { saasRules } from "./rules/saas.js";
import { urlCredentialRules } from "./rules/url-credentials.js";
import { vcsRules } from "./rules/vcs.js";

/**
 * Leaked credentials (`security.secret_leak.<kind>`).
 *
 * Severity scale: critical = a live credential that grants direct access to an account,
 * cloud or database (cloud keys, VCS and package tokens, private keys, passwords in
 * database URLs); high = a credential whose reach is narrower or less certain (JWTs,
 * Authorization headers, generic high-entropy assignments, webhooks); medium = test-mode or
 * unsigned credentials. The score is the confidence that the value is a real secret:
 * about 0.9 for formats with a distinctive prefix, 0.5 to 0.9 for generic assignments by
 * entropy.
 *
 * AWS's documented example keys (AKIAIOSFODNN7EXAMPLE, ...EXAMPLEKEY) are not reported:
 * they are published, grant nothing and appear in countless READMEs.
 */

export const secretRules: readonly SecretRule[] = [
  ...privateKeyRules,
  ...cloudRules,
  ...vcsRules,
  ...llmRules,
  ...saasRules,
  ...jwtRules,
  ...urlCredentialRules,
  ...authHeaderRules,
  ...genericRules,
];

const prefilter = buildPrefilter(secretRules);

/** Every regular expression of this detector's rules, for the regex safety tests. */
export const secretPatterns: readonly RegExp[] = secretRules.map((r) => r.pattern);

/** Keeps the strongest of overlapping hits: higher priority, then longer span. */
function resolveOverlaps(hits: SecretHit[], length: number): SecretHit[] {
  const ranked = [...hits].sort(
    (a, b) => (b.rule.priority ?? 2) - (a.rule.priority ?? 2) || b.end - b.start - (a.end - a.start),
  );
  // One flag per code unit: a span check costs its length, linear in the number of rules.
  const claimed = new Uint8Array(length);
  const kept: SecretHit[] = [];
  for (const hit of ranked) {
    if (claimed.subarray(hit.start, hit.end).includes(1)) continue;
    claimed.fill(1, hit.start, hit.end);
    kept.push(hit);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** Finds secrets in `text`; offsets are UTF-16 indexes. */
export function findSecrets(text: string): Detection[] {
  const lower = text.toLowerCase();
  const rules = prefilter.select(text, lower);
  if (rules.length === 0) return [];
  const hits: SecretHit[] = [];
  for (const rule of rules) hits.push(...runRule(rule, text, lower));
  return resolveOverlaps(hits, text.length).map((hit) => ({
    category: `security.secret_leak.${hit.rule.id}`,
    severity: hit.severity,
    start: hit.start,
    end: hit.end,
    score: hit.score,
    subject: boundSubject(hit.value),
    placeholderKind: hit.rule.kind,
    reason: hit.rule.reason,
  }));
}

export const secretsDetector: Detector = {
  name: "secrets",
  version: "3",
  categories: ["security.secret_leak.*"],
  detect(segment) {
    return findSecrets(segment.text);
  },
};
