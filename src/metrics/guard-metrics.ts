import type { StoreStats } from "../store/store.js";
import { VERSION } from "../version.js";
import type { Counter } from "./counter.js";
import type { Gauge } from "./gauge.js";
import type { Histogram } from "./histogram.js";
import { Registry } from "./registry.js";

/**
 * Every metric family the service exposes, in one place so the names an operator alerts on are
 * reviewed together. Label values are bounded sets (routes, decisions, protocols, categories,
 * detector names, organization ids): never a key, an agent-supplied string or a finding's subject.
 */
export class GuardMetrics {
  readonly registry = new Registry();
  readonly requests: Counter;
  readonly requestDuration: Histogram;
  readonly decisions: Counter;
  readonly findings: Counter;
  readonly evaluateDuration: Histogram;
  readonly detectorCalls: Counter;
  readonly detectorFailures: Counter;
  readonly detectorDuration: Histogram;
  readonly shadowAgentSignals: Counter;
  readonly heartbeats: Counter;
  readonly coverageAlerts: Counter;
  readonly coverageGaps: Gauge;
  #storeStats: () => StoreStats | undefined = () => undefined;

  constructor() {
    const r = this.registry;
    r.gauge("guard_build_info", "Guard's version; always 1.", ["version"]).set(1, { version: VERSION });
    this.requests = r.counter("guard_http_requests_total", "HTTP requests answered, by route and status.", [
      "method",
      "route",
      "status",
    ]);
    this.requestDuration = r.histogram("guard_http_request_duration_seconds", "Time to answer an HTTP request.", [
      "route",
    ]);
    this.decisions = r.counter("guard_decisions_total", "Verdicts answered, by decision and llm_protocol.", [
      "decision",
      "llm_protocol",
    ]);
    this.findings = r.counter("guard_findings_total", "Findings reported in verdicts, by category.", ["category"]);
    this.evaluateDuration = r.histogram(
      "guard_evaluate_duration_seconds",
      "Decision path of one evaluate (place, decompose, session, detect, compose), by event kind.",
      ["kind"],
    );
    this.detectorCalls = r.counter("guard_detector_calls_total", "Detector consultations, by detector.", ["detector"]);
    this.detectorFailures = r.counter(
      "guard_detector_failures_total",
      "Detector consultations that gave no answer (their segments became unjudged), by detector and reason.",
      ["detector", "reason"],
    );
    this.detectorDuration = r.histogram("guard_detector_duration_seconds", "Time a detector took to answer.", [
      "detector",
    ]);
    this.shadowAgentSignals = r.counter(
      "guard_shadow_agent_signals_total",
      "Events whose agent_id arrived with a second agent_type (the shadow_agent session signal).",
    );
    this.heartbeats = r.counter("guard_heartbeats_total", "Heartbeats received, by organization.", ["org"]);
    this.coverageAlerts = r.counter(
      "guard_coverage_alerts_total",
      "Coverage losses raised: a heartbeat source silent for more than 3 x its interval_s (once per gap).",
      ["org"],
    );
    this.coverageGaps = r.gauge(
      "guard_coverage_gaps",
      "Heartbeat sources currently silent beyond 3 x interval_s: coverage lost, not an absence of risk.",
    );
    const stat = (pick: (s: StoreStats) => number) => (gauge: Gauge) => {
      const stats = this.#storeStats();
      if (stats) gauge.set(pick(stats));
    };
    r.gauge("guard_store_queue_depth", "Accepted events waiting in the write-behind queue.", [], stat((s) => s.queued));
    r.gauge(
      "guard_store_write_errors",
      "Failed store write attempts since start (records are kept and retried, never dropped).",
      [],
      stat((s) => s.write_errors),
    );
    r.gauge("guard_store_events_accepted", "Events accepted by the store since start.", [], stat((s) => s.accepted));
    r.gauge("guard_store_events_written", "Events written by the store since start.", [], stat((s) => s.written));
  }

  /** Where the store gauges are read from at scrape time. */
  observeStore(stats: () => StoreStats): void {
    this.#storeStats = stats;
  }

  render(): string {
    return this.registry.render();
  }
}
