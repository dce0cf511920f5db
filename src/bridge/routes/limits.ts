import type { FastifyInstance } from "fastify";
import { principalOf } from "../auth-hooks.js";
import { limitsView } from "../limits-view.js";

/** GET /v1/limits: the tenant budget an integration reads at startup (spec 4.4). */
export function registerLimits(app: FastifyInstance): void {
  app.get("/v1/limits", async (request) => ({ limits: limitsView(principalOf(request).org.limits) }));
}
