import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { characterClasses } from "../entropy.js";
import type { SecretRule } from "../rule.js";

/** Tokens of SaaS platforms with a distinctive prefix or shape. */

/** Builds a rule for a token recognised by its prefix alone. */
function prefixed(
  id: string,
  kind: string,
  keyword: string,
  pattern: RegExp,
  reason: string,
  severity: Severity = Severity.HIGH,
  minEntropy = 3,
): SecretRule {
  return { id, kind, keywords: [keyword], pattern, severity, score: 0.9, minEntropy, priority: 2, reason };
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Where a Facebook app token can start: 16 or 15 digits before a `|` or `%7C`. */
function locateAppTokens(text: string, lower: string): number[] {
  const starts: number[] = [];
  for (const separator of ["|", "%7c"]) {
    for (let at = lower.indexOf(separator); at !== -1; at = lower.indexOf(separator, at + 1)) {
      let digits = 0;
      while (digits < 16 && at - digits > 0 && isDigit(text.charCodeAt(at - digits - 1))) digits++;
      if (digits >= 15) starts.push(at - digits);
    }
  }
  return starts.sort((a, b) => a - b);
}

export const saasRules: readonly SecretRule[] = [
  {
    id: "slack_token",
    kind: "SLACK_TOKEN",
    keywords: ["xox"],
    // Bot, user, app-level and legacy tokens: "xox?-", a team or user number, then more.
    pattern: /\b(xox[a-z]-\d{8,14}-[A-Za-z0-9-]{10,250})(?![A-Za-z0-9-])/dg,
    severity: Severity.CRITICAL,
    score: 0.9,
    priority: 2,
    reason: "Slack token",
  },
  {
    id: "slack_token",
    kind: "SLACK_TOKEN",
    keywords: ["xoxe"],
    // Configuration access and refresh tokens.
    pattern: /\b(xoxe(?:\.xox[bp])?-\d-[A-Za-z0-9]{100,300})(?![A-Za-z0-9])/dg,
    severity: Severity.CRITICAL,
    score: 0.9,
    minEntropy: 3.5,
    priority: 2,
    reason: "Slack configuration token",
  },
  prefixed(
    "slack_token",
    "SLACK_TOKEN",
    "xapp-",
    /\b(xapp-\d-[A-Z0-9]{9,12}-\d{10,14}-[a-z0-9]{32,80})(?![A-Za-z0-9])/dg,
    "Slack app-level token",
    Severity.CRITICAL,
  ),
  {
    id: "slack_webhook",
    kind: "SLACK_WEBHOOK",
    keywords: ["hooks.slack.com"],
    pattern:
      /(hooks\.slack\.com\/(?:services|workflows|triggers)\/T[A-Z0-9]{6,12}\/[A-Z0-9]{6,14}\/(?:\d{10,20}\/)?[A-Za-z0-9]{20,40})(?![A-Za-z0-9])/dg,
    severity: Severity.HIGH,
    score: 0.9,
    minEntropy: 3,
    priority: 2,
    reason: "Slack incoming webhook URL",
  },
  {
    id: "stripe_key",
    kind: "STRIPE_KEY",
    keywords: ["sk_live_", "rk_live_", "sk_test_", "rk_test_"],
    // Secret and restricted keys; test-mode keys touch no money and rank lower.
    pattern: /\b((?:sk|rk)_(live|test)_[A-Za-z0-9]{24,247})(?![A-Za-z0-9])/dg,
    severity: Severity.CRITICAL,
    score: 0.95,
    priority: 2,
    reason: "Stripe secret key",
    accept: (_value, match) => (match[2] === "test" ? { severity: Severity.MEDIUM, score: 0.8 } : true),
  },
  prefixed(
    "sendgrid_api_key",
    "SENDGRID_KEY",
    "sg.",
    /\b(SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/dg,
    "SendGrid API key",
  ),
  prefixed(
    "shopify_token",
    "SHOPIFY_TOKEN",
    "shp",
    /\b(shp(?:at|ca|pa|ss)_[A-Za-z0-9]{32,64})(?![A-Za-z0-9])/dg,
    "Shopify access token or app secret",
  ),
  prefixed(
    "databricks_token",
    "DATABRICKS_TOKEN",
    "dapi",
    /\b(dapi[a-fA-F0-9]{32}(?:-\d)?)(?![A-Za-z0-9])/dg,
    "Databricks personal access token",
    Severity.CRITICAL,
  ),
  prefixed(
    "digitalocean_token",
    "DIGITALOCEAN_TOKEN",
    "_v1_",
    /\b(do[opr]_v1_[a-f0-9]{64})(?![A-Za-z0-9])/dg,
    "DigitalOcean token",
    Severity.CRITICAL,
  ),
  prefixed(
    "figma_token",
    "FIGMA_TOKEN",
    "figd_",
    /\b(figd_[A-Za-z0-9_-]{40,64})(?![A-Za-z0-9_-])/dg,
    "Figma personal access token",
  ),
  prefixed(
    "cloudflare_token",
    "CLOUDFLARE_TOKEN",
    "cf",
    /\b(cf(?:at|ut|k)_[A-Za-z0-9]{48})(?![A-Za-z0-9])/dg,
    "Cloudflare API token",
    Severity.CRITICAL,
  ),
  prefixed(
    "grafana_token",
    "GRAFANA_TOKEN",
    "glc_",
    /\b(glc_[A-Za-z0-9+/]{32,400}={0,2})(?![A-Za-z0-9+/=])/dg,
    "Grafana Cloud API token",
  ),
  prefixed(
    "grafana_token",
    "GRAFANA_TOKEN",
    "glsa_",
    /\b(glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})(?![A-Za-z0-9])/dg,
    "Grafana service account token",
  ),
  prefixed(
    "vault_token",
    "VAULT_TOKEN",
    "hv",
    /\b(hv[sbr]\.[A-Za-z0-9_-]{24,300})(?![A-Za-z0-9_-])/dg,
    "HashiCorp Vault token",
    Severity.CRITICAL,
    3.5,
  ),
  {
    id: "vault_token",
    kind: "VAULT_TOKEN",
    keywords: ["vault", "token"],
    // Legacy service tokens "s." + 24 characters: too short a prefix to trust without
    // a vault or token keyword nearby and a generated-looking body.
    pattern: /\b(s\.[A-Za-z0-9]{24})(?![A-Za-z0-9.])/dg,
    severity: Severity.CRITICAL,
    score: 0.7,
    minEntropy: 3.5,
    priority: 2,
    reason: "HashiCorp Vault legacy service token",
    accept: (value) => characterClasses(value.slice(2)) === 3,
  },
  prefixed(
    "notion_token",
    "NOTION_TOKEN",
    "ntn_",
    /\b(ntn_\d{11}[A-Za-z0-9]{35})(?![A-Za-z0-9])/dg,
    "Notion integration token",
  ),
  prefixed(
    "linear_api_key",
    "LINEAR_KEY",
    "lin_api_",
    /\b(lin_api_[A-Za-z0-9]{40})(?![A-Za-z0-9])/dg,
    "Linear API key",
  ),
  prefixed(
    "tailscale_key",
    "TAILSCALE_KEY",
    "tskey-",
    /(?<![A-Za-z])(tskey-[a-z]{3,10}-[A-Za-z0-9]{8,16}-[A-Za-z0-9]{16,40})(?![A-Za-z0-9])/dg,
    "Tailscale key",
    Severity.CRITICAL,
    0,
  ),
  prefixed(
    "onepassword_token",
    "ONEPASSWORD_TOKEN",
    "ops_eyj",
    /\b(ops_eyJ[A-Za-z0-9+/]{250,4000}={0,3})(?![A-Za-z0-9+/=])/dg,
    "1Password service account token",
    Severity.CRITICAL,
  ),
  prefixed(
    "sourcegraph_token",
    "SOURCEGRAPH_TOKEN",
    "sgp_",
    /\b(sgp_(?:local_|[a-fA-F0-9]{16}_)?[a-fA-F0-9]{40})(?![A-Za-z0-9_])/dg,
    "Sourcegraph access token",
  ),
  {
    id: "sourcegraph_token",
    kind: "SOURCEGRAPH_TOKEN",
    keywords: ["sourcegraph"],
    pattern: /sourcegraph[\w.-]{0,20}["']?[ \t]{0,4}[:=][ \t]{0,4}["']?([a-fA-F0-9]{40})(?![A-Za-z0-9])/dgi,
    severity: Severity.HIGH,
    score: 0.8,
    minEntropy: 3.5,
    priority: 2,
    reason: "Sourcegraph access token",
  },
  prefixed(
    "octopus_api_key",
    "OCTOPUS_KEY",
    "api-",
    /\b(API-[A-Z0-9]{26})(?![A-Za-z0-9])/dg,
    "Octopus Deploy API key",
  ),
  prefixed(
    "intra42_secret",
    "INTRA42_SECRET",
    "s-s4t2",
    /\b(s-s4t2(?:ud|af)-[a-f0-9]{64})(?![A-Za-z0-9])/dg,
    "42 Intra client secret",
  ),
  prefixed(
    "facebook_token",
    "FACEBOOK_TOKEN",
    "eaa",
    /\b(EAA[A-Za-z0-9]{90,400})(?![A-Za-z0-9])/dg,
    "Facebook page or user access token",
    Severity.HIGH,
    3.5,
  ),
  {
    id: "facebook_token",
    kind: "FACEBOOK_TOKEN",
    keywords: ["|", "%7c"],
    // App access tokens: "<app id>|<app secret>".
    pattern: /(?<![0-9])(\d{15,16}(?:\||%7C)[A-Za-z0-9_-]{27})(?![A-Za-z0-9_-])/dg,
    // '|' is common (tables, shell pipes): try only 15 or 16 characters before each one.
    locate: locateAppTokens,
    severity: Severity.HIGH,
    score: 0.75,
    priority: 2,
    reason: "Facebook app access token",
    accept: (value) => characterClasses(value.slice(value.length - 27)) >= 3,
  },
  prefixed(
    "telegram_bot_token",
    "TELEGRAM_TOKEN",
    ":aa",
    /(?<![0-9])(\d{8,10}:AA[A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])/dg,
    "Telegram bot token",
  ),
  prefixed(
    "mailgun_api_key",
    "MAILGUN_KEY",
    "key-",
    /\b(key-[a-f0-9]{32})(?![A-Za-z0-9])/dg,
    "Mailgun API key",
  ),
  prefixed(
    "square_token",
    "SQUARE_TOKEN",
    "sq0",
    /\b(sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43})(?![A-Za-z0-9_-])/dg,
    "Square access token or OAuth secret",
  ),
  prefixed(
    "postman_api_key",
    "POSTMAN_KEY",
    "pmak-",
    /\b(PMAK-[a-f0-9]{24}-[a-f0-9]{34})(?![A-Za-z0-9])/dg,
    "Postman API key",
  ),
  prefixed(
    "pulumi_token",
    "PULUMI_TOKEN",
    "pul-",
    /\b(pul-[a-f0-9]{40})(?![A-Za-z0-9])/dg,
    "Pulumi access token",
  ),
  prefixed(
    "doppler_token",
    "DOPPLER_TOKEN",
    "dp.",
    /\b(dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44})(?![A-Za-z0-9])/dg,
    "Doppler token",
  ),
  prefixed(
    "newrelic_key",
    "NEWRELIC_KEY",
    "nrak-",
    /\b(NRAK-[A-Z0-9]{27})(?![A-Za-z0-9])/dg,
    "New Relic user API key",
  ),
  prefixed(
    "supabase_token",
    "SUPABASE_TOKEN",
    "sbp_",
    /\b(sbp_[a-f0-9]{40})(?![A-Za-z0-9])/dg,
    "Supabase access token",
  ),
  prefixed(
    "planetscale_token",
    "PLANETSCALE_TOKEN",
    "pscale_",
    /\b(pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,64})(?![A-Za-z0-9_.-])/dg,
    "PlanetScale token or password",
  ),
  prefixed(
    "terraform_token",
    "TERRAFORM_TOKEN",
    ".atlasv1.",
    /\b([a-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70})(?![A-Za-z0-9_=-])/dg,
    "Terraform Cloud API token",
  ),
  prefixed(
    "heroku_key",
    "HEROKU_KEY",
    "hrku-",
    /\b(HRKU-AA[A-Za-z0-9_-]{58})(?![A-Za-z0-9_-])/dg,
    "Heroku API key",
  ),
  prefixed(
    "age_secret_key",
    "AGE_KEY",
    "age-secret-key-1",
    /\b(AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})(?![A-Za-z0-9])/dg,
    "age encryption secret key",
    Severity.CRITICAL,
  ),
  prefixed(
    "sentry_token",
    "SENTRY_TOKEN",
    "sntr",
    /\b(sntr[ysu]_[A-Za-z0-9+/=_-]{40,300})(?![A-Za-z0-9+/=_-])/dg,
    "Sentry auth token",
  ),
];
