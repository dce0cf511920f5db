import { describe, expect, it } from "vitest";
import {
  type CorpusOptions,
  corpusEvents,
  corpusSessions,
  DEFAULT_CORPUS,
  defaultSteps,
  sessionEvents,
} from "../../../bench/corpus/corpus.js";
import { Random } from "../../../bench/corpus/random.js";
import { CLEARED, visibleResults } from "../../../bench/corpus/render/history.js";
import { asNewStep, ReplayBody } from "../../../bench/service/new-step.js";
import { validateEvent } from "../../../src/contract/validate.js";

/** A corpus small enough for a unit test: six sessions of 1 to 12 steps, all three protocols. */
const SMALL: CorpusOptions = { ...DEFAULT_CORPUS, sessions: 6, stepsFor: (rng) => rng.int(1, 12) };

describe("replay corpus generator", () => {
  it("is deterministic for a seed and differs across seeds", () => {
    const first = [...corpusEvents(SMALL)].map((e) => e.body);
    const again = [...corpusEvents(SMALL)].map((e) => e.body);
    const other = [...corpusEvents({ ...SMALL, seed: SMALL.seed + 1 })].map((e) => e.body);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it("emits valid GuardEvents in every protocol, a request then a response per step", () => {
    const events = [...corpusEvents(SMALL)];
    expect(new Set(events.map((e) => e.protocol))).toEqual(
      new Set(["vendor_a.chat", "vendor_b.messages", "canonical"]),
    );
    for (const e of events) {
      const parsed = JSON.parse(e.body) as Record<string, unknown>;
      const checked = validateEvent(parsed);
      expect(checked.ok, `${e.session} step ${e.step} ${e.kind}`).toBe(true);
      expect(parsed["kind"]).toBe(e.kind);
      expect(parsed["llm_protocol"]).toBe(e.protocol);
    }
    const kinds = events.filter((e) => e.session === "sess-0000").map((e) => e.kind);
    kinds.forEach((kind, i) => {
      expect(kind).toBe(i % 2 === 0 ? "step/request" : "step/response");
    });
  });

  it("re-sends the whole conversation: each request holds every earlier tool call", () => {
    const [session] = corpusSessions({ ...SMALL, sessions: 1, stepsFor: () => 6 });
    if (!session) throw new Error("no session");
    const requests = [...sessionEvents(session, Number.POSITIVE_INFINITY, { kinds: ["step/request"] })];
    expect(requests).toHaveLength(6);
    requests.forEach((request, k) => {
      const body = JSON.parse(request.body) as { payload: { messages: { role: string }[] } };
      const assistants = body.payload.messages.filter((m) => m.role === "assistant");
      expect(assistants).toHaveLength(k);
      for (let j = 0; j < k; j++)
        for (const call of session.steps[j]?.calls ?? []) expect(request.body).toContain(call.id);
    });
  });

  it("keeps tool results within 1 to 50 KB (plus planted lines) and clears the oldest past the budget", () => {
    const [session] = corpusSessions({ ...SMALL, sessions: 1, stepsFor: () => 40 });
    if (!session) throw new Error("no session");
    for (const step of session.steps)
      for (const call of step.calls) {
        expect(call.result.length).toBeGreaterThanOrEqual(1000);
        expect(call.result.length).toBeLessThan(52 * 1024);
      }
    const budget = 100 * 1024;
    const visible = visibleResults(session, session.steps.length - 1, budget).flat();
    const kept = visible.filter((r) => r !== CLEARED);
    expect(kept.length).toBeLessThan(visible.length);
    expect(kept.reduce((n, r) => n + r.length, 0)).toBeLessThanOrEqual(budget);
    // The newest results are the ones kept.
    expect(visible.at(-1)).not.toBe(CLEARED);
    expect(visible[0]).toBe(CLEARED);
  });

  it("draws 1 to 200 steps, the first session of each protocol running all 200", () => {
    const rng = new Random(1);
    const steps = Array.from({ length: 500 }, (_, i) => defaultSteps(rng, i, 3));
    expect(steps.slice(0, 3)).toEqual([200, 200, 200]);
    expect(Math.min(...steps)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...steps)).toBeLessThanOrEqual(200);
  });

  it("replays a body as a new step by changing only the envelope's step_id", () => {
    const [event] = [...corpusEvents(SMALL)];
    if (!event) throw new Error("no event");
    const replayed = JSON.parse(asNewStep(event.body, 42)) as Record<string, unknown>;
    const original = JSON.parse(event.body) as Record<string, unknown>;
    expect(replayed["step_id"]).toBe(`r42-${String(original["step_id"])}`);
    expect({ ...replayed, step_id: "" }).toEqual({ ...original, step_id: "" });
  });

  it("replays bytes exactly as the string form would, each call in a buffer of its own", () => {
    const bodies = [...corpusEvents(SMALL)].slice(0, 20).map((e) => e.body);
    bodies.push('{"no_step":"é"}', '{"kind":"x","step_id":"');
    for (const body of bodies) {
      const replay = new ReplayBody(body);
      expect(replay.byteLength).toBe(Buffer.byteLength(body));
      const first = replay.asNewStep(7);
      expect(first.equals(Buffer.from(asNewStep(body, 7)))).toBe(true);
      const second = replay.asNewStep(8);
      expect(second.equals(Buffer.from(asNewStep(body, 8)))).toBe(true);
      first.fill(0);
      expect(replay.asNewStep(7).equals(Buffer.from(asNewStep(body, 7)))).toBe(true);
    }
  });
});
