import type { FastifyInstance } from "fastify";
import { openapiDocument, schemaDocuments } from "../../contract/schemas.js";
import { errors } from "../../errors/guard-error.js";
import type { BridgeContext } from "../context.js";

/**
 * The routes that need no key: runtime liveness (spec 4.3) and the published contract
 * (spec 9.3): the OpenAPI description and the JSON Schemas the bridge itself validates with.
 */
export function registerPublic(app: FastifyInstance, ctx: BridgeContext): void {
  app.get("/v1/health", async () => ({
    status: "ok",
    version: ctx.version,
    uptime_s: Math.round((ctx.now() - ctx.startedAt) / 1000),
  }));
  app.get("/openapi.json", async () => openapiDocument());
  app.get<{ Params: { file: string } }>("/schema/v1/:file", async (request) => {
    const name = request.params.file.replace(/\.json$/, "");
    const doc = schemaDocuments().get(name);
    if (!doc) throw errors.notFound(`/schema/v1/${request.params.file}`);
    return doc;
  });
}
