import type { KeyConfig, OrgConfig } from "../config/types.js";
import { errors } from "../errors/guard-error.js";
import type { AgentRecord } from "../store/records.js";

/** The identity fields of an event, as asserted (empty string: nothing asserted). */
export interface AssertedIdentity {
  readonly agent_id: string;
  readonly agent_type: string;
  readonly agent_workspace: string;
  readonly agent_user: string;
}

/** Where an event lands. */
export interface Placement {
  readonly agentId: string;
  /** True when the event asserted no agent and the key's default agent was used. */
  readonly derived: boolean;
  readonly workspace: string;
  /** Set when this event placed the agent for the first time: the caller persists it. */
  readonly newAgent?: AgentRecord;
}

/** The agent id a key stands for when an event asserts none: one key, one default agent. */
export function defaultAgentId(key: KeyConfig): string {
  return `key:${key.id}`;
}

/**
 * Spec 5.3 to 5.5, as a pure decision over what is already known of the agent: a bound key
 * may not assert another agent or workspace (identity_refused); the workspace the agent was
 * already placed in wins, then the asserted one, then the key's, then the organization's.
 */
export function placeEvent(
  org: OrgConfig,
  key: KeyConfig,
  asserted: AssertedIdentity,
  lookup: (agentId: string) => AgentRecord | undefined,
  now: string,
): Placement {
  const bound = key.bound;
  if (bound?.agent_id !== undefined && asserted.agent_id !== "" && asserted.agent_id !== bound.agent_id)
    throw errors.identityRefused("agent_id", bound.agent_id);
  if (
    bound?.agent_workspace !== undefined &&
    asserted.agent_workspace !== "" &&
    asserted.agent_workspace !== bound.agent_workspace
  )
    throw errors.identityRefused("agent_workspace", bound.agent_workspace);

  const derived = asserted.agent_id === "" && bound?.agent_id === undefined;
  const agentId = asserted.agent_id || bound?.agent_id || defaultAgentId(key);
  const known = lookup(agentId);
  if (known) return { agentId, derived, workspace: known.workspace };
  const workspace =
    asserted.agent_workspace || bound?.agent_workspace || key.workspace || org.default_workspace;
  return {
    agentId,
    derived,
    workspace,
    newAgent: { org_id: org.id, agent_id: agentId, workspace, agent_type: asserted.agent_type, first_seen: now },
  };
}

/** Where placements are claimed; the store implements it. */
export interface AgentClaims {
  claimAgent(record: AgentRecord): Promise<AgentRecord>;
}

/**
 * Placed agents: an in-memory cache over the store, which decides first placements for
 * every replica. A known agent costs nothing; a new one costs one claim.
 */
export class AgentDirectory {
  readonly #agents = new Map<string, AgentRecord>();

  constructor(private readonly claims: AgentClaims) {}

  get(orgId: string, agentId: string): AgentRecord | undefined {
    return this.#agents.get(`${orgId}\0${agentId}`);
  }

  /** Records a first placement; answers the placement that holds (perhaps another replica's). */
  async claim(agent: AgentRecord): Promise<AgentRecord> {
    const held = await this.claims.claimAgent(agent);
    this.#agents.set(`${held.org_id}\0${held.agent_id}`, held);
    return held;
  }
}
