import { EventKind, LlmProtocol } from "../../gen/guard/v1/types_pb.js";

/** A GuardEvent that passed the closed schema (spec 2.1). */
export interface GuardEvent {
  readonly kind: "step/request" | "step/response";
  readonly step_id: string;
  readonly agent_id: string;
  readonly agent_type: string;
  readonly agent_workspace: string;
  readonly agent_user: string;
  readonly llm_protocol: "vendor_a.chat" | "vendor_a.responses" | "vendor_b.messages" | "canonical";
  readonly payload: Record<string, unknown>;
  readonly integration?: string;
  readonly connection?: string;
  readonly session_hint?: string;
  /** Results of earlier obligations (DESIGN.md decision 8); read leniently. */
  readonly obligation_results?: unknown;
}

export const EVENT_KINDS: Record<GuardEvent["kind"], EventKind> = {
  "step/request": EventKind.STEP_REQUEST,
  "step/response": EventKind.STEP_RESPONSE,
};

export const PROTOCOLS: Record<GuardEvent["llm_protocol"], LlmProtocol> = {
  "vendor_a.chat": LlmProtocol.VENDOR_A_CHAT,
  "vendor_a.responses": LlmProtocol.VENDOR_A_RESPONSES,
  "vendor_b.messages": LlmProtocol.VENDOR_B_MESSAGES,
  canonical: LlmProtocol.CANONICAL,
};
