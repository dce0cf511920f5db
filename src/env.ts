import { resolve } from "node:path";
import { withoutEdgeSlashes } from "./text/slashes.js";

/** Everything Guard reads from the environment; only entry points call this. */
export interface Environment {
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  readonly configPath?: string;
  readonly basePath: string;
  readonly rpcPort?: number;
  readonly masterKey?: string;
  /** PostgreSQL for many replicas; the embedded store in `dataDir` otherwise. */
  readonly databaseUrl?: string;
  /** Redis for rate limits exact across replicas; in-process counters otherwise. */
  readonly redisUrl?: string;
  readonly logLevel: string;
  /** GUARD_REQUEST_TIMEOUT_MS: the most a whole request (headers and body) may take; 0 for none. */
  readonly requestTimeoutMs?: number;
}

function port(value: string | undefined, name: string, fallback?: number): number | undefined {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number, got ${value}`);
  return n;
}

function milliseconds(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a whole number of milliseconds, got ${value}`);
  return n;
}

/** A prefix is `/name[/name...]` without a trailing slash; empty means none. */
function basePath(value: string | undefined): string {
  if (!value || value === "/") return "";
  const names = withoutEdgeSlashes(value).split("/");
  if (!names.every((name) => /^[A-Za-z0-9._~-]+$/.test(name)))
    throw new Error(`GUARD_BASE_PATH is not a path prefix: ${value}`);
  return `/${names.join("/")}`;
}

export function readEnvironment(env: NodeJS.ProcessEnv = process.env): Environment {
  const rpcPort = port(env["GUARD_RPC_PORT"], "GUARD_RPC_PORT");
  const requestTimeoutMs = milliseconds(env["GUARD_REQUEST_TIMEOUT_MS"], "GUARD_REQUEST_TIMEOUT_MS");
  return {
    host: env["HOST"] || "127.0.0.1",
    port: port(env["PORT"], "PORT", 8080) ?? 8080,
    dataDir: resolve(env["GUARD_DATA_DIR"] || ".guard"),
    ...(env["GUARD_CONFIG"] ? { configPath: env["GUARD_CONFIG"] } : {}),
    basePath: basePath(env["GUARD_BASE_PATH"]),
    ...(rpcPort !== undefined ? { rpcPort } : {}),
    ...(env["GUARD_MASTER_KEY"] ? { masterKey: env["GUARD_MASTER_KEY"] } : {}),
    ...(env["GUARD_DATABASE_URL"] ? { databaseUrl: env["GUARD_DATABASE_URL"] } : {}),
    ...(env["GUARD_REDIS_URL"] ? { redisUrl: env["GUARD_REDIS_URL"] } : {}),
    logLevel: env["GUARD_LOG_LEVEL"] || "info",
    ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}),
  };
}
