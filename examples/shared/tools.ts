/**
 * A tool the example agents can offer the model: a JSON-Schema description for the provider
 * and a local implementation. The agent runs a tool only when the tool call survived Guard's
 * `step/response` verdict.
 */
export interface Tool {
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: Record<string, unknown>;
  run(args: Record<string, unknown>): string | Promise<string>;
}

export type Tools = Readonly<Record<string, Tool>>;

/** One tool execution, reported back to whoever ran the agent. */
export interface ToolRun {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly result: string;
}

/** Runs the named tool; an unknown name or a failure becomes the text the model reads. */
export async function runTool(
  tools: Tools,
  id: string,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolRun> {
  const tool = tools[name];
  let result: string;
  try {
    result = tool ? await tool.run(args) : `unknown tool ${name}`;
  } catch (error) {
    result = `tool ${name} failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  return { id, name, args, result };
}
