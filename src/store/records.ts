/** What the store keeps. Plain data: the bridge and pipeline build these, the store writes them. */

/** One accepted evaluate: the event's identity, where it landed, and the verdict answered. */
export interface EventRecord {
  readonly event_id: string;
  readonly received_at: string;
  readonly org_id: string;
  readonly key_id: string;
  readonly kind: string;
  readonly step_id: string;
  /** The agent as placed: derived from the key when the event asserted none. */
  readonly agent_id: string;
  readonly agent_id_derived: boolean;
  readonly agent_type: string;
  readonly agent_user: string;
  readonly workspace: string;
  readonly llm_protocol: string;
  readonly integration?: string;
  readonly connection?: string;
  readonly session_hint?: string;
  /** Content address of the raw body; the body itself is stored once per distinct content. */
  readonly payload_sha256: string;
  readonly payload_bytes: number;
  readonly session?: Readonly<Record<string, unknown>>;
  readonly verdict: Readonly<Record<string, unknown>>;
}

/** A refusal worth auditing (spec 5.5: identity refusals are audited). */
export interface AuditRecord {
  readonly at: string;
  readonly org_id: string;
  readonly key_id: string;
  readonly action: "identity_refused";
  readonly field: string;
  readonly asserted: string;
  readonly expected: string;
}

export interface HeartbeatRecord {
  readonly at: string;
  readonly org_id: string;
  readonly key_id: string;
  readonly integration?: string;
  readonly agent_id?: string;
  readonly interval_s?: number;
  readonly counters?: Readonly<Record<string, number>>;
}

/** Where an agent was first placed (spec 5.3: the workspace it was already placed in wins). */
export interface AgentRecord {
  readonly org_id: string;
  readonly agent_id: string;
  readonly workspace: string;
  readonly agent_type: string;
  readonly first_seen: string;
}

/** A request to name a value: the store answers the agent's existing token or mints the next. */
export interface PlaceholderClaim {
  readonly org_id: string;
  readonly agent_id: string;
  /** Upper-case kind (`EMAIL`); the token is `${X_<kind>_<ordinal>}`. */
  readonly kind: string;
  /** Keyed hash of the value, to find its placeholder again without decrypting. */
  readonly value_mac: string;
  /** AES-256-GCM of the value: iv.tag.ciphertext, base64url. */
  readonly sealed: string;
}

/** One placeholder minted for a value; the value is kept encrypted at rest. */
export interface PlaceholderRecord {
  readonly org_id: string;
  readonly agent_id: string;
  readonly kind: string;
  readonly ordinal: number;
  readonly placeholder: string;
  /** Keyed hash of the value, to find its placeholder again without decrypting. */
  readonly value_mac: string;
  /** AES-256-GCM of the value: iv.tag.ciphertext, base64url. */
  readonly sealed: string;
}
