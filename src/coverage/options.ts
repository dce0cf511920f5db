/** The coverage monitor's settings from the environment, read next to their only user. */
export interface CoverageEnvironment {
  /** GUARD_ALERT_WEBHOOK_URL: where coverage alerts are POSTed as JSON; none when unset. */
  readonly webhookUrl?: string;
  /** GUARD_COVERAGE_CHECK_MS: how often heartbeat sources are checked (default 10 s). */
  readonly checkMs: number;
}

export function coverageFromEnv(env: NodeJS.ProcessEnv = process.env): CoverageEnvironment {
  const url = env["GUARD_ALERT_WEBHOOK_URL"];
  if (url) {
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:"))
      throw new Error(`GUARD_ALERT_WEBHOOK_URL must be an http(s) URL, got ${url}`);
  }
  const raw = env["GUARD_COVERAGE_CHECK_MS"];
  const checkMs = raw ? Number(raw) : 10_000;
  if (!Number.isInteger(checkMs) || checkMs < 100) throw new Error(`GUARD_COVERAGE_CHECK_MS must be an integer >= 100, got ${raw}`);
  return { ...(url ? { webhookUrl: url } : {}), checkMs };
}
