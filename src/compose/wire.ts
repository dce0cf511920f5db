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
}
