import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashKey } from "../../src/auth/keys.js";
import { post, type RunningGuard, startGuard } from "../helpers/guard-server.js";

/**
 * Tenant isolation (issue 9): two organizations, the same agent_id, the same texts. No read,
 * whitelist, placeholder or session crosses from one to the other.
 */

const ALPHA_KEY = "gk_test_alpha_0123456789abcdef";
const BETA_KEY = "gk_test_beta_0123456789abcdef";
const CONFIG = `
orgs:
  - id: alpha
    subscription: active
    keys: [{id: a-main, sha256: ${hashKey(ALPHA_KEY)}}]
  - id: beta
    subscription: active
    keys: [{id: b-main, sha256: ${hashKey(BETA_KEY)}}]
`;

const AGENT = "shared-agent";
const TEXT = "Please write to jane@corp.example about the invoice.";

interface Finding {
  readonly category: string;
  readonly fp: string;
  readonly subject?: string;
  readonly whitelisted?: boolean;
}

function stepRequest(text: string, stepId: string) {
  return {
    kind: "step/request",
    step_id: stepId,
    agent_id: AGENT,
    agent_type: "assistant",
    agent_workspace: "",
    agent_user: "",
    llm_protocol: "vendor_a.chat",
    session_hint: "same-hint",
    payload: {
      model: "m",
      messages: [
        { role: "system", content: "You help with invoices." },
        { role: "user", content: text },
      ],
    },
  };
}

function stepResponse(content: string, stepId: string) {
  return {
    kind: "step/response",
    step_id: stepId,
    agent_id: AGENT,
    agent_type: "assistant",
    agent_workspace: "",
    agent_user: "",
    llm_protocol: "vendor_a.chat",
    session_hint: "same-hint",
    payload: {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    },
  };
}

describe("tenant isolation (issue 9 hardening)", () => {
  let guard: RunningGuard;
  beforeAll(async () => {
    guard = await startGuard({ config: CONFIG });
  });
  afterAll(async () => {
    await guard.stop();
  });

  const evaluate = async (key: string, body: unknown, query = "?payload=true") => {
    const answer = await post(guard.url, `/v1/evaluate${query}`, body, key);
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const emailFinding = (verdict: Record<string, unknown>) =>
    ((verdict["findings"] ?? []) as Finding[]).find((f) => f.category.startsWith("privacy.pii"));
  const userContent = (verdict: Record<string, unknown>) =>
    (verdict["payload"] as { messages: { content: string }[] }).messages[1]?.content;
  const assistantContent = (verdict: Record<string, unknown>) =>
    (verdict["payload"] as { choices: { message: { content: string } }[] }).choices[0]?.message.content;

  it("fingerprints the same text differently in each organization", async () => {
    const alpha = await evaluate(ALPHA_KEY, stepRequest(TEXT, "fp-a"));
    const beta = await evaluate(BETA_KEY, stepRequest(TEXT, "fp-b"));
    const fa = emailFinding(alpha);
    const fb = emailFinding(beta);
    expect(fa).toBeDefined();
    expect(fb).toBeDefined();
    expect(fa?.category).toBe(fb?.category);
    expect(fa?.fp).not.toBe(fb?.fp);
  });

  it("restores a placeholder only in the organization that minted it", async () => {
    const alpha = await evaluate(ALPHA_KEY, stepRequest("Mail alice@alpha.example today.", "ph-a"));
    const token = /\$\{[A-Z_]+_\d+\}/.exec(userContent(alpha) ?? "")?.[0];
    expect(token).toBeDefined();
    expect(userContent(alpha)).not.toContain("alice@alpha.example");

    // Beta, same agent_id, echoes alpha's token before minting any of its own: nothing to restore.
    const foreign = await evaluate(BETA_KEY, stepResponse(`I wrote to ${token}.`, "ph-b"));
    expect(foreign["payload"]).toBe("unchanged");
    expect(JSON.stringify(foreign)).not.toContain("alice@alpha.example");

    // Beta mints its own token, possibly the same text; each organization restores its own original.
    const betaRequest = await evaluate(BETA_KEY, stepRequest("Mail bob@beta.example today.", "ph-b2"));
    const betaToken = /\$\{[A-Z_]+_\d+\}/.exec(userContent(betaRequest) ?? "")?.[0];
    expect(betaToken).toBeDefined();
    const shared = betaToken === token ? token : undefined;
    const betaBack = await evaluate(BETA_KEY, stepResponse(`I wrote to ${betaToken}.`, "ph-b2"));
    expect(assistantContent(betaBack)).toBe("I wrote to bob@beta.example.");
    const alphaBack = await evaluate(ALPHA_KEY, stepResponse(`I wrote to ${token}.`, "ph-a"));
    expect(assistantContent(alphaBack)).toBe("I wrote to alice@alpha.example.");
    if (shared) {
      // Same token text in both organizations: each still resolves to its own original.
      expect(JSON.stringify(betaBack)).not.toContain("alice@alpha.example");
      expect(JSON.stringify(alphaBack)).not.toContain("bob@beta.example");
    }
  });

  it("applies a whitelist entry only to the organization that made it", async () => {
    const before = await evaluate(ALPHA_KEY, stepRequest(TEXT, "wl-a0"));
    const alphaFp = emailFinding(before)?.fp ?? "";
    expect(alphaFp).not.toBe("");
    await guard.app.whitelist.add("alpha", alphaFp, "isolation test");
    // The same fp entered under beta (a leaked or guessed value) does not whitelist beta's finding either.
    await guard.app.whitelist.add("beta", alphaFp, "foreign fp");

    const alpha = await evaluate(ALPHA_KEY, stepRequest(TEXT, "wl-a1"));
    expect(emailFinding(alpha)).toMatchObject({ fp: alphaFp, whitelisted: true });
    expect(alpha["payload"]).toBe("unchanged");

    const beta = await evaluate(BETA_KEY, stepRequest(TEXT, "wl-b1"));
    expect(emailFinding(beta)?.whitelisted).toBeUndefined();
    expect(userContent(beta)).not.toContain("jane@corp.example");
    expect(guard.app.whitelist.has("beta", emailFinding(beta)?.fp ?? "")).toBe(false);
  });

  it("never shares a session, and store reads return only the organization's own events", async () => {
    // Identical conversations, same agent, same session hint, same step ids.
    for (const key of [ALPHA_KEY, BETA_KEY]) {
      await evaluate(key, stepRequest(TEXT, "sess-1"), "");
      await evaluate(key, stepResponse("Done.", "sess-1"), "");
    }
    await new Promise((r) => setTimeout(r, 50));
    const alphaEvents = await guard.app.store.recentEvents("alpha", 1000);
    const betaEvents = await guard.app.store.recentEvents("beta", 1000);
    expect(alphaEvents.length).toBeGreaterThanOrEqual(2);
    expect(betaEvents.length).toBeGreaterThanOrEqual(2);
    expect(alphaEvents.every((e) => e.org_id === "alpha" && e.key_id === "a-main")).toBe(true);
    expect(betaEvents.every((e) => e.org_id === "beta" && e.key_id === "b-main")).toBe(true);

    const alphaIds = new Set(alphaEvents.map((e) => e.event_id));
    expect(betaEvents.some((e) => alphaIds.has(e.event_id))).toBe(false);
    const sessions = (events: typeof alphaEvents) =>
      new Set(events.map((e) => e.session?.["session_id"]).filter((s): s is string => typeof s === "string"));
    const alphaSessions = sessions(alphaEvents);
    const betaSessions = sessions(betaEvents);
    expect(alphaSessions.size).toBeGreaterThan(0);
    expect(betaSessions.size).toBeGreaterThan(0);
    expect([...alphaSessions].filter((s) => betaSessions.has(s))).toEqual([]);

    // A response pairs with its own organization's request: the step ids match, the sessions do not.
    const pair = (events: typeof alphaEvents) => events.filter((e) => e.step_id === "sess-1").map((e) => e.session?.["session_id"]);
    const alphaPair = pair(alphaEvents);
    const betaPair = pair(betaEvents);
    expect(alphaPair).toHaveLength(2);
    expect(betaPair).toHaveLength(2);
    expect(new Set(alphaPair).size).toBe(1);
    expect(alphaPair[0]).not.toBe(betaPair[0]);
  });

  it("reads nothing for an organization with no traffic, nor for another organization's name in another case", async () => {
    expect(await guard.app.store.recentEvents("gamma", 100)).toEqual([]);
    expect(await guard.app.store.recentEvents("ALPHA", 100)).toEqual([]);
  });
});
