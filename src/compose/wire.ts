import type { WireObligation } from "../obligations/obligations.js";

/** The JSON shapes of the Verdict's parts (spec 2.3 to 2.7), as the bridge writes them. */

export interface WireFinding {
  category: string;
  severity: "low" | "medium" | "high" | "critical";
  path: string;
  start?: number;
  end?: number;
  score: number;
  detector: string;
  fp: string;
  whitelisted?: boolean;
  subject: string;
}

export interface WireSpan {
  path: string;
  start: number;
  end: number;
  replacement: string;
}

/** A span still to be given its placeholder: the composer decides, the registry names. */
export interface Redaction {
  readonly path: string;
  readonly start: number;
  readonly end: number;
  /** Placeholder kind (`EMAIL`, `AWS_KEY`, ...). */
  readonly kind: string;
  /** The redacted text itself (sealed before it is stored). */
  readonly value: string;
}

export interface WireContinuation {
  style: "drop_calls" | "withhold" | "answer";
  paths: string[];
  notice: string;
}

export interface Composition {
  decision: "allow" | "block";
  findings: WireFinding[];
  spans: WireSpan[];
  unjudged: string[];
  continuation?: WireContinuation;
  obligations?: WireObligation[];
}
