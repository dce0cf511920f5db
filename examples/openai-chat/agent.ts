import OpenAI from "openai";
import type {
  ChatCompletion,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import {
  type AgentOptions,
  createIntegration,
  type Integration,
  type RunResult,
} from "../shared/integration.js";
import { runTool, type ToolRun } from "../shared/tools.js";
import { chatDialect } from "./dialect.js";

export const INTEGRATION = "guard-example-openai-chat/0.1.0";

/**
 * A minimal tool-using agent on the official `openai` SDK. It knows nothing about Guard:
 * every guardrail step happens inside the `fetch` the SDK is given (shared/guarded-fetch.ts),
 * so the loop below is the loop an agent would have anyway. It runs exactly the tool calls
 * in the reply the SDK hands it, which is Guard's fixed reply, with blocked calls dropped.
 */
export class ChatAgent {
  readonly integration: Integration;
  readonly #client: OpenAI;
  readonly #options: AgentOptions;

  constructor(options: AgentOptions) {
    this.#options = options;
    this.integration = createIntegration(options, chatDialect, INTEGRATION);
    this.#client = new OpenAI({
      apiKey: "not-used-by-the-mock",
      baseURL: options.modelBaseUrl,
      fetch: this.integration.fetch,
      maxRetries: 0,
    });
  }

  async run(prompt: string): Promise<RunResult> {
    const firstStep = this.integration.steps.length;
    const messages: ChatCompletionMessageParam[] = [
      { role: "system", content: "You are a careful assistant. Use the tools when they help." },
      { role: "user", content: prompt },
    ];
    const toolRuns: ToolRun[] = [];
    for (let step = 0; step < (this.#options.maxSteps ?? 8); step++) {
      const message = (await this.#complete(messages)).choices[0]?.message;
      if (!message) break;
      const calls = (message.tool_calls ?? []).filter((c) => c.type === "function");
      // Only the fields the API takes back: the SDK's stream helper adds `parsed` and the like.
      messages.push({
        role: "assistant",
        content: message.content,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      });
      if (calls.length === 0)
        return { answer: message.content ?? "", toolRuns, steps: this.integration.steps.slice(firstStep) };
      for (const call of calls) {
        const run = await runTool(
          this.#options.tools,
          call.id,
          call.function.name,
          parseArgs(call.function.arguments),
        );
        toolRuns.push(run);
        messages.push({ role: "tool", tool_call_id: call.id, content: run.result });
      }
    }
    return { answer: "", toolRuns, steps: this.integration.steps.slice(firstStep) };
  }

  close(): Promise<void> {
    return this.integration.close();
  }

  #complete(messages: ChatCompletionMessageParam[]): Promise<ChatCompletion> {
    const body = { model: this.#options.model ?? "mock-model", messages, tools: this.#toolList() };
    if (this.#options.stream) return this.#client.chat.completions.stream(body).finalChatCompletion();
    return this.#client.chat.completions.create(body);
  }

  #toolList(): ChatCompletionTool[] {
    return Object.entries(this.#options.tools).map(([name, tool]) => ({
      type: "function",
      function: { name, description: tool.description, parameters: tool.parameters },
    }));
  }
}

/** Tool arguments arrive JSON-encoded; a model that wrote broken JSON gets an empty object. */
function parseArgs(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json || "{}");
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
