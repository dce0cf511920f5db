import type { EventRecord } from "../../store/records.js";
import type { Column } from "../table.js";

/** Distinct finding categories of a verdict, with a count when one repeats: `secret.aws×2,pii.email`. */
export function findingSummary(event: EventRecord): string {
  const findings = Array.isArray(event.verdict["findings"]) ? (event.verdict["findings"] as { category?: unknown }[]) : [];
  const counts = new Map<string, number>();
  for (const f of findings) if (typeof f.category === "string") counts.set(f.category, (counts.get(f.category) ?? 0) + 1);
  return [...counts].map(([c, n]) => (n > 1 ? `${c}×${n}` : c)).join(",");
}

export function sessionField(event: EventRecord, field: string): unknown {
  return event.session?.[field];
}

/** Columns of `guard events tail`; minimum widths keep followed batches aligned with the first. */
export const EVENT_COLUMNS: readonly Column<EventRecord>[] = [
  { header: "RECEIVED", value: (e) => e.received_at, width: 24 },
  { header: "ORG", value: (e) => e.org_id, width: 8 },
  { header: "AGENT", value: (e) => e.agent_id, width: 14 },
  { header: "KIND", value: (e) => e.kind, width: 13 },
  { header: "DECISION", value: (e) => String(e.verdict["decision"] ?? ""), width: 8 },
  { header: "FINDINGS", value: findingSummary, width: 16 },
  { header: "INTEGRATION", value: (e) => e.integration, width: 12 },
  { header: "SESSION", value: (e) => String(sessionField(e, "session_id") ?? ""), width: 12 },
  { header: "STEP", value: (e) => e.step_id, width: 12 },
  { header: "EVENT", value: (e) => e.event_id },
];

/**
 * The record as the CLI prints it: each finding's `subject` (the detected text itself, a secret
 * perhaps) is masked, so terminals, scrollback and piped logs never hold it. Category, path,
 * offsets and fp still identify the finding.
 */
export function printableEvent(event: EventRecord): EventRecord {
  const findings = event.verdict["findings"];
  if (!Array.isArray(findings)) return event;
  return {
    ...event,
    verdict: {
      ...event.verdict,
      findings: findings.map((f: Record<string, unknown>) => ("subject" in f ? { ...f, subject: "[masked]" } : f)),
    },
  };
}
