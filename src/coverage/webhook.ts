import type { CoverageAlert } from "./alert.js";

export interface WebhookLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * POSTs an alert as JSON to the operator's webhook (GUARD_ALERT_WEBHOOK_URL). Bounded by a timeout
 * and never awaited by the monitor: a slow or dead receiver delays nothing and loses only its own
 * delivery, which is logged (the structured log line and the metric already carry the alert).
 */
export async function postAlert(
  url: string,
  alert: CoverageAlert,
  logger: WebhookLogger,
  timeoutMs = 5_000,
): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "guard-coverage-monitor" },
      body: JSON.stringify(alert),
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The body is not needed; reading it frees the connection.
    await response.arrayBuffer().catch(() => undefined);
    if (response.ok) return true;
    logger.warn({ alert: alert.alert, webhook_status: response.status }, "coverage alert webhook refused the alert");
  } catch (error) {
    logger.warn({ alert: alert.alert, err: (error as Error).message }, "coverage alert webhook unreachable");
  }
  return false;
}
