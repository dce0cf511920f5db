/**
 * Timing knobs of the streamed transport. They are read from the environment when the
 * route is registered, because the bridge is built by src/app.ts from the configuration and
 * these are deployment (and test) tuning, not part of any organization's policy.
 *
 * - `GUARD_STREAM_KEEPALIVE_MS` (default 3000): how often a `: keepalive` comment goes out
 *   while the caller's client waits for the stream end and the verdict, so proxies with
 *   idle timeouts keep the connection open.
 * - `GUARD_STREAM_JUDGE_TIMEOUT_MS` (default 30000): how long after the stream ended the
 *   verdict may take before it counts as missing and `guard-fail-mode` decides.
 */
export interface StreamSettings {
  readonly keepaliveMs: number;
  readonly judgeTimeoutMs: number;
}

export const DEFAULT_STREAM_SETTINGS: StreamSettings = { keepaliveMs: 3000, judgeTimeoutMs: 30_000 };

function positive(raw: string | undefined, fallback: number): number {
  const value = raw === undefined ? Number.NaN : Number(raw);
  return Number.isSafeInteger(value) && value > 0 ? value : fallback;
}

export function streamSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): StreamSettings {
  return {
    keepaliveMs: positive(env["GUARD_STREAM_KEEPALIVE_MS"], DEFAULT_STREAM_SETTINGS.keepaliveMs),
    judgeTimeoutMs: positive(env["GUARD_STREAM_JUDGE_TIMEOUT_MS"], DEFAULT_STREAM_SETTINGS.judgeTimeoutMs),
  };
}
