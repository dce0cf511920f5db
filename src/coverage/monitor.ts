import type { GuardMetrics } from "../metrics/guard-metrics.js";
import type { HeartbeatSource } from "../store/queries.js";
import { coverageAlert } from "./alert.js";
import { findCoverageGaps } from "./gaps.js";
import { AlertLedger } from "./ledger.js";
import { postAlert } from "./webhook.js";

export interface MonitorLogger {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

export interface CoverageMonitorOptions {
  readonly sources: () => Promise<HeartbeatSource[]>;
  readonly logger: MonitorLogger;
  readonly metrics: GuardMetrics;
  readonly now: () => number;
  readonly checkMs: number;
  readonly webhookUrl?: string;
  readonly webhookTimeoutMs?: number;
}

/**
 * The service's watch on heartbeats (spec 4.2, DESIGN.md decision 9): every `checkMs` it reads the
 * latest beat per source and raises each new coverage loss once, as a warn log line with
 * `alert: "coverage_lost"`, a metric, and the optional webhook. The timer is unref'd: the monitor
 * never keeps a process alive that is otherwise done.
 */
export class CoverageMonitor {
  readonly #options: CoverageMonitorOptions;
  readonly #ledger = new AlertLedger();
  readonly #deliveries = new Set<Promise<boolean>>();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(options: CoverageMonitorOptions) {
    this.#options = options;
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => void this.check(), this.#options.checkMs);
    this.#timer.unref();
  }

  /** One check; overlapping calls share the one in progress (a slow store must not pile checks up). */
  check(): Promise<void> {
    this.#running ??= this.#check().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #check(): Promise<void> {
    const { logger, metrics } = this.#options;
    let sources: HeartbeatSource[];
    try {
      sources = await this.#options.sources();
    } catch (error) {
      logger.warn({ err: (error as Error).message }, "coverage check could not read heartbeats");
      return;
    }
    const now = this.#options.now();
    const { opened, closed } = this.#ledger.update(findCoverageGaps(sources, now));
    metrics.coverageGaps.set(this.#ledger.size);
    for (const gap of opened) {
      const alert = coverageAlert(gap, now);
      metrics.coverageAlerts.inc({ org: gap.org_id });
      logger.warn({ ...alert }, "coverage lost: heartbeat source silent beyond 3 x interval_s");
      if (this.#options.webhookUrl) this.#deliver(this.#options.webhookUrl, alert);
    }
    for (const gap of closed) {
      logger.info(
        { alert: "coverage_restored", org_id: gap.org_id, integration: gap.integration ?? null, agent_id: gap.agent_id ?? null },
        "coverage restored: heartbeat source beating again",
      );
    }
  }

  #deliver(url: string, alert: ReturnType<typeof coverageAlert>): void {
    const delivery = postAlert(url, alert, this.#options.logger, this.#options.webhookTimeoutMs);
    this.#deliveries.add(delivery);
    void delivery.finally(() => this.#deliveries.delete(delivery));
  }

  /** Stops the timer and waits for the check and webhook deliveries in flight (each bounded by its timeout). */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
    await Promise.all(this.#deliveries);
  }
}
