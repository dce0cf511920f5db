/**
 * The tools inventory every generated agent declares: the set a coding and research agent
 * typically carries. Schemas are real JSON Schemas because the decomposers read them (tool
 * descriptions are judged text) and the inventory is re-sent on every step.
 */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly schema: Record<string, unknown>;
}

function objectSchema(properties: Record<string, { type: string; description: string }>, required: string[]) {
  return { type: "object", properties, required, additionalProperties: false };
}

export const TOOLS: readonly ToolSpec[] = [
  {
    name: "read_file",
    description: "Read a file of the workspace and return its contents with line numbers.",
    schema: objectSchema({ path: { type: "string", description: "Path relative to the workspace root" } }, ["path"]),
  },
  {
    name: "write_file",
    description: "Create or overwrite a file of the workspace with the given contents.",
    schema: objectSchema(
      {
        path: { type: "string", description: "Path relative to the workspace root" },
        contents: { type: "string", description: "The whole new contents" },
      },
      ["path", "contents"],
    ),
  },
  {
    name: "run_shell",
    description: "Run a shell command in the workspace and return its combined output and exit code.",
    schema: objectSchema({ command: { type: "string", description: "A bash command line" } }, ["command"]),
  },
  {
    name: "web_fetch",
    description: "Fetch a web page and return its HTML.",
    schema: objectSchema({ url: { type: "string", description: "An absolute http(s) URL" } }, ["url"]),
  },
  {
    name: "http_get_json",
    description: "Call a JSON API of the company's services and return the response body.",
    schema: objectSchema({ url: { type: "string", description: "The endpoint" } }, ["url"]),
  },
];

export const SYSTEM_PROMPT_HEAD =
  "You are a software engineering agent working inside a company repository. Use the tools to " +
  "inspect files, run commands and look things up before you answer. Never print credentials. " +
  "Keep changes minimal and explain what you did at the end.";
