import Anthropic from "@anthropic-ai/sdk";
import type {
  ContentBlockParam,
  Message,
  MessageParam,
  Tool as ToolParam,
} from "@anthropic-ai/sdk/resources/messages";
import {
  type AgentOptions,
  createIntegration,
  type Integration,
  type RunResult,
} from "../shared/integration.js";
import { runTool, type ToolRun } from "../shared/tools.js";
import { messagesDialect } from "./dialect.js";

export const INTEGRATION = "guard-example-anthropic-messages/0.1.0";

/**
 * A minimal tool-using agent on the official `@anthropic-ai/sdk`. It knows nothing about
 * Guard: every guardrail step happens inside the `fetch` the SDK is given
 * (shared/guarded-fetch.ts), so the loop below is the loop an agent would have anyway. It
 * runs exactly the `tool_use` blocks of the reply the SDK hands it, which is Guard's fixed
 * reply, with blocked calls dropped.
 */
export class MessagesAgent {
  readonly integration: Integration;
  readonly #client: Anthropic;
  readonly #options: AgentOptions;

  constructor(options: AgentOptions) {
    this.#options = options;
    this.integration = createIntegration(options, messagesDialect, INTEGRATION);
    this.#client = new Anthropic({
      apiKey: "not-used-by-the-mock",
      baseURL: options.modelBaseUrl,
      fetch: this.integration.fetch,
      maxRetries: 0,
    });
  }

  async run(prompt: string): Promise<RunResult> {
    const firstStep = this.integration.steps.length;
    const messages: MessageParam[] = [{ role: "user", content: prompt }];
    const toolRuns: ToolRun[] = [];
    for (let step = 0; step < (this.#options.maxSteps ?? 8); step++) {
      const reply = await this.#complete(messages);
      messages.push({ role: "assistant", content: reply.content.flatMap(asParams) });
      const uses = reply.content.flatMap((b) => (b.type === "tool_use" ? [b] : []));
      if (uses.length === 0) {
        const answer = reply.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n\n");
        return { answer, toolRuns, steps: this.integration.steps.slice(firstStep) };
      }
      const results: ContentBlockParam[] = [];
      for (const use of uses) {
        const input =
          typeof use.input === "object" && use.input !== null ? (use.input as Record<string, unknown>) : {};
        const run = await runTool(this.#options.tools, use.id, use.name, input);
        toolRuns.push(run);
        results.push({ type: "tool_result", tool_use_id: use.id, content: run.result });
      }
      messages.push({ role: "user", content: results });
    }
    return { answer: "", toolRuns, steps: this.integration.steps.slice(firstStep) };
  }

  close(): Promise<void> {
    return this.integration.close();
  }

  #complete(messages: MessageParam[]): Promise<Message> {
    const body = {
      model: this.#options.model ?? "mock-model",
      max_tokens: 1024,
      system: "You are a careful assistant. Use the tools when they help.",
      messages,
      tools: this.#toolList(),
    };
    if (this.#options.stream) return this.#client.messages.stream(body).finalMessage();
    return this.#client.messages.create(body);
  }

  #toolList(): ToolParam[] {
    return Object.entries(this.#options.tools).map(([name, tool]) => ({
      name,
      description: tool.description,
      input_schema: { type: "object", ...tool.parameters },
    }));
  }
}

/**
 * A reply block as it goes back into the history. Thinking blocks keep their signature (the
 * provider checks it); kinds this agent does not use are left out rather than guessed at.
 */
function asParams(block: Message["content"][number]): ContentBlockParam[] {
  switch (block.type) {
    case "text":
      return [{ type: "text", text: block.text }];
    case "tool_use":
      return [{ type: "tool_use", id: block.id, name: block.name, input: block.input }];
    case "thinking":
      return [{ type: "thinking", thinking: block.thinking, signature: block.signature }];
    case "redacted_thinking":
      return [{ type: "redacted_thinking", data: block.data }];
    default:
      return [];
  }
}
