import type { FastifyInstance } from "fastify";
import { CONTENT_TYPE } from "./exposition.js";
import type { GuardMetrics } from "./guard-metrics.js";

/**
 * Counts every answered request by its route pattern (not its URL: an unknown path is `unmatched`,
 * so a scanner cannot grow the label set) and status.
 */
export function countRequests(app: FastifyInstance, metrics: GuardMetrics): void {
  app.addHook("onResponse", async (request, reply) => {
    const route = request.routeOptions.url ?? "unmatched";
    metrics.requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    metrics.requestDuration.observe(reply.elapsedTime / 1000, { route });
  });
}

/**
 * GET /metrics on the bridge, without authentication: Prometheus scrapers carry no Guard key.
 * Operators keep it inside their network (or set GUARD_METRICS_PORT to serve it apart).
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: GuardMetrics): void {
  app.get("/metrics", async (_request, reply) => reply.type(CONTENT_TYPE).send(metrics.render()));
}
