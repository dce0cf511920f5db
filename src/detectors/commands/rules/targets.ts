import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { type Hit, hitOn } from "./types.js";

/**
 * How much the thing a command destroys is likely to matter, read from its names (namespace,
 * host, database, workspace, connection-string variable). An ops agent deletes preview
 * namespaces, dev databases and test caches every day; the same command aimed at what is named
 * production or backups is what a manipulated agent does. Shared by the kubernetes, databases,
 * infrastructure and cloud rules, so that one name reads the same to all of them. Words are compared whole, split at
 * any character that is not a letter or digit (`prod-db.acme.internal`, `$PROD_DATABASE_URL`).
 */

export const Tier = {
  /** Named as something nobody would miss: preview, pr-123, tmp, test, dev, localhost. */
  ephemeral: 0,
  /** Nothing in the names says either way. */
  unknown: 1,
  /** Named production, prod, prd, live, backup(s): wins over an ephemeral word in the same names. */
  production: 2,
} as const;
export type Tier = (typeof Tier)[keyof typeof Tier];

const PRODUCTION_WORDS: ReadonlySet<string> = new Set([
  "prod",
  "production",
  "prd",
  "live",
  "backup",
  "backups",
  "bkp",
]);
const EPHEMERAL_WORDS: ReadonlySet<string> = new Set([
  "preview",
  "previews",
  "tmp",
  "temp",
  "test",
  "tests",
  "testing",
  "dev",
  "devel",
  "development",
  "scratch",
  "sandbox",
  "localhost",
  "local",
  "e2e",
  "ci",
  "demo",
  "qa",
  "review",
  "ephemeral",
  "playground",
]);

/** The tier of `names` taken together. */
export function targetTier(names: readonly string[]): Tier {
  let ephemeral = false;
  for (const name of names) {
    if (name === "127.0.0.1" || name === "::1") ephemeral = true;
    const words = name.toLowerCase().split(/[^a-z0-9]/);
    for (let k = 0; k < words.length; k++) {
      const w = words[k]!;
      if (PRODUCTION_WORDS.has(w)) return Tier.production;
      // `pr-482`, `pr482`: a pull request's environment.
      if (EPHEMERAL_WORDS.has(w) || (w === "pr" && /^[0-9]{1,9}$/.test(words[k + 1] ?? ""))) ephemeral = true;
      else if (/^pr[0-9]{1,9}$/.test(w)) ephemeral = true;
    }
  }
  return ephemeral ? Tier.ephemeral : Tier.unknown;
}

/**
 * Severity of destroying a target of `tier`: HIGH for production, `unknown` for a target named
 * neither way, nothing for an ephemeral one.
 */
function severityFor(tier: Tier, unknown: Severity | undefined): Severity | undefined {
  if (tier === Tier.production) return Severity.HIGH;
  return tier === Tier.unknown ? unknown : undefined;
}

/**
 * The hit for destroying a target of `tier` (severity as `severityFor`), or none when the target
 * is ephemeral or `unknown` is undefined for a target named neither way.
 */
export function gradedHit(
  span: { readonly start: number; readonly end: number },
  rule: string,
  tier: Tier,
  unknown: Severity | undefined,
  score: number,
  reason: string,
): Hit | undefined {
  const severity = severityFor(tier, unknown);
  return severity === undefined ? undefined : hitOn(span, rule, severity, score, reason);
}

/** ` production` style suffix for a reason. */
export function tierWord(tier: Tier): string {
  return tier === Tier.production ? "production " : "";
}
