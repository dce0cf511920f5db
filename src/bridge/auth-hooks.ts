import type { FastifyInstance, FastifyRequest } from "fastify";
import { errors } from "../errors/guard-error.js";
import { byteLimit } from "./byte-limit.js";
import type { BridgeContext } from "./context.js";

/** The principal set by the auth hook; routes behind it can rely on it. */
export function principalOf(request: FastifyRequest) {
  const principal = request.principal;
  if (!principal) throw errors.unauthorized("not authenticated");
  return principal;
}

/**
 * The fixed order of checks before any handler runs (spec 5, 7, 8): authenticate the key
 * (401/402), spend the rate budget (429), refuse a declared length over the organization's
 * limit before reading a byte (413), then count the bytes actually read when no length was
 * declared (413 again for a chunked upload).
 */
export function registerAuthHooks(app: FastifyInstance, ctx: BridgeContext): void {
  app.addHook("onRequest", async (request) => {
    const auth = ctx.keyRing.authenticate(request.headers.authorization, ctx.now());
    if (!auth.ok) throw auth.error;
    const { org, key } = auth.principal;
    const exhausted = await ctx.limiter.take(org.id, key.id, org.limits.rate_per_minute, org.limits.org_rate_per_minute, ctx.now());
    if (exhausted === "key") throw errors.rateLimited(org.limits.rate_per_minute, "key");
    if (exhausted === "org") throw errors.rateLimited(org.limits.org_rate_per_minute, "org");
    const declared = request.headers["content-length"];
    if (declared !== undefined && Number(declared) > org.limits.max_request_bytes)
      throw errors.payloadTooLarge(org.limits.max_request_bytes);
    request.principal = auth.principal;
  });
  app.addHook("preParsing", async (request, _reply, payload) => {
    const limit = principalOf(request).org.limits.max_request_bytes;
    // A declared length was checked above, and Node's parser never reads past it, so only a
    // body without one (chunked) needs its bytes counted (issue 9: a stream less per request).
    if (request.headers["content-length"] !== undefined && request.headers["transfer-encoding"] === undefined)
      return payload;
    return payload.pipe(byteLimit(limit));
  });
}
