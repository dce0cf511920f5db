import { createClient } from "@connectrpc/connect";
import type { FastifyInstance, FastifyServerOptions } from "fastify";
import { DecomposeService } from "../gen/guard/v1/decompose_pb.js";
import { DetectorService } from "../gen/guard/v1/detector_pb.js";
import { SessionService } from "../gen/guard/v1/session_pb.js";
import { KeyRing } from "./auth/key-ring.js";
import { type BridgeTimeouts, buildBridge, DEFAULT_BRIDGE_TIMEOUTS } from "./bridge/server.js";
import { CoverageMonitor } from "./coverage/monitor.js";
import type { GuardConfig } from "./config/types.js";
import { watchConfig } from "./config/watch.js";
import type { SecretBox } from "./crypto/secret-box.js";
import { RepeatedDigests } from "./decompose/repeated-digests.js";
import { decomposeServiceImpl } from "./decompose/service.js";
import { createRemoteDetectors, describeRemote } from "./detectors/remote/remote-detector.js";
import { SessionPool } from "./detectors/remote/sessions.js";
import { remoteTransport } from "./detectors/remote/transport.js";
import type { Detector } from "./detectors/detector.js";
import { builtinDetectors } from "./detectors/registry.js";
import { detectorServiceImpl } from "./detectors/service.js";
import { monotonicUlid } from "./identity/event-id.js";
import { AgentDirectory } from "./identity/placement.js";
import { InProcessRateLimiter, type RateLimiter } from "./limits/rate-limiter.js";
import { RedisRateLimiter } from "./limits/redis-rate-limiter.js";
import type { DetectorHandle } from "./pipeline/detect.js";
import { ObligationBook } from "./obligations/obligations.js";
import { DetectionMemo } from "./pipeline/detection-memo.js";
import type { PipelineDeps } from "./pipeline/evaluate.js";
import { GuardMetrics } from "./metrics/guard-metrics.js";
import { observeDetector } from "./metrics/observe-detectors.js";
import { observeStore } from "./metrics/observe-store.js";
import { type MetricsServer, serveMetrics } from "./metrics/server.js";
import { PlaceholderRegistry } from "./placeholders/registry.js";
import { inProcessClient } from "./rpc/in-process.js";
import { serveRpc } from "./rpc/serve.js";
import { INTERNAL_SERVICES, internalRoutes } from "./rpc/serve-services.js";
import { MemorySessionState } from "./session/memory-state.js";
import { RedisSessionState } from "./session/redis-state.js";
import { createSessionService } from "./session/service.js";
import type { SessionState } from "./session/state.js";
import { createSessionTracker, type SessionTracker } from "./session/tracker.js";
import { EmbeddedStore } from "./store/embedded/embedded-store.js";
import { PostgresStore, type PostgresStoreLogger } from "./store/postgres/postgres-store.js";
import type { Store } from "./store/store.js";
import { PROVIDER, VERSION } from "./version.js";
import { Whitelist } from "./whitelist/whitelist.js";

export interface AppOptions {
  readonly config: GuardConfig;
  /** The file the configuration came from: keys, limits and policies reload when it changes. */
  readonly configPath?: string;
  readonly dataDir: string;
  readonly box: SecretBox;
  /** Deployment prefix such as `/guard`; empty for none. */
  readonly basePath?: string;
  readonly logger?: FastifyServerOptions["logger"];
  /** PostgreSQL connection string: many replicas share it. The embedded store otherwise. */
  readonly databaseUrl?: string;
  /**
   * Redis URL: rate limits exact across replicas, and the hot session state they share. In-process
   * counters and session state otherwise.
   */
  readonly redisUrl?: string;
  /** How long a scan obligation stays answerable (default one hour). */
  readonly obligationTtlMs?: number;
  /** Bytes of text the detection memo may hold (default 128 MiB); 0 turns it off. */
  readonly memoBytes?: number;
  /** How often whitelist changes made by other processes are picked up. */
  readonly whitelistRefreshMs?: number;
  /** Detectors consulted besides the built-in ones (remote ones, or test doubles). */
  readonly extraDetectors?: readonly DetectorHandle[];
  /** When set, the internal services are also served over HTTP/2 (gRPC, Connect) on this port. */
  readonly rpcPort?: number;
  readonly rpcHost?: string;
  readonly now?: () => number;
  /** Serve /metrics on this port instead of the bridge (GUARD_METRICS_PORT). */
  readonly metricsPort?: number;
  readonly metricsHost?: string;
  /** Where coverage alerts are POSTed (GUARD_ALERT_WEBHOOK_URL). */
  readonly alertWebhookUrl?: string;
  /** How often the coverage monitor checks heartbeats (default 10 s). */
  readonly coverageCheckMs?: number;
  /** Slow-client timeouts of the bridge (GUARD_REQUEST_TIMEOUT_MS); defaults in DEFAULT_BRIDGE_TIMEOUTS. */
  readonly timeouts?: Partial<BridgeTimeouts>;
}

export interface App {
  readonly bridge: FastifyInstance;
  readonly store: Store;
  readonly whitelist: Whitelist;
  readonly rpcPort?: number;
  /** The session tracker the pipeline attaches to, and its state: what the CLI queries. */
  readonly sessions: { readonly tracker: SessionTracker; readonly state: SessionState };
  readonly metrics: GuardMetrics;
  /** Port of the separate /metrics server, when one was asked for. */
  readonly metricsPort?: number;
  readonly coverage: CoverageMonitor;
  /** Stops accepting, answers what is in flight, then flushes every accepted record. */
  close(): Promise<void>;
}

function inProcessDetector(detector: Detector): DetectorHandle {
  return {
    name: detector.name,
    version: detector.version,
    categories: detector.categories,
    channels: detector.channels ?? [],
    client: inProcessClient(DetectorService, detectorServiceImpl(detector)),
  };
}

/** Wires the service together: store, registries, internal services, pipeline, bridge. */
export async function createApp(options: AppOptions): Promise<App> {
  const now = options.now ?? Date.now;
  // The store opens before the bridge that owns the structured log; its warnings (write failed,
  // batch kept for retry; agent placed provisionally) reach that log once it exists.
  let log: PostgresStoreLogger | undefined;
  const storeLog: PostgresStoreLogger = {
    warn: (fields, message) => log?.warn(fields, message),
    error: (fields, message) => log?.error(fields, message),
  };
  const store: Store = options.databaseUrl
    ? await PostgresStore.open(options.databaseUrl, { logger: storeLog })
    : EmbeddedStore.open(options.dataDir);
  const limiter: RateLimiter = options.redisUrl ? await RedisRateLimiter.open(options.redisUrl) : new InProcessRateLimiter();
  // Detectors in other processes: each must answer Describe with its configured categories
  // before the service starts, so a typo in a URL fails the start instead of every verdict.
  const remote = createRemoteDetectors(options.config.detectors);
  try {
    await Promise.all(remote.handles.map((handle) => describeRemote(handle)));
  } catch (error) {
    remote.close();
    await store.close();
    throw error;
  }
  // One tracker per process, over state the replicas share when Redis is configured: the two
  // halves of a step, or the requests of one conversation, may land on different replicas.
  const sessionState: SessionState = options.redisUrl
    ? await RedisSessionState.open(options.redisUrl)
    : new MemorySessionState();
  const tracker = createSessionTracker({ state: sessionState, clock: now });
  const sessionImpl = createSessionService({ tracker });
  const metrics = new GuardMetrics();
  metrics.observeStore(() => store.stats());
  const whitelist = new Whitelist(store);
  await whitelist.load();
  whitelist.startRefreshing(options.whitelistRefreshMs ?? 2000);
  // Internal services configured under `services:` are reached in another process (`guard
  // serve --services`), over HTTP/2 sessions of their own, each call under its deadline.
  const remoteServices = options.config.services ?? {};
  const servicePool = new SessionPool();
  const pipeline: PipelineDeps = {
    decompose: remoteServices.decompose
      ? createClient(
          DecomposeService,
          remoteTransport(remoteServices.decompose, servicePool, remoteServices.decompose.deadline_ms),
        )
      : inProcessClient(DecomposeService, decomposeServiceImpl),
    decomposeInProcess: !remoteServices.decompose,
    repeatedDigests: new RepeatedDigests(),
    sessions: remoteServices.session
      ? createClient(
          SessionService,
          remoteTransport(remoteServices.session, servicePool, remoteServices.session.deadline_ms),
        )
      : inProcessClient(SessionService, sessionImpl),
    detectors: [...builtinDetectors.map(inProcessDetector), ...remote.handles, ...(options.extraDetectors ?? [])].map(
      (handle) => observeDetector(handle, metrics),
    ),
    // Decisions, findings, latency and heartbeats are counted as they are recorded.
    store: observeStore(store, metrics),
    agents: new AgentDirectory(store),
    placeholders: new PlaceholderRegistry(options.box, store),
    box: options.box,
    isWhitelisted: (orgId, fp) => whitelist.has(orgId, fp),
    memo: new DetectionMemo(options.memoBytes),
    obligations: new ObligationBook(),
    obligationTtlMs: options.obligationTtlMs ?? 60 * 60_000,
    provider: PROVIDER,
  };
  const keyRing = new KeyRing(options.config);
  const bridge = buildBridge(
    {
      keyRing,
      limiter,
      pipeline,
      basePath: options.basePath ?? "",
      version: VERSION,
      startedAt: now(),
      mintEventId: monotonicUlid(),
      now,
    },
    options.logger ?? false,
    { metrics, metricsRoute: options.metricsPort === undefined },
    { ...DEFAULT_BRIDGE_TIMEOUTS, ...options.timeouts },
  );
  log = bridge.log;
  const coverage = new CoverageMonitor({
    sources: () => store.heartbeatSources(),
    logger: bridge.log,
    metrics,
    now,
    checkMs: options.coverageCheckMs ?? 10_000,
    ...(options.alertWebhookUrl ? { webhookUrl: options.alertWebhookUrl } : {}),
  });
  coverage.start();
  let metricsServer: MetricsServer | undefined;
  if (options.metricsPort !== undefined)
    metricsServer = await serveMetrics(metrics, options.metricsHost ?? "127.0.0.1", options.metricsPort);

  // A key revoked or added in the configuration holds from the next request, without a restart.
  const stopWatching = options.configPath
    ? watchConfig(
        options.configPath,
        (config) => {
          keyRing.replace(config);
          bridge.log.info({ orgs: config.orgs.length }, "configuration reloaded");
        },
        (error) => bridge.log.error({ err: error.message }, "configuration change refused; the previous one stays in force"),
      )
    : () => undefined;

  const rpc =
    options.rpcPort === undefined
      ? undefined
      : await serveRpc(internalRoutes(INTERNAL_SERVICES, sessionImpl), options.rpcHost ?? "127.0.0.1", options.rpcPort);

  return {
    bridge,
    store,
    ...(rpc ? { rpcPort: rpc.port } : {}),
    whitelist,
    sessions: { tracker, state: sessionState },
    metrics,
    ...(metricsServer ? { metricsPort: metricsServer.port } : {}),
    coverage,
    async close() {
      stopWatching();
      whitelist.stop();
      await coverage.stop();
      await bridge.close();
      await metricsServer?.close();
      await rpc?.close();
      await limiter.close?.();
      if (sessionState instanceof RedisSessionState) await sessionState.close();
      remote.close();
      servicePool.close();
      await store.close();
    },
  };
}
