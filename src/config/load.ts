import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { parseRemoteDetectors, type RemoteDetectorConfig } from "../detectors/remote/config.js";
import { DEFAULT_FAIL_MODES, type FailModes } from "../policy/fail-modes.js";
import { type PolicySetConfig, parseRule } from "../policy/from-config.js";
import { parseServices, type ServicesConfig } from "./services.js";
import { DEFAULT_DETECTOR_DEADLINE_MS, DEFAULT_LIMITS, type GuardConfig, type KeyConfig, type MediaLimits, type OrgConfig, type OrgLimits } from "./types.js";

/** A configuration file that cannot be used; the message names the offending entry. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

type Raw = Record<string, unknown>;

function isObject(value: unknown): value is Raw {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(obj: Raw, key: string, where: string, fallback?: string): string {
  const value = obj[key];
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== "string" || value.length === 0) throw new ConfigError(`${where}.${key} must be a non-empty string`);
  return value;
}

function count(obj: Raw, key: string, where: string, fallback: number): number {
  const value = obj[key];
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0)
    throw new ConfigError(`${where}.${key} must be a non-negative integer`);
  return value;
}

function parseMedia(raw: unknown, where: string): MediaLimits {
  if (raw === undefined) return DEFAULT_LIMITS.media;
  if (!isObject(raw)) throw new ConfigError(`${where} must be a mapping`);
  const d = DEFAULT_LIMITS.media;
  return {
    image: count(raw, "image", where, d.image),
    audio: count(raw, "audio", where, d.audio),
    document: count(raw, "document", where, d.document),
    file: count(raw, "file", where, d.file),
    video: count(raw, "video", where, d.video),
  };
}

function parseLimits(raw: unknown, where: string): OrgLimits {
  if (raw === undefined) return DEFAULT_LIMITS;
  if (!isObject(raw)) throw new ConfigError(`${where} must be a mapping`);
  const d = DEFAULT_LIMITS;
  const limits: OrgLimits = {
    max_request_bytes: count(raw, "max_request_bytes", where, d.max_request_bytes),
    rate_per_minute: count(raw, "rate_per_minute", where, d.rate_per_minute),
    org_rate_per_minute: count(raw, "org_rate_per_minute", where, d.org_rate_per_minute),
    media: parseMedia(raw["media"], `${where}.media`),
    media_parts_max: count(raw, "media_parts_max", where, d.media_parts_max),
  };
  if (limits.max_request_bytes < 1024) throw new ConfigError(`${where}.max_request_bytes must be at least 1024`);
  return limits;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

function parseKey(raw: unknown, where: string, workspaces: readonly string[]): KeyConfig {
  if (!isObject(raw)) throw new ConfigError(`${where} must be a mapping`);
  const sha256 = str(raw, "sha256", where).toLowerCase();
  if (!SHA256_HEX.test(sha256)) throw new ConfigError(`${where}.sha256 must be 64 hex digits (sha256 of the key)`);
  const key: { -readonly [K in keyof KeyConfig]: KeyConfig[K] } = { id: str(raw, "id", where), sha256 };
  if (raw["workspace"] !== undefined) {
    key.workspace = str(raw, "workspace", where);
    if (!workspaces.includes(key.workspace)) throw new ConfigError(`${where}.workspace ${key.workspace} is not a workspace of its org`);
  }
  if (raw["bound"] !== undefined) {
    const bound = raw["bound"];
    if (!isObject(bound)) throw new ConfigError(`${where}.bound must be a mapping`);
    key.bound = {
      ...(bound["agent_id"] !== undefined ? { agent_id: str(bound, "agent_id", `${where}.bound`) } : {}),
      ...(bound["agent_workspace"] !== undefined
        ? { agent_workspace: str(bound, "agent_workspace", `${where}.bound`) }
        : {}),
    };
  }
  if (raw["expires_at"] !== undefined) {
    // YAML reads an unquoted timestamp as a Date.
    const value = raw["expires_at"];
    const iso = value instanceof Date ? value.toISOString() : typeof value === "string" ? value : "";
    if (Number.isNaN(Date.parse(iso))) throw new ConfigError(`${where}.expires_at must be an RFC 3339 timestamp`);
    key.expires_at = iso;
  }
  if (raw["revoked"] !== undefined) {
    if (typeof raw["revoked"] !== "boolean") throw new ConfigError(`${where}.revoked must be true or false`);
    key.revoked = raw["revoked"];
  }
  return key;
}

function parseFailModes(raw: unknown, where: string): FailModes {
  if (raw === undefined) return DEFAULT_FAIL_MODES;
  if (!isObject(raw)) throw new ConfigError(`${where} must be a mapping of category to open or closed`);
  const modes: Record<string, "open" | "closed"> = { default: "open" };
  for (const [category, mode] of Object.entries(raw)) {
    if (mode !== "open" && mode !== "closed") throw new ConfigError(`${where}.${category} must be open or closed`);
    modes[category] = mode;
  }
  return modes;
}

function stringList(raw: unknown, where: string): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || !raw.every((v) => typeof v === "string")) throw new ConfigError(`${where} must be a list of names`);
  return raw;
}

function parsePolicies(raw: unknown, where: string): PolicySetConfig[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new ConfigError(`${where} must be a list of policy sets`);
  return raw.map((set, i) => {
    const at = `${where}[${i}]`;
    if (!isObject(set)) throw new ConfigError(`${at} must be a mapping`);
    const rules = set["rules"];
    if (!Array.isArray(rules)) throw new ConfigError(`${at}.rules must be a list`);
    const inherit = set["inherit_defaults"] ?? true;
    if (typeof inherit !== "boolean") throw new ConfigError(`${at}.inherit_defaults must be true or false`);
    try {
      return {
        name: str(set, "name", at),
        agents: stringList(set["agents"], `${at}.agents`),
        workspaces: stringList(set["workspaces"], `${at}.workspaces`),
        rules: rules.map((rule, j) => parseRule(rule, `${at}.rules[${j}]`)),
        inheritDefaults: inherit,
      };
    } catch (error) {
      throw error instanceof ConfigError ? error : new ConfigError((error as Error).message);
    }
  });
}

function parseOrg(raw: unknown, where: string): OrgConfig {
  if (!isObject(raw)) throw new ConfigError(`${where} must be a mapping`);
  const id = str(raw, "id", where);
  const defaultWorkspace = str(raw, "default_workspace", where, "default");
  const listed = raw["workspaces"] ?? [defaultWorkspace];
  if (!Array.isArray(listed) || !listed.every((w) => typeof w === "string" && w.length > 0))
    throw new ConfigError(`${where}.workspaces must be a list of names`);
  const workspaces = listed.includes(defaultWorkspace) ? listed : [defaultWorkspace, ...listed];
  const keys = raw["keys"] ?? [];
  if (!Array.isArray(keys)) throw new ConfigError(`${where}.keys must be a list`);
  return {
    id,
    subscription: str(raw, "subscription", where, "active"),
    default_workspace: defaultWorkspace,
    workspaces,
    limits: parseLimits(raw["limits"], `${where}.limits`),
    keys: keys.map((k, i) => parseKey(k, `${where}.keys[${i}]`, workspaces)),
    fail_modes: parseFailModes(raw["fail_modes"], `${where}.fail_modes`),
    detector_deadline_ms: count(raw, "detector_deadline_ms", where, DEFAULT_DETECTOR_DEADLINE_MS),
    policies: parsePolicies(raw["policies"], `${where}.policies`),
  };
}

/** Parses and checks a configuration document; throws ConfigError naming the bad entry. */
export function parseConfig(text: string): GuardConfig {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    throw new ConfigError(`configuration is not valid YAML: ${(error as Error).message}`);
  }
  if (!isObject(doc) || !Array.isArray(doc["orgs"])) throw new ConfigError("configuration needs an `orgs` list");
  const orgs = doc["orgs"].map((o, i) => parseOrg(o, `orgs[${i}]`));
  const seenOrgs = new Set<string>();
  const seenKeys = new Set<string>();
  for (const org of orgs) {
    if (seenOrgs.has(org.id)) throw new ConfigError(`org ${org.id} is listed twice`);
    seenOrgs.add(org.id);
    for (const key of org.keys) {
      if (seenKeys.has(key.sha256)) throw new ConfigError(`key ${key.id} of org ${org.id} repeats another key's hash`);
      seenKeys.add(key.sha256);
    }
  }
  let detectors: RemoteDetectorConfig[];
  let services: ServicesConfig | undefined;
  try {
    detectors = parseRemoteDetectors(doc["detectors"], "detectors");
    services = parseServices(doc["services"], "services");
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return { orgs, detectors, ...(services ? { services } : {}) };
}

export function loadConfigFile(path: string): GuardConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(`cannot read configuration ${path}: ${(error as Error).message}`);
  }
  return parseConfig(text);
}
