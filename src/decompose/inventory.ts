import { Channel } from "../../gen/guard/v1/types_pb.js";
import type { Collector, TextContext } from "./collector.js";
import { isRecord, jsonText, stringOf } from "./json.js";
import { childPath } from "./path.js";

/** One declared tool, with the paths of its fields in the body. */
export interface ToolDeclaration {
  readonly name: unknown;
  readonly namePath: string;
  readonly description: unknown;
  readonly descriptionPath: string;
  readonly schema: unknown;
  readonly schemaPath: string;
}

/**
 * Judges a declared tool. Name and description are string leaves (addressable). The
 * schema is judged as one segment of its JSON text: instructions hidden anywhere in it
 * (property descriptions, enum values, defaults) are seen together, at the price of
 * findings there carrying no offsets.
 */
export function declareTool(c: Collector, tool: ToolDeclaration): void {
  const ctx: TextContext = {
    channel: Channel.TOOL_INVENTORY,
    messageIndex: -1,
    toolName: stringOf(tool.name),
  };
  c.text(ctx, tool.name, tool.namePath);
  c.text(ctx, tool.description, tool.descriptionPath);
  if (tool.schema === undefined || tool.schema === null) return;
  const json = jsonText(tool.schema);
  if (json.tooDeep) c.skip(tool.schemaPath);
  c.segment(ctx, { path: tool.schemaPath, text: json.text, addressable: false });
}

/**
 * Declares every tool of a flat list whose items are `{name, description, <schemaKey>}`
 * (canonical `schema`, messages `input_schema`, chat's legacy `functions` `parameters`).
 * Items that are not objects, or a list that is not an array, are reported as skipped.
 */
export function declareToolList(c: Collector, tools: unknown, path: string, schemaKey: string): void {
  if (!Array.isArray(tools)) {
    if (tools !== undefined && tools !== null) c.skip(path);
    return;
  }
  for (let i = 0; i < tools.length; i++) {
    const toolPath = childPath(path, i);
    const tool: unknown = tools[i];
    if (!isRecord(tool)) {
      c.skip(toolPath);
      continue;
    }
    declareTool(c, {
      name: tool.name,
      namePath: childPath(toolPath, "name"),
      description: tool.description,
      descriptionPath: childPath(toolPath, "description"),
      schema: tool[schemaKey],
      schemaPath: childPath(toolPath, schemaKey),
    });
  }
}
