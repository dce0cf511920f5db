import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { INTEGRATION, MessagesAgent } from "../../examples/anthropic-messages/agent.js";
import { startMessagesMock } from "../../examples/anthropic-messages/mock-model.js";
import type { AgentOptions } from "../../examples/shared/integration.js";
import type { ModelTurn } from "../../examples/shared/mock-model.js";
import { recordingTools } from "../helpers/agent-tools.js";
import { KEYS, type RunningGuard, startGuard } from "../helpers/guard-server.js";
import { markerDetector } from "../helpers/test-detectors.js";

/**
 * The anthropic-messages example against the real service: the official `@anthropic-ai/sdk`
 * talks to a scripted mock model, and every model call passes through Guard (built-in
 * detectors for redaction, marker detectors for deterministic blocks).
 */

const EMAIL = "jane.doe@corp.example";
// A GitHub classic token (ghp_ + 36 base62), assembled so the source holds no scannable secret.
const TOKEN = ["ghp_", "Zq7Kx2Lm9Pw4Rt6Yv8Bn3Cd5Fg1Hj0Ks2Xa7"].join("");

interface Block {
  type: string;
  text?: string;
  content?: string;
  input?: Record<string, unknown>;
}
interface Message {
  role: string;
  content: string | Block[];
}
const messagesOf = (body: Record<string, unknown> | undefined) => (body?.["messages"] ?? []) as Message[];
const blocksOf = (message: Message | undefined): Block[] =>
  Array.isArray(message?.content) ? message.content : [];

const tools = recordingTools;

describe("examples/anthropic-messages with the official @anthropic-ai/sdk", () => {
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
    const mock = await startMessagesMock(script);
    open.push(mock);
    const ran: string[] = [];
    const agent = new MessagesAgent({
      guardUrl: guard.url,
      guardApiKey: KEYS.main,
      modelBaseUrl: mock.url,
      identity: {
        agent_id: `anthropic-${Math.random().toString(36).slice(2)}`,
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

  it("redacts a secret before the model sees it and restores it in the answer", async () => {
    const { mock, agent } = await setup([{ echo: true }]);
    const result = await agent.run(`Deploy with token ${TOKEN} please.`);

    expect(messagesOf(mock.received[0])[0]?.content).toMatch(
      /^Deploy with token \$\{X_GITHUB_TOKEN_\d+\} please\.$/,
    );
    expect(JSON.stringify(mock.received)).not.toContain(TOKEN);
    expect(result.answer).toBe(`You said: Deploy with token ${TOKEN} please.`);
    expect(result.steps).toEqual([
      expect.objectContaining({
        modelCalled: true,
        request: expect.objectContaining({ decision: "allow", spans: 1 }),
      }),
    ]);
  });

  it("redacts an email in a streamed call and restores it in the reassembled answer", async () => {
    const { mock, agent } = await setup([{ echo: true }], { stream: true });
    const result = await agent.run(`Remember 😀 ${EMAIL} for later.`);

    expect(mock.received[0]?.["stream"]).toBe(true);
    expect(messagesOf(mock.received[0])[0]?.content).toBe("Remember 😀 ${X_EMAIL_1} for later.");
    expect(JSON.stringify(mock.received)).not.toContain(EMAIL);
    expect(result.answer).toBe(`You said: Remember 😀 ${EMAIL} for later.`);
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
    const toolResult = blocksOf(messagesOf(mock.received[1]).at(-1)).find((b) => b.type === "tool_result");
    expect(toolResult?.content).not.toContain("INJECTME");
    expect(toolResult?.content).toMatch(/withheld/i);
    expect(result.answer).not.toContain("INJECTME");
  });

  it("drops the dangerous tool_use block and runs the safe one, streamed", async () => {
    const { mock, agent, ran } = await setup(
      [
        {
          toolCalls: [
            { name: "bash", args: { command: "ls -la" } },
            { name: "bash", args: { command: "BLOCKME rm -rf /" } },
          ],
        },
        { text: "Listed the folder." },
      ],
      { stream: true },
    );
    const result = await agent.run("Tidy up the folder.");

    expect(ran).toEqual(["ls -la"]);
    expect(result.steps[0]?.response).toMatchObject({ decision: "block", continuation: "drop_calls" });
    const history = messagesOf(mock.received[1]);
    expect(
      blocksOf(history[1])
        .filter((b) => b.type === "tool_use")
        .map((b) => b.input),
    ).toEqual([{ command: "ls -la" }]);
    expect(blocksOf(history[2]).filter((b) => b.type === "tool_result")).toHaveLength(1);
    expect(result.answer).toBe("Listed the folder.");
  });

  it("fails open when the service stops midway and reports evaluate_errors in its next heartbeat", async () => {
    // Guard's address as a load balancer would present it: the test moves it to a new replica.
    const first = await startGuard({ extraDetectors: [markerDetector()] });
    let current = first;
    const routed = (input: string | URL | Request, init?: RequestInit) =>
      fetch(String(input).replace(/^http:\/\/[^/]+/, current.url), init);
    const ran: string[] = [];
    const mock = await startMessagesMock([
      { toolCalls: [{ name: "bash", args: { command: "deploy" } }] },
      { echo: true },
    ]);
    open.push(mock);
    const agent = new MessagesAgent({
      guardUrl: first.url,
      guardApiKey: KEYS.main,
      guardFetch: routed,
      modelBaseUrl: mock.url,
      identity: { agent_id: "anthropic-outage", agent_type: "example", agent_workspace: "", agent_user: "" },
      tools: tools(ran, () => first.stop()), // the service goes away while the tool runs
      heartbeatIntervalMs: 100,
    });
    open.push(agent);

    const result = await agent.run("Deploy, then tell me how it went.");
    expect(result.steps.map((s) => [s.request?.decision, s.response?.decision])).toEqual([
      ["allow", "allow"],
      ["none", "none"],
    ]);
    expect(result.answer).toBe("You said: ran deploy");

    const second = await startGuard();
    const beats = vi.spyOn(second.app.store, "recordHeartbeat");
    current = second;
    try {
      await vi.waitFor(() => expect(beats).toHaveBeenCalled(), { timeout: 2000, interval: 25 });
      expect(beats.mock.calls[0]?.[0]).toMatchObject({
        integration: INTEGRATION,
        agent_id: "anthropic-outage",
        counters: { events_sent: 4, evaluate_errors: 2, unresolved_spans: 0 },
      });
    } finally {
      await agent.close();
      await second.stop();
    }
  });
});
