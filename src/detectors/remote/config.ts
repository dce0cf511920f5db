import type { Channel } from "../../../gen/guard/v1/types_pb.js";
import { CHANNEL_NAMES } from "../../policy/from-config.js";
import type { RemoteEndpoint } from "./transport.js";
import { withoutTrailingSlashes } from "../../text/slashes.js";

/**
 * A detector served by another process (any language) over HTTP/2, as configured. Guard
 * trusts the configured categories, not the detector's own Describe answer: they decide the
 * fail mode when the detector is silent, so they must be known before it ever answers.
 */
export interface RemoteDetectorConfig extends RemoteEndpoint {
  readonly name: string;
  /** Longest one Detect call may take before its segments count as unjudged. */
  readonly deadline_ms: number;
  /** Category ids or prefixes (`x.example.*`) the detector may report. */
  readonly categories: readonly string[];
  /** Channels the detector is shown; empty means all. */
  readonly channels: readonly Channel[];
}

const NAME = /^[a-z0-9][a-z0-9_.-]{0,62}$/;
/** A taxonomy id or prefix; unlike a policy rule, a detector may not claim everything (`*`). */
const CATEGORY = /^(safety|security|privacy|x)(\.[a-z0-9_]+)*(\.\*)?$/;
const PROTOCOLS = ["grpc", "connect"] as const;
/** A remote call slower than this cannot sit on a decision path that answers agents inline. */
const MAX_DEADLINE_MS = 60_000;
const KEYS = new Set(["name", "url", "protocol", "deadline_ms", "categories", "channels"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseUrl(raw: unknown, where: string): string {
  if (typeof raw !== "string" || raw.length === 0) throw new Error(`${where}.url must be a non-empty string`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${where}.url is not a URL: ${raw}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new Error(`${where}.url must start with http:// or https:// (got ${url.protocol})`);
  if (url.username || url.password) throw new Error(`${where}.url must not carry credentials`);
  if (url.search || url.hash) throw new Error(`${where}.url must not have a query or fragment`);
  return withoutTrailingSlashes(url.href);
}

function parseCategories(raw: unknown, where: string): string[] {
  if (!Array.isArray(raw) || raw.length === 0)
    throw new Error(`${where}.categories must be a non-empty list`);
  return raw.map((c, i) => {
    if (typeof c !== "string" || !CATEGORY.test(c))
      throw new Error(`${where}.categories[${i}] must be a category id or prefix.* (got ${String(c)})`);
    return c;
  });
}

function parseChannels(raw: unknown, where: string): Channel[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new Error(`${where}.channels must be a list`);
  return raw.map((c, i) => {
    const channel = typeof c === "string" ? CHANNEL_NAMES[c] : undefined;
    if (channel === undefined)
      throw new Error(
        `${where}.channels[${i}]: unknown channel ${String(c)} (one of ${Object.keys(CHANNEL_NAMES).join(", ")})`,
      );
    return channel;
  });
}

/**
 * The `url`, `protocol` and `deadline_ms` of a mapping: what a remote detector and a remote
 * internal service (`services:`) are both configured with.
 */
export function parseEndpoint(
  raw: Record<string, unknown>,
  where: string,
): RemoteEndpoint & { readonly deadline_ms: number } {
  const protocol = raw["protocol"];
  if (!PROTOCOLS.includes(protocol as (typeof PROTOCOLS)[number]))
    throw new Error(`${where}.protocol must be grpc or connect (got ${String(protocol)})`);
  const deadline = raw["deadline_ms"];
  if (
    typeof deadline !== "number" ||
    !Number.isInteger(deadline) ||
    deadline < 1 ||
    deadline > MAX_DEADLINE_MS
  )
    throw new Error(`${where}.deadline_ms must be an integer from 1 to ${MAX_DEADLINE_MS}`);
  return {
    url: parseUrl(raw["url"], where),
    protocol: protocol as RemoteEndpoint["protocol"],
    deadline_ms: deadline,
  };
}

function parseEntry(raw: unknown, where: string): RemoteDetectorConfig {
  if (!isObject(raw)) throw new Error(`${where} must be a mapping`);
  const unknown = Object.keys(raw).filter((k) => !KEYS.has(k));
  if (unknown.length > 0) throw new Error(`${where}: unknown key ${unknown.join(", ")}`);
  const name = raw["name"];
  if (typeof name !== "string" || !NAME.test(name))
    throw new Error(
      `${where}.name must be lower-case letters, digits, '_', '.' or '-' (got ${String(name)})`,
    );
  return {
    name,
    ...parseEndpoint(raw, where),
    categories: parseCategories(raw["categories"], where),
    channels: parseChannels(raw["channels"], where),
  };
}

/**
 * Parses the configured list of remote detectors (absent means none). Every mistake throws
 * an Error naming the entry (`${where}[i].field`), so a bad file fails at start, not on the
 * first evaluate. Names must be unique: findings, logs and `detectors_failed` carry them.
 */
export function parseRemoteDetectors(raw: unknown, where: string): RemoteDetectorConfig[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new Error(`${where} must be a list of detectors`);
  const configs = raw.map((entry, i) => parseEntry(entry, `${where}[${i}]`));
  const seen = new Set<string>();
  configs.forEach((config, i) => {
    if (seen.has(config.name))
      throw new Error(`${where}[${i}].name ${config.name} is used by an earlier detector`);
    seen.add(config.name);
  });
  return configs;
}
