import type { EventRecord } from "../../store/records.js";

/**
 * Sessions as recorded events describe them. Every event record carries the tracker's answer
 * (`session`: session_id, turn_id/turn_index, step_index, attach_method, signals), so the store
 * alone reconstructs sessions for any deployment: embedded (where the tracker's memory lives in
 * the server process) and Redis-backed alike.
 */
export interface SessionSummary {
  readonly session_id: string;
  readonly org_id: string;
  readonly agent_id: string;
  readonly agent_type: string;
  readonly agent_user: string;
  readonly first_at: string;
  readonly last_at: string;
  readonly turns: number;
  readonly steps: number;
  readonly events: number;
  readonly blocked: number;
  readonly signals: string[];
}

export interface StepSummary {
  readonly turn_index: number;
  readonly step_index: number;
  readonly step_id: string;
  readonly kinds: string[];
  readonly attach_method: string;
  readonly paired: boolean;
  readonly decision: string;
  readonly findings: number;
  readonly signals: string[];
  readonly event_ids: string[];
  readonly first_at: string;
}

export interface SessionDetail extends SessionSummary {
  readonly steps_detail: StepSummary[];
}

const str = (value: unknown): string => (typeof value === "string" ? value : "");
const num = (value: unknown): number => (typeof value === "number" ? value : 0);
const list = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : []);

function sessionIdOf(event: EventRecord): string {
  return str(event.session?.["session_id"]);
}

/** Events grouped by session, most recently active first. Events without a session are skipped. */
export function summarizeSessions(events: readonly EventRecord[]): SessionSummary[] {
  const groups = new Map<string, EventRecord[]>();
  for (const event of events) {
    const id = sessionIdOf(event);
    if (!id) continue;
    const key = `${event.org_id}\u001f${id}`;
    groups.set(key, [...(groups.get(key) ?? []), event]);
  }
  return [...groups.values()].map(summarize).sort((a, b) => b.last_at.localeCompare(a.last_at));
}

function byArrival(a: EventRecord, b: EventRecord): number {
  return a.received_at.localeCompare(b.received_at);
}

function summarize(group: readonly EventRecord[]): SessionSummary {
  const events = [...group].sort(byArrival);
  const first = events[0] as EventRecord;
  const last = events[events.length - 1] as EventRecord;
  return {
    session_id: sessionIdOf(first),
    org_id: first.org_id,
    agent_id: first.agent_id,
    agent_type: events.find((e) => e.agent_type)?.agent_type ?? "",
    agent_user: first.agent_user,
    first_at: first.received_at,
    last_at: last.received_at,
    turns: new Set(events.map((e) => num(e.session?.["turn_index"]))).size,
    steps: new Set(events.map((e) => e.step_id)).size,
    events: events.length,
    blocked: events.filter((e) => e.verdict["decision"] === "block").length,
    signals: [...new Set(events.flatMap((e) => list(e.session?.["signals"])))].sort(),
  };
}

/** One session's turns and steps, in order; undefined when no event names it. */
export function describeSession(events: readonly EventRecord[]): SessionDetail | undefined {
  const [summary] = summarizeSessions(events);
  if (!summary) return undefined;
  const mine = events.filter((e) => sessionIdOf(e) === summary.session_id).sort(byArrival);
  const steps = new Map<string, EventRecord[]>();
  for (const event of mine) steps.set(event.step_id, [...(steps.get(event.step_id) ?? []), event]);
  const steps_detail = [...steps.values()].map((stepEvents): StepSummary => {
    const first = stepEvents[0] as EventRecord;
    const decisions = stepEvents.map((e) => e.verdict["decision"]);
    return {
      turn_index: num(first.session?.["turn_index"]),
      step_index: num(first.session?.["step_index"]),
      step_id: first.step_id,
      kinds: [...new Set(stepEvents.map((e) => e.kind))].sort(),
      attach_method: str(first.session?.["attach_method"]),
      paired: stepEvents.some((e) => e.session?.["paired"] === true),
      decision: decisions.includes("block") ? "block" : decisions.includes("allow") ? "allow" : "",
      findings: stepEvents.reduce((n, e) => n + (Array.isArray(e.verdict["findings"]) ? e.verdict["findings"].length : 0), 0),
      signals: [...new Set(stepEvents.flatMap((e) => list(e.session?.["signals"])))].sort(),
      event_ids: stepEvents.map((e) => e.event_id),
      first_at: first.received_at,
    };
  });
  steps_detail.sort((a, b) => a.turn_index - b.turn_index || a.step_index - b.step_index || a.first_at.localeCompare(b.first_at));
  return { ...summary, steps_detail };
}
