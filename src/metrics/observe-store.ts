import type { EventRecord, HeartbeatRecord } from "../store/records.js";
import type { Store } from "../store/store.js";
import type { GuardMetrics } from "./guard-metrics.js";

const SHADOW_AGENT_SIGNAL = "shadow_agent";

/** Counts one recorded event: every evaluate ends in exactly one `recordEvent`, so nothing is counted twice. */
export function countEvent(metrics: GuardMetrics, event: EventRecord): void {
  const verdict = event.verdict;
  const decision = typeof verdict["decision"] === "string" ? verdict["decision"] : "unknown";
  metrics.decisions.inc({ decision, llm_protocol: event.llm_protocol });
  const findings = Array.isArray(verdict["findings"]) ? (verdict["findings"] as { category?: unknown }[]) : [];
  for (const finding of findings) {
    if (typeof finding.category === "string") metrics.findings.inc({ category: finding.category });
  }
  const latencyMs = verdict["latency_ms"];
  if (typeof latencyMs === "number") metrics.evaluateDuration.observe(latencyMs / 1000, { kind: event.kind });
  const signals = event.session?.["signals"];
  if (Array.isArray(signals) && signals.includes(SHADOW_AGENT_SIGNAL)) metrics.shadowAgentSignals.inc();
}

export function countHeartbeat(metrics: GuardMetrics, beat: HeartbeatRecord): void {
  metrics.heartbeats.inc({ org: beat.org_id });
}

/**
 * The store as the pipeline and bridge see it, counting each event and heartbeat as it is
 * recorded. The record is the one place where decision, protocol, findings, latency and session
 * signals meet, so metrics need no hook inside the decision path. Everything else passes through
 * to the store itself (bound to it: its private fields must see the real instance).
 */
export function observeStore(store: Store, metrics: GuardMetrics): Store {
  return new Proxy(store, {
    get(target, property) {
      if (property === "recordEvent") {
        return (event: EventRecord, payload: Buffer) => {
          countEvent(metrics, event);
          return target.recordEvent(event, payload);
        };
      }
      if (property === "recordHeartbeat") {
        return (beat: HeartbeatRecord) => {
          countHeartbeat(metrics, beat);
          return target.recordHeartbeat(beat);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
