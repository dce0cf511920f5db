/**
 * GUARD_METRICS_PORT: when set, /metrics is served on this port (on the bridge's host) instead of
 * the bridge. Read here, next to its only user, so the core environment stays about the bridge.
 */
export function metricsPortFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const value = env["GUARD_METRICS_PORT"];
  if (value === undefined || value === "") return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`GUARD_METRICS_PORT must be a port number, got ${value}`);
  return port;
}
