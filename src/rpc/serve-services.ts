import type { ConnectRouter, ServiceImpl } from "@connectrpc/connect";
import { DecomposeService } from "../../gen/guard/v1/decompose_pb.js";
import { DetectorService } from "../../gen/guard/v1/detector_pb.js";
import { SessionService } from "../../gen/guard/v1/session_pb.js";
import { decomposeServiceImpl } from "../decompose/service.js";
import { combinedDetectorServiceImpl } from "../detectors/combined.js";
import { builtinDetectors } from "../detectors/registry.js";
import { MemorySessionState } from "../session/memory-state.js";
import { RedisSessionState } from "../session/redis-state.js";
import { createSessionService } from "../session/service.js";
import type { SessionState } from "../session/state.js";
import { createSessionTracker } from "../session/tracker.js";
import { VERSION } from "../version.js";
import { serveRpc } from "./serve.js";

/** The internal services one process can serve to others, by their `--services` names. */
export const INTERNAL_SERVICES = ["decompose", "session", "detectors"] as const;
export type InternalService = (typeof INTERNAL_SERVICES)[number];

/** `decompose,session`: a non-empty list of distinct service names; throws naming the bad one. */
export function parseServiceList(raw: string): InternalService[] {
  const names = raw.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
  if (names.length === 0) throw new Error(`name at least one service (${INTERNAL_SERVICES.join(", ")})`);
  for (const name of names)
    if (!(INTERNAL_SERVICES as readonly string[]).includes(name))
      throw new Error(`unknown service ${name} (one of ${INTERNAL_SERVICES.join(", ")})`);
  return [...new Set(names)] as InternalService[];
}

/**
 * The routes of the chosen internal services: DecomposeService, SessionService over the given
 * implementation (its tracker is the caller's), and the built-in detectors as one
 * DetectorService. What `GUARD_RPC_PORT` serves beside the bridge and `guard serve --services`
 * serves alone, so the two cannot drift apart.
 */
export function internalRoutes(
  services: readonly InternalService[],
  session: ServiceImpl<typeof SessionService> | undefined,
): (router: ConnectRouter) => void {
  return (router) => {
    if (services.includes("decompose")) router.service(DecomposeService, decomposeServiceImpl);
    if (services.includes("session")) {
      if (!session) throw new Error("serving SessionService needs a session service implementation");
      router.service(SessionService, session);
    }
    if (services.includes("detectors"))
      router.service(DetectorService, combinedDetectorServiceImpl(builtinDetectors, VERSION));
  };
}

export interface ServedServices {
  readonly port: number;
  readonly services: readonly InternalService[];
  /** Stops accepting and closes the session state (Redis) it opened. */
  close(): Promise<void>;
}

/**
 * Serves only the chosen internal services over HTTP/2 (gRPC, gRPC-Web, Connect), without the
 * JSON bridge or a store: `guard serve --services`. Sessions live in memory, or in Redis when
 * `redisUrl` is given (then many such processes share them).
 */
export async function serveServices(options: {
  readonly services: readonly InternalService[];
  readonly host: string;
  readonly port: number;
  readonly redisUrl?: string;
  readonly now?: () => number;
}): Promise<ServedServices> {
  let state: SessionState | undefined;
  if (options.services.includes("session"))
    state = options.redisUrl ? await RedisSessionState.open(options.redisUrl) : new MemorySessionState();
  const session = state
    ? createSessionService({ tracker: createSessionTracker({ state, clock: options.now ?? Date.now }) })
    : undefined;
  let rpc: { port: number; close: () => Promise<void> };
  try {
    rpc = await serveRpc(internalRoutes(options.services, session), options.host, options.port);
  } catch (error) {
    if (state instanceof RedisSessionState) await state.close();
    throw error;
  }
  return {
    port: rpc.port,
    services: options.services,
    async close() {
      await rpc.close();
      if (state instanceof RedisSessionState) await state.close();
    },
  };
}
