import type { RemoteDetectorConfig } from "../detectors/remote/config.js";
import type { FailModes } from "../policy/fail-modes.js";
import type { PolicySetConfig } from "../policy/from-config.js";
import type { ServicesConfig } from "./services.js";

/** Per-part byte caps by modality (spec 2.10); 0 means the modality is not accepted. */
export interface MediaLimits {
  readonly image: number;
  readonly audio: number;
  readonly document: number;
  readonly file: number;
  readonly video: number;
}

/** An organization's budget: the limits object of spec 2.10 plus the rate limits of spec 8. */
export interface OrgLimits {
  readonly max_request_bytes: number;
  readonly rate_per_minute: number;
  /** Whole-organization budget per minute across its keys; 0 means none. */
  readonly org_rate_per_minute: number;
  readonly media: MediaLimits;
  readonly media_parts_max: number;
}

/** An API key as configured: only the SHA-256 of the whole key string is ever kept. */
export interface KeyConfig {
  readonly id: string;
  readonly sha256: string;
  /** The key's default workspace; the organization's default when absent. */
  readonly workspace?: string;
  /** A bound key may only assert these identity values (spec 5.5). */
  readonly bound?: { readonly agent_id?: string; readonly agent_workspace?: string };
  readonly expires_at?: string;
  readonly revoked?: boolean;
}


export interface OrgConfig {
  readonly id: string;
  /** `active` or anything else (answered with 402). */
  readonly subscription: string;
  readonly default_workspace: string;
  readonly workspaces: readonly string[];
  readonly limits: OrgLimits;
  readonly keys: readonly KeyConfig[];
  /** Category or `prefix.*` -> open/closed, plus `default` (spec 4.1). */
  readonly fail_modes: FailModes;
  /** Longest a detector may take before its segments count as unjudged. */
  readonly detector_deadline_ms: number;
  /** Policy sets chosen by agent or workspace; the shipped defaults otherwise. */
  readonly policies: readonly PolicySetConfig[];
}

export const DEFAULT_DETECTOR_DEADLINE_MS = 250;

export interface GuardConfig {
  readonly orgs: readonly OrgConfig[];
  /** Detectors served by other processes (any language), consulted beside the built-in ones. */
  readonly detectors: readonly RemoteDetectorConfig[];
  /** Internal services reached in another process (`guard serve --services`); in process when absent. */
  readonly services?: ServicesConfig;
}

export const DEFAULT_LIMITS: OrgLimits = {
  max_request_bytes: 4 * 1024 * 1024,
  rate_per_minute: 600,
  org_rate_per_minute: 0,
  media: { image: 5 * 1024 * 1024, audio: 0, document: 10 * 1024 * 1024, file: 0, video: 0 },
  media_parts_max: 16,
};
