import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateVerdict } from "../../src/contract/validate.js";
import { KEYS, post, type RunningGuard, startGuard } from "../helpers/guard-server.js";

const response = (stepId: string, command: string) => ({
  kind: "step/response",
  step_id: stepId,
  agent_id: "ob-agent",
  agent_type: "",
  agent_workspace: "",
  agent_user: "",
  llm_protocol: "vendor_a.chat",
  payload: {
    id: "c",
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "bash", arguments: JSON.stringify({ command }) } }],
        },
        finish_reason: "tool_calls",
      },
    ],
  },
});

const nextRequest = (results?: unknown) => ({
  kind: "step/request",
  step_id: `r-${Math.random()}`,
  agent_id: "ob-agent",
  agent_type: "",
  agent_workspace: "",
  agent_user: "",
  llm_protocol: "vendor_a.chat",
  payload: { model: "m", messages: [{ role: "user", content: "go on" }] },
  ...(results ? { obligation_results: results } : {}),
});

describe("scan obligations (spec 2.6, DESIGN.md decision 8)", () => {
  let guard: RunningGuard;
  beforeAll(async () => {
    guard = await startGuard({ obligationTtlMs: 3000 });
  });
  afterAll(async () => {
    await guard.stop();
  });

  it("asks the caller to scan what a tool call installs, and blocks the next step when it was malicious", async () => {
    const first = await post(guard.url, "/v1/evaluate", response("s1", "npm install left-pad"), KEYS.main);
    expect(first.status).toBe(200);
    expect(validateVerdict(first.body).ok).toBe(true);
    expect(first.body["decision"]).toBe("allow");
    const obligations = first.body["obligations"] as { id: string; call_id: string; artifact: unknown; on_unfulfilled: string }[];
    expect(obligations).toEqual([
      expect.objectContaining({ type: "scan_artifact", call_id: "call_1", artifact: { kind: "package", locator: "left-pad" }, on_unfulfilled: "block" }),
    ]);
    // A re-delivery of the same event re-mints the same id.
    const again = await post(guard.url, "/v1/evaluate", response("s1", "npm install left-pad"), KEYS.main);
    expect((again.body["obligations"] as { id: string }[])[0]?.id).toBe(obligations[0]?.id);

    const next = await post(guard.url, "/v1/evaluate", nextRequest([{ id: obligations[0]?.id, status: "malicious" }]), KEYS.main);
    expect(next.body["decision"]).toBe("block");
    expect(next.body["findings"]).toContainEqual(expect.objectContaining({ category: "security.malicious_artifact", subject: "left-pad" }));
  });

  it("lets a clean result pass, and blocks when a blocking scan is never reported in time", async () => {
    const clean = await post(guard.url, "/v1/evaluate", response("s2", "pip install requests"), KEYS.main);
    const id = (clean.body["obligations"] as { id: string }[])[0]?.id;
    const ok = await post(guard.url, "/v1/evaluate", nextRequest([{ id, status: "clean" }]), KEYS.main);
    expect(ok.body["decision"]).toBe("allow");

    await post(guard.url, "/v1/evaluate", response("s3", "pip install unknown-thing"), KEYS.main);
    await new Promise((r) => setTimeout(r, 3100));
    const late = await post(guard.url, "/v1/evaluate", nextRequest(), KEYS.main);
    expect(late.body["decision"]).toBe("block");
    expect(late.body["findings"]).toContainEqual(expect.objectContaining({ category: "security.unverified_artifact", severity: "high" }));
  });
});
