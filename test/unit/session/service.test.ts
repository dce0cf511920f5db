import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { AttachRequestSchema, SessionService } from "../../../gen/guard/v1/session_pb.js";
import { EventKind } from "../../../gen/guard/v1/types_pb.js";
import { MemorySessionState } from "../../../src/session/memory-state.js";
import { createSessionService, describeSession, listSessions } from "../../../src/session/service.js";
import { createSessionTracker } from "../../../src/session/tracker.js";
import { grow, ManualClock, MINUTE, opening } from "./helpers.js";

function client() {
  const clock = new ManualClock();
  const state = new MemorySessionState();
  const tracker = createSessionTracker({ state, clock: clock.read });
  const impl = createSessionService({ tracker });
  const transport = createRouterTransport(({ service }) => service(SessionService, impl));
  return { rpc: createClient(SessionService, transport), state, clock, tracker };
}

const identity = { orgId: "org-a", agentId: "agent-1", agentType: "coder", agentUser: "" };

describe("SessionService", () => {
  it("attaches both halves of steps over Connect and closes the turn on a block", async () => {
    const { rpc, state, clock } = client();
    const base = opening("sys", "Do the task.");
    const r1 = await rpc.attach({
      ...identity,
      kind: EventKind.STEP_REQUEST,
      stepId: "a",
      conversation: base,
      eventId: "e1",
    });
    const p1 = await rpc.attach({
      ...identity,
      kind: EventKind.STEP_RESPONSE,
      stepId: "a",
      finishReason: "tool_calls",
      eventId: "e2",
    });
    const r2 = await rpc.attach(
      create(AttachRequestSchema, {
        ...identity,
        kind: EventKind.STEP_REQUEST,
        stepId: "b",
        conversation: grow(base, "x", 1),
        eventId: "e3",
      }),
    );
    expect(r1).toMatchObject({ attachMethod: "new", turnIndex: 1, stepIndex: 1, paired: false });
    expect(p1).toMatchObject({
      sessionId: r1.sessionId,
      attachMethod: "step_id",
      stepIndex: 1,
      paired: true,
    });
    expect(r2).toMatchObject({
      sessionId: r1.sessionId,
      attachMethod: "prefix",
      stepIndex: 2,
      turnId: r1.turnId,
    });
    const concluded = await rpc.conclude({
      orgId: "org-a",
      sessionId: r1.sessionId,
      stepId: "b",
      kind: EventKind.STEP_REQUEST,
      decision: "block",
    });
    expect(concluded.turnClosed).toBe(true);

    const listed = await listSessions(state, "org-a");
    expect(listed).toEqual([
      expect.objectContaining({ sessionId: r1.sessionId, agentType: "coder", stepCount: 2, eventCount: 3 }),
    ]);
    const detail = await describeSession(state, "org-a", r1.sessionId, {
      now: clock.now,
      idleTimeoutMs: 30 * MINUTE,
    });
    expect(
      detail?.turns[0]?.steps.map((s) => [s.stepId, s.index, s.kinds, s.attachMethod, s.decision]),
    ).toEqual([
      ["a", 1, ["step/request", "step/response"], "new", undefined],
      ["b", 2, ["step/request"], "prefix", "block"],
    ]);
  });

  const invalid = [
    { note: "unspecified kind", req: { ...identity, kind: EventKind.UNSPECIFIED, stepId: "a" } },
    { note: "missing step_id", req: { ...identity, kind: EventKind.STEP_REQUEST, stepId: "" } },
    { note: "missing org_id", req: { ...identity, orgId: "", kind: EventKind.STEP_REQUEST, stepId: "a" } },
  ];
  for (const { note, req } of invalid) {
    it(`refuses an attach with ${note}`, async () => {
      const { rpc } = client();
      await expect(rpc.attach(req)).rejects.toSatisfy(
        (e) => ConnectError.from(e).code === Code.InvalidArgument,
      );
    });
  }

  it("refuses a decision other than allow or block", async () => {
    const { rpc } = client();
    await expect(
      rpc.conclude({
        orgId: "org-a",
        sessionId: "s",
        stepId: "a",
        kind: EventKind.STEP_REQUEST,
        decision: "maybe",
      }),
    ).rejects.toSatisfy((e) => ConnectError.from(e).code === Code.InvalidArgument);
  });

  it("builds its own in-memory tracker from a clock", async () => {
    const impl = createSessionService({ now: () => 1_000 });
    const transport = createRouterTransport(({ service }) => service(SessionService, impl));
    const rpc = createClient(SessionService, transport);
    const res = await rpc.attach({ ...identity, kind: EventKind.STEP_RESPONSE, stepId: "z" });
    expect(res).toMatchObject({ attachMethod: "unpaired", paired: false, turnIndex: 1, stepIndex: 1 });
    expect(res.sessionId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
  });
});
