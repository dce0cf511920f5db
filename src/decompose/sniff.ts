import { EventKind, LlmProtocol } from "../../gen/guard/v1/types_pb.js";
import { isRecord, type JsonRecord } from "./json.js";

/**
 * Checks the caller's `llm_protocol` claim against the body. Each shape feature found in
 * the body is evidence naming the protocols whose parser understands it (a `developer`
 * role: vendor_a.chat only; a top-level `system`: vendor_b only; a `messages` array: all
 * but responses). The claim stands when its parser understands every feature, because
 * then parsing by the claim reads the body correctly even where other shapes would too.
 * Otherwise the protocol understanding the most features wins, and the mismatch is
 * reported: a wrong claim may weaken detection, it never makes a parser misread a body.
 */

const A = LlmProtocol.VENDOR_A_CHAT;
const R = LlmProtocol.VENDOR_A_RESPONSES;
const B = LlmProtocol.VENDOR_B_MESSAGES;
const C = LlmProtocol.CANONICAL;

type Understood = readonly LlmProtocol[];

/** Content part types only vendor_a.chat sends. */
const VENDOR_A_PARTS = new Set(["image_url", "input_audio", "file", "refusal"]);

/** Content block types only vendor_b sends (plus every `*_tool_result`). */
const VENDOR_B_BLOCKS = new Set([
  "image",
  "document",
  "search_result",
  "tool_use",
  "tool_result",
  "server_tool_use",
  "mcp_tool_use",
  "thinking",
  "redacted_thinking",
]);

/** Server tool types of vendor_b are versioned by date: `web_search_20250305`. */
const DATED_TOOL_TYPE = /_\d{8}$/;

const ROLE_EVIDENCE = new Map<string, Understood>([
  ["system", [A, C]],
  ["developer", [A]],
  ["function", [A]],
  ["tool", [A, C]],
]);

function partEvidence(part: unknown, add: (u: Understood) => void): void {
  if (!isRecord(part) || typeof part.type !== "string") return;
  if (VENDOR_A_PARTS.has(part.type)) add([A]);
  else if (VENDOR_B_BLOCKS.has(part.type) || part.type.endsWith("_tool_result")) add([B]);
}

function messageEvidence(message: unknown, add: (u: Understood) => void): void {
  if (!isRecord(message)) return;
  const role = ROLE_EVIDENCE.get(typeof message.role === "string" ? message.role : "");
  if (role !== undefined) add(role);
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      if (!isRecord(call)) continue;
      if (isRecord(call.function) || isRecord(call.custom)) add([A]);
      else if (call.arguments !== undefined) add([C]);
    }
  }
  if (message.function_call !== undefined) add([A]);
  if (Array.isArray(message.content)) {
    add([A, B]);
    for (const part of message.content) partEvidence(part, add);
  }
}

function toolEvidence(tool: unknown, add: (u: Understood) => void): void {
  if (!isRecord(tool)) return;
  if (isRecord(tool.function) || isRecord(tool.custom)) add([A]);
  else if (tool.input_schema !== undefined) add([B]);
  else if (tool.schema !== undefined) add([C]);
  else if (typeof tool.type === "string" && DATED_TOOL_TYPE.test(tool.type)) add([B]);
  else if (tool.type === "function") add([R]);
}

function requestEvidence(body: JsonRecord, add: (u: Understood) => void): void {
  if (body.input !== undefined || body.instructions !== undefined || body.previous_response_id !== undefined)
    add([R]);
  if (Array.isArray(body.messages)) {
    add([A, B, C]);
    for (const message of body.messages) messageEvidence(message, add);
  }
  if (body.system !== undefined) add([B]);
  if (Array.isArray(body.functions)) add([A]);
  if (Array.isArray(body.tools)) for (const tool of body.tools) toolEvidence(tool, add);
}

function responseEvidence(body: JsonRecord, add: (u: Understood) => void): void {
  if (Array.isArray(body.choices) || body.object === "chat.completion") add([A]);
  if (Array.isArray(body.output) || body.object === "response") add([R]);
  if (Array.isArray(body.content) || body.type === "message" || body.stop_reason !== undefined) add([B]);
  if (typeof body.text === "string" || typeof body.reasoning === "string" || Array.isArray(body.tool_calls))
    add([C]);
}

/** The shape a body is decomposed as. */
export interface Resolution {
  readonly protocol: LlmProtocol;
  /** The claim was made and the body contradicted it. */
  readonly mismatch: boolean;
  /** False when nothing in the body looks like any known shape. */
  readonly recognised: boolean;
}

export function resolveProtocol(kind: EventKind, claimed: LlmProtocol, body: unknown): Resolution {
  const unrecognised: Resolution = { protocol: claimed, mismatch: false, recognised: false };
  if (!isRecord(body)) return unrecognised;
  const evidence: Understood[] = [];
  const add = (u: Understood): void => {
    evidence.push(u);
  };
  if (kind === EventKind.STEP_REQUEST) requestEvidence(body, add);
  else if (kind === EventKind.STEP_RESPONSE) responseEvidence(body, add);
  if (evidence.length === 0) return unrecognised;

  const claim = claimed === LlmProtocol.UNSPECIFIED ? [] : [claimed];
  let best = LlmProtocol.UNSPECIFIED;
  let bestScore = -1;
  // The claim is tried first, so it wins every tie.
  for (const candidate of [...claim, A, B, C, R]) {
    let score = 0;
    for (const u of evidence) if (u.includes(candidate)) score++;
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return { protocol: best, mismatch: claim.length > 0 && best !== claimed, recognised: true };
}
