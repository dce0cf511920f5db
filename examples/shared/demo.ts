import { readFileSync } from "node:fs";
import type { AgentOptions, RunResult } from "./integration.js";
import type { MockModel, ModelTurn } from "./mock-model.js";
import type { Tools } from "./tools.js";

/**
 * The command-line run of either example against a Guard you started (`npm start`): it starts
 * the mock model, runs one scripted task whose prompt holds an email and whose model asks
 * for one harmless and one destructive command, and prints what happened at each step.
 * The key comes from GUARD_API_KEY or the file `npm start` writes on first start.
 */
export async function runDemo(
  startMock: (script: readonly ModelTurn[]) => Promise<MockModel>,
  makeAgent: (options: AgentOptions) => { run(prompt: string): Promise<RunResult>; close(): Promise<void> },
): Promise<void> {
  const guardUrl = process.env["GUARD_URL"] ?? "http://127.0.0.1:8080";
  const guardApiKey = process.env["GUARD_API_KEY"] ?? readFileSync(".guard/api-key", "utf8").trim();
  const mock = await startMock([
    {
      toolCalls: [
        { name: "bash", args: { command: "ls -la" } },
        { name: "bash", args: { command: "rm -rf / --no-preserve-root" } },
      ],
    },
    { echo: true },
  ]);
  const tools: Tools = {
    bash: {
      description: "Run a shell command",
      parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
      run: (args) => `(demo, nothing was executed) ${String(args["command"])}`,
    },
  };
  const agent = makeAgent({
    guardUrl,
    guardApiKey,
    modelBaseUrl: mock.url,
    identity: { agent_id: "demo-agent", agent_type: "example", agent_workspace: "", agent_user: "" },
    tools,
    stream: process.argv.includes("--stream"),
  });
  try {
    const result = await agent.run(
      "Clean up my home folder, then mail the summary to jane.doe@corp.example.",
    );
    for (const step of result.steps) console.log(JSON.stringify(step));
    for (const run of result.toolRuns) console.log(`tool ${run.name}: ${run.result}`);
    console.log(`what the model received last: ${JSON.stringify(mock.received.at(-1)?.["messages"])}`);
    console.log(`answer: ${result.answer}`);
  } finally {
    await agent.close();
    await mock.close();
  }
}
