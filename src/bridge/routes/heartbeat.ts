import type { FastifyInstance } from "fastify";
import { validateHeartbeat } from "../../contract/validate.js";
import { errors } from "../../errors/guard-error.js";
import { principalOf } from "../auth-hooks.js";
import type { BridgeContext } from "../context.js";
import { parseJsonBody } from "../json-body.js";
import { limitsView } from "../limits-view.js";

interface HeartbeatBody {
  integration?: string;
  agent_id?: string;
  interval_s?: number;
  counters?: Record<string, number>;
}

/** POST /v1/heartbeat: integration liveness, answered with the current limits (spec 4.2). */
export function registerHeartbeat(app: FastifyInstance, ctx: BridgeContext): void {
  app.post("/v1/heartbeat", async (request, reply) => {
    const principal = principalOf(request);
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const parsed = parseJsonBody(raw);
    if (!parsed.ok) throw errors.invalidBody(parsed.message);
    const checked = validateHeartbeat(parsed.value);
    if (!checked.ok) throw errors.invalidBody("heartbeat failed validation", checked.details);
    const beat = parsed.value as HeartbeatBody;
    await ctx.pipeline.store.recordHeartbeat({
      at: request.receivedAt.toISOString(),
      org_id: principal.org.id,
      key_id: principal.key.id,
      ...(beat.integration !== undefined ? { integration: beat.integration } : {}),
      ...(beat.agent_id !== undefined ? { agent_id: beat.agent_id } : {}),
      ...(beat.interval_s !== undefined ? { interval_s: beat.interval_s } : {}),
      ...(beat.counters !== undefined ? { counters: beat.counters } : {}),
    });
    return reply.send({ ok: true, limits: limitsView(principal.org.limits) });
  });
}
