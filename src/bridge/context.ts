import type { Principal } from "../auth/key-ring.js";
import type { KeyRing } from "../auth/key-ring.js";
import type { RateLimiter } from "../limits/rate-limiter.js";
import type { PipelineDeps } from "../pipeline/evaluate.js";

/** What the bridge needs from the rest of the service; built by src/app.ts. */
export interface BridgeContext {
  readonly keyRing: KeyRing;
  readonly limiter: RateLimiter;
  readonly pipeline: PipelineDeps;
  /** Deployment prefix, e.g. `/guard`; empty for none. */
  readonly basePath: string;
  readonly version: string;
  readonly startedAt: number;
  /** Monotonic, time-ordered event ids (DESIGN.md decision 6). */
  readonly mintEventId: () => string;
  readonly now: () => number;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The organization and key the bearer key proved; set by the auth hook. */
    principal?: Principal;
    /** Wall-clock instant the request arrived (the Verdict's `timing.received_at`). */
    receivedAt: Date;
  }
}
