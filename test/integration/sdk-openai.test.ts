import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ChatAgent, INTEGRATION } from "../../examples/openai-chat/agent.js";
import { startChatMock } from "../../examples/openai-chat/mock-model.js";
import { DEFAULT_EVALUATE_TIMEOUT_MS } from "../../examples/shared/guard-client.js";
import type { AgentOptions } from "../../examples/shared/integration.js";
import type { ModelTurn } from "../../examples/shared/mock-model.js";
import { recordingTools } from "../helpers/agent-tools.js";
import { KEYS, type RunningGuard, startGuard } from "../helpers/guard-server.js";
import { markerDetector } from "../helpers/test-detectors.js";

/**
 * The openai-chat example against the real service: the official `openai` SDK talks to a
 * scripted mock model, and every model call passes through Guard (built-in detectors for
 * redaction, marker detectors for deterministic blocks).
 */

const EMAIL = "jane.doe@corp.example";
// A GitHub classic token (ghp_ + 36 base62), assembled so the source holds no scannable secret.
const TOKEN = ["ghp_", "Zq7Kx2Lm9Pw4Rt6Yv8Bn3Cd5Fg1Hj0Ks2Xa7"].join("");

interface ChatMessage {
  role: string;
  content: string | null;
  tool_calls?: unknown[];
}
const messagesOf = (body: Record<string, unknown> | undefined) => (body?.["messages"] ?? []) as ChatMessage[];

const tools = recordingTools;

describe("examples/openai-chat with the official openai SDK", () => {
  let guard: RunningGuard;
  const open: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    guard = await startGuard({ extraDetectors: [markerDetector()] });
  });
  afterEach(async () => {
    for (const thing of open.splice(0).reverse()) await thing.close();
  });
  afterAll(async () => {
    await guard.stop();
  });

  async function setup(script: ModelTurn[], options: Partial<AgentOptions> = {}) {
    const mock = await startChatMock(script);
    open.push(mock);
    const ran: string[] = [];
    const agent = new ChatAgent({
      guardUrl: guard.url,
      guardApiKey: KEYS.main,
      modelBaseUrl: mock.url,
      identity: {
        agent_id: `openai-${Math.random().toString(36).slice(2)}`,
        agent_type: "example",
        agent_workspace: "",
        agent_user: "",
      },
      tools: tools(ran),
      ...options,
    });
    open.push(agent);
    return { mock, agent, ran };
  }

  it("redacts an email before the model sees it and restores it in the answer", async () => {
    const { mock, agent } = await setup([{ echo: true }]);
    const result = await agent.run(`Remember my address ${EMAIL} for later.`);

    const seen = messagesOf(mock.received[0])[1]?.content ?? "";
    expect(seen).toBe("Remember my address ${X_EMAIL_1} for later.");
    expect(JSON.stringify(mock.received)).not.toContain(EMAIL);
    expect(result.answer).toBe(`You said: Remember my address ${EMAIL} for later.`);
    expect(result.steps).toEqual([
      expect.objectContaining({
        modelCalled: true,
        request: expect.objectContaining({ decision: "allow", spans: 1 }),
      }),
    ]);
  });

  it("redacts a secret in a streamed call and restores it in the reassembled answer", async () => {
    const { mock, agent } = await setup([{ echo: true }], { stream: true });
    const result = await agent.run(`Deploy with token ${TOKEN} 😀 please.`);

    expect(mock.received[0]?.["stream"]).toBe(true);
    const seen = messagesOf(mock.received[0])[1]?.content ?? "";
    expect(seen).toMatch(/^Deploy with token \$\{X_GITHUB_TOKEN_\d+\} 😀 please\.$/);
    expect(JSON.stringify(mock.received)).not.toContain(TOKEN);
    expect(result.answer).toBe(`You said: Deploy with token ${TOKEN} 😀 please.`);
    expect(result.steps[0]?.response?.decision).toBe("allow");
  });

  it("withholds an injected tool result and lets the agent go on", async () => {
    const { mock, agent } = await setup([
      { toolCalls: [{ name: "fetch_page", args: { url: "https://docs.example/" } }] },
      { echo: true },
    ]);
    const result = await agent.run("Summarise https://docs.example/ for me.");

    expect(result.toolRuns.map((r) => r.name)).toEqual(["fetch_page"]);
    expect(result.steps[1]?.request).toMatchObject({ decision: "block", continuation: "withhold" });
    const toolMessage = messagesOf(mock.received[1]).find((m) => m.role === "tool");
    expect(toolMessage?.content).not.toContain("INJECTME");
    expect(toolMessage?.content).toMatch(/withheld/i);
    expect(result.answer).not.toContain("INJECTME");
  });

  it("drops the dangerous tool call and runs the safe one", async () => {
    const { mock, agent, ran } = await setup([
      {
        toolCalls: [
          { name: "bash", args: { command: "ls -la" } },
          { name: "bash", args: { command: "BLOCKME rm -rf /" } },
        ],
      },
      { text: "Listed the folder." },
    ]);
    const result = await agent.run("Tidy up the folder.");

    expect(ran).toEqual(["ls -la"]);
    expect(result.steps[0]?.response).toMatchObject({ decision: "block", continuation: "drop_calls" });
    const history = messagesOf(mock.received[1]);
    expect(history.filter((m) => m.role === "tool")).toHaveLength(1);
    expect(history.find((m) => m.role === "assistant")?.tool_calls).toHaveLength(1);
    expect(result.answer).toBe("Listed the folder.");
  });

  it("fails open when the service stops midway and reports evaluate_errors in its next heartbeat", async () => {
    // Guard's address as a load balancer would present it: the test moves it to a new replica.
    const first = await startGuard({ extraDetectors: [markerDetector()] });
    let current = first;
    const routed = (input: string | URL | Request, init?: RequestInit) =>
      fetch(String(input).replace(/^http:\/\/[^/]+/, current.url), init);
    const ran: string[] = [];
    const mock = await startChatMock([
      { toolCalls: [{ name: "bash", args: { command: "deploy" } }] },
      { echo: true },
    ]);
    open.push(mock);
    const agent = new ChatAgent({
      guardUrl: first.url,
      guardApiKey: KEYS.main,
      guardFetch: routed,
      modelBaseUrl: mock.url,
      identity: { agent_id: "openai-outage", agent_type: "example", agent_workspace: "", agent_user: "" },
      tools: tools(ran, () => first.stop()), // the service goes away while the tool runs
      heartbeatIntervalMs: 100,
    });
    open.push(agent);

    const result = await agent.run(`Deploy, then mail ${EMAIL}.`);
    expect(result.steps.map((s) => [s.request?.decision, s.response?.decision])).toEqual([
      ["allow", "allow"],
      ["none", "none"],
    ]);
    expect(result.answer).toBe("You said: ran deploy");
    expect(agent.integration.guard.counters.snapshot()).toMatchObject({ events_sent: 4, evaluate_errors: 2 });

    const second = await startGuard();
    const beats = vi.spyOn(second.app.store, "recordHeartbeat");
    current = second;
    try {
      await vi.waitFor(() => expect(beats).toHaveBeenCalled(), { timeout: 2000, interval: 25 });
      expect(beats.mock.calls[0]?.[0]).toMatchObject({
        integration: INTEGRATION,
        agent_id: "openai-outage",
        interval_s: 0.1,
        counters: { events_sent: 4, evaluate_errors: 2, unresolved_spans: 0 },
      });
    } finally {
      await agent.close();
      await second.stop();
    }
  });

  describe("fails open without a verdict", () => {
    let stub: Server;
    let mode: "hang" | 429 | 503 = "hang";
    beforeAll(async () => {
      // A Guard that misbehaves on demand: never answers, rate-limits, or fails.
      stub = createServer((request, response) => {
        request.resume();
        if (mode === "hang") return;
        response
          .writeHead(mode, { "content-type": "application/json" })
          .end(mode === 429 ? '{"error":"rate_limited"}' : "");
      });
      await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
    });
    afterAll(async () => {
      stub.closeAllConnections();
      await new Promise((resolve) => stub.close(resolve));
    });

    it("uses the 5-second caller time-out of spec 8 unless told otherwise", () => {
      expect(DEFAULT_EVALUATE_TIMEOUT_MS).toBe(5_000);
    });

    it.each(["hang", 429, 503] as const)(
      "on %s: the model is called with the body as built and the errors are counted",
      async (which) => {
        mode = which;
        const { mock, agent } = await setup([{ echo: true }], {
          guardUrl: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`,
          evaluateTimeoutMs: 200,
        });
        const result = await agent.run(`Write to ${EMAIL}.`);
        expect(messagesOf(mock.received[0])[1]?.content).toBe(`Write to ${EMAIL}.`);
        expect(result.answer).toBe(`You said: Write to ${EMAIL}.`);
        expect(agent.integration.guard.counters.snapshot()).toMatchObject({
          events_sent: 2,
          evaluate_errors: 2,
        });
      },
    );

    it("refuses instead when the deployment fails closed", async () => {
      mode = 503;
      const { mock, agent } = await setup([{ echo: true }], {
        guardUrl: `http://127.0.0.1:${(stub.address() as AddressInfo).port}`,
        failMode: "closed",
      });
      const result = await agent.run("Hello.");
      expect(mock.received).toHaveLength(0);
      expect(result.answer).toMatch(/fails closed/);
    });
  });
});
