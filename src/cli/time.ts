import { UsageError } from "./errors.js";

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * A time bound as operators type it: a duration back from now (`90s`, `15m`, `2h`, `7d`, `1w`) or
 * an RFC 3339 instant. Answered as an ISO instant (UTC, milliseconds), the form the store keeps.
 */
export function parseInstant(text: string, now: number, option: string): string {
  const relative = /^(\d+)([smhdw])$/.exec(text);
  if (relative) return new Date(now - Number(relative[1]) * (UNITS[relative[2] as string] as number)).toISOString();
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) {
    const at = Date.parse(text);
    if (!Number.isNaN(at)) return new Date(at).toISOString();
  }
  throw new UsageError(`--${option} must be a duration (30s, 15m, 2h, 7d) or an RFC 3339 time, got ${text}`);
}

/** Seconds as the largest whole units that matter: `45s`, `12m30s`, `3h5m`, `2d4h`. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${s % 60 ? `${s % 60}s` : ""}`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h${m % 60 ? `${m % 60}m` : ""}`;
  const d = Math.floor(h / 24);
  return `${d}d${h % 24 ? `${h % 24}h` : ""}`;
}
