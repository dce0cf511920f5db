import type { LlmProtocol } from "./verdict.js";

/**
 * What the guarded fetch must know about one provider's wire format, and nothing more: the
 * recipe itself (shared/guarded-fetch.ts) is the same for every provider.
 */
export interface Dialect {
  readonly protocol: LlmProtocol;
  /** True for the endpoint that is a model call (other SDK requests pass through unjudged). */
  isModelCall(url: URL): boolean;
  /** A streamed reply's SSE frames folded into the provider's non-streamed body. */
  reassemble(sse: string): Record<string, unknown>;
  /** A whole body written as the provider's SSE frames, `chunk` code points per delta. */
  toSse(body: Record<string, unknown>, chunk?: number): string;
  /** A plain text reply in the provider's shape, for refusals Guard did not render. */
  textReply(text: string, model: string): Record<string, unknown>;
}
