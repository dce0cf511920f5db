import { parseEndpoint } from "../detectors/remote/config.js";
import type { RemoteEndpoint } from "../detectors/remote/transport.js";

/** An internal service served by another Guard process (`guard serve --services`), as configured. */
export interface RemoteServiceConfig extends RemoteEndpoint {
  /** Longest one call may take; the evaluate fails (503) rather than wait longer. */
  readonly deadline_ms: number;
}

/** Internal services the pipeline may reach in another process instead of its own. */
export interface ServicesConfig {
  readonly decompose?: RemoteServiceConfig;
  readonly session?: RemoteServiceConfig;
}

const SERVICES = ["decompose", "session"] as const;
const KEYS = new Set(["url", "protocol", "deadline_ms"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parses the `services:` block (absent means every service runs in process). Throws an Error
 * naming the entry (`services.decompose.url`), so a bad file fails at start.
 */
export function parseServices(raw: unknown, where = "services"): ServicesConfig | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) throw new Error(`${where} must be a mapping of decompose and/or session`);
  const unknown = Object.keys(raw).filter((k) => !(SERVICES as readonly string[]).includes(k));
  if (unknown.length > 0) throw new Error(`${where}: unknown service ${unknown.join(", ")} (one of ${SERVICES.join(", ")})`);
  const services: { -readonly [K in keyof ServicesConfig]: ServicesConfig[K] } = {};
  for (const name of SERVICES) {
    const entry = raw[name];
    if (entry === undefined) continue;
    const at = `${where}.${name}`;
    if (!isObject(entry)) throw new Error(`${at} must be a mapping of url, protocol and deadline_ms`);
    const extra = Object.keys(entry).filter((k) => !KEYS.has(k));
    if (extra.length > 0) throw new Error(`${at}: unknown key ${extra.join(", ")}`);
    services[name] = parseEndpoint(entry, at);
  }
  return services;
}
