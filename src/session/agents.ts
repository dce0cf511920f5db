import type { AgentRecord } from "./records.js";

/** Distinct shadow agent_type values remembered per agent; more still count in `shadowEvents`. */
export const MAX_SHADOW_TYPES = 16;

/**
 * Folds one event's agent_type into the agent record (spec 2.1 rule 3): the agent is never split;
 * a type that disagrees with the first labelled one is a shadow. An empty agent_type asserts
 * nothing, so it never disagrees, and an unlabelled agent takes the first label it is given.
 */
export function observeAgentType(
  existing: AgentRecord | undefined,
  agentId: string,
  agentType: string,
  now: number,
): { agent: AgentRecord; shadow: boolean } {
  if (!existing) {
    return {
      agent: { agentId, agentType, firstSeenAt: now, lastSeenAt: now, shadowTypes: [], shadowEvents: 0 },
      shadow: false,
    };
  }
  const agent: AgentRecord = { ...existing, shadowTypes: [...existing.shadowTypes], lastSeenAt: now };
  if (agentType === "" || agentType === agent.agentType) return { agent, shadow: false };
  if (agent.agentType === "") {
    agent.agentType = agentType;
    return { agent, shadow: false };
  }
  agent.shadowEvents++;
  if (!agent.shadowTypes.includes(agentType) && agent.shadowTypes.length < MAX_SHADOW_TYPES) {
    agent.shadowTypes.push(agentType);
  }
  return { agent, shadow: true };
}
