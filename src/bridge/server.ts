import { Code, ConnectError } from "@connectrpc/connect";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { errors, GuardError } from "../errors/guard-error.js";
import { registerAuthHooks } from "./auth-hooks.js";
import type { BridgeContext } from "./context.js";
import type { GuardMetrics } from "../metrics/guard-metrics.js";
import { countRequests, registerMetricsRoute } from "../metrics/http.js";
import { registerEvaluate } from "./routes/evaluate.js";
import { registerHeartbeat } from "./routes/heartbeat.js";
import { registerLimits } from "./routes/limits.js";
import { registerPublic } from "./routes/public.js";
import { withoutTrailingSlashes } from "../text/slashes.js";

/** Route paths below the prefix and the methods they answer, for 405 instead of 404. */
const ROUTES: Record<string, readonly string[]> = {
  "/v1/evaluate": ["POST"],
  "/v1/heartbeat": ["POST"],
  "/v1/health": ["GET", "HEAD"],
  "/v1/limits": ["GET", "HEAD"],
  "/openapi.json": ["GET", "HEAD"],
};

/** Hard ceiling on any body, above every organization's own limit (which the hooks apply). */
const BODY_CEILING = 256 * 1024 * 1024;

/**
 * Socket timeouts against slow clients (issue 9). `requestTimeout` bounds the whole request,
 * headers and body, from its first byte: a client trickling a byte a second is cut with a 408
 * and the connection closed. It must outlast the longest streamed `step/response` upload (spec
 * 4.1), whose body lasts as long as the model generates, hence minutes rather than seconds.
 * `idleTimeout` closes a socket silent in both directions; `keepAliveTimeout` an idle kept-alive
 * connection between requests. Every value is in milliseconds; 0 turns that timeout off.
 */
export interface BridgeTimeouts {
  readonly requestTimeoutMs: number;
  readonly idleTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
}

export const DEFAULT_BRIDGE_TIMEOUTS: BridgeTimeouts = {
  requestTimeoutMs: 300_000,
  idleTimeoutMs: 120_000,
  keepAliveTimeoutMs: 72_000,
};

/** Node checks request and header deadlines on an interval: a fraction of the deadline, within 50 ms and 30 s. */
function checkingIntervalMs(requestTimeoutMs: number): number {
  return requestTimeoutMs > 0 ? Math.min(30_000, Math.max(50, Math.floor(requestTimeoutMs / 4))) : 30_000;
}

/** Fastify's own failures mapped onto the specification's error bodies. */
function fromFastify(error: unknown): GuardError {
  if (error instanceof GuardError) return error;
  const code = (error as { code?: string }).code ?? "";
  const status = (error as { statusCode?: number }).statusCode ?? 500;
  if (code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return errors.unsupportedMediaType("");
  if (code === "FST_ERR_CTP_BODY_TOO_LARGE") return errors.payloadTooLarge(BODY_CEILING);
  if (status >= 400 && status < 500) return errors.invalidBody((error as Error).message);
  // An internal service that is out of reach (shared session state, a remote decomposer):
  // a runtime outage the caller answers with its fail mode (spec 7: 5xx, no body).
  if (error instanceof ConnectError && (error.code === Code.Unavailable || error.code === Code.DeadlineExceeded))
    return errors.unavailable(error.message, error);
  return GuardError.from(error);
}

/**
 * The HTTP bridge: the exact JSON endpoints of the specification, under an optional
 * deployment prefix. Every error, including unknown routes, answers JSON in the shape of
 * spec section 7; a 5xx carries no body.
 */
export function buildBridge(
  ctx: BridgeContext,
  logger: FastifyServerOptions["logger"] = false,
  observability?: { readonly metrics: GuardMetrics; readonly metricsRoute: boolean },
  timeouts: BridgeTimeouts = DEFAULT_BRIDGE_TIMEOUTS,
): FastifyInstance {
  const app = Fastify({
    logger,
    bodyLimit: BODY_CEILING,
    requestTimeout: timeouts.requestTimeoutMs,
    connectionTimeout: timeouts.idleTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    http: {
      connectionsCheckingInterval: checkingIntervalMs(timeouts.requestTimeoutMs),
      // Headers alone never get longer than the whole request (Node's default is 60 s).
      ...(timeouts.requestTimeoutMs > 0 ? { headersTimeout: Math.min(60_000, timeouts.requestTimeoutMs) } : {}),
    },
    // Bodies are parsed and validated by the bridge itself against openapi/schemas.
    routerOptions: { ignoreTrailingSlash: true },
  });

  if (observability) countRequests(app, observability.metrics);
  app.decorateRequest("principal", undefined);
  app.decorateRequest("receivedAt", undefined as unknown as Date);
  app.addHook("onRequest", async (request) => {
    request.receivedAt = new Date(ctx.now());
  });

  app.removeAllContentTypeParsers();
  // Raw bytes, kept: offsets index the body as sent, and the store keeps it verbatim.
  app.addContentTypeParser("application/json", { parseAs: "buffer", bodyLimit: BODY_CEILING }, (_req, body, done) =>
    done(null, body),
  );
  // The streamed transport (spec 4.1): the body is handed on as the live stream, unbuffered,
  // to the one route that reads SSE; every other route refuses it like any unknown type.
  app.addContentTypeParser("text/event-stream", (request, payload, done) => {
    if (request.routeOptions.url?.endsWith("/v1/evaluate")) done(null, payload);
    else done(errors.unsupportedMediaType(String(request.headers["content-type"] ?? "")), undefined);
  });
  app.addContentTypeParser("*", (request, _payload, done) =>
    done(errors.unsupportedMediaType(String(request.headers["content-type"] ?? "")), undefined),
  );

  app.setErrorHandler((thrown, request, reply) => {
    const error = fromFastify(thrown);
    if (error.status >= 500) {
      request.log.error({ err: thrown }, "request failed");
      return reply.code(error.status).send();
    }
    return reply.code(error.status).type("application/json").send(JSON.stringify(error.body()));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = withoutTrailingSlashes(request.url.split("?")[0] ?? "");
    // Outside the prefix nothing exists; inside it, a known path with another method is a 405.
    const local = !ctx.basePath ? path : path.startsWith(`${ctx.basePath}/`) ? path.slice(ctx.basePath.length) : undefined;
    const allowed =
      local === undefined ? undefined : (ROUTES[local] ?? (local.startsWith("/schema/v1/") ? ["GET", "HEAD"] : undefined));
    const error = allowed ? errors.methodNotAllowed(request.method, path, allowed) : errors.notFound(path || "/");
    if (allowed) void reply.header("allow", allowed.join(", "));
    return reply.code(error.status).type("application/json").send(JSON.stringify(error.body()));
  });

  app.register(
    async (scope) => {
      registerPublic(scope, ctx);
      // Unauthenticated, like /v1/health: operators keep it inside their network (see `guard help`).
      if (observability?.metricsRoute) registerMetricsRoute(scope, observability.metrics);
      await scope.register(async (authed) => {
        registerAuthHooks(authed, ctx);
        registerEvaluate(authed, ctx);
        registerHeartbeat(authed, ctx);
        registerLimits(authed);
      });
    },
    { prefix: ctx.basePath },
  );
  return app;
}
