import type { StreamProtocol } from "../../stream/index.js";

/**
 * The last line of a `?payload=true` stream (spec 4.1): an SSE comment, so a client that only
 * renders events ignores it, carrying the verdict as a JSON object. `decision` is what the
 * stream did: on a missing verdict it is the caller's fail mode, flagged `unjudged: true`.
 */
export interface VerdictLine {
  readonly decision: "allow" | "block";
  readonly step_id: string;
  readonly event_id: string;
  readonly llm_protocol: StreamProtocol;
  readonly unjudged?: true;
  /** Why the stream ended without a judged outcome (e.g. `payload_too_large`). */
  readonly error?: string;
  /** Redaction spans that could not be applied to the held frames (the tail was withheld). */
  readonly unresolved_spans?: number;
}

export function verdictLine(line: VerdictLine): string {
  return `: ${JSON.stringify(line)}\n\n`;
}

/**
 * A frame's raw text, ended by a blank line. The parser dispatches a last frame that the
 * provider sent without one; released as it came, it would run into the next line written
 * (a keepalive, the verdict), so the missing line endings are supplied.
 */
export function terminated(raw: string): string {
  if (/(\r\n|\r|\n)(\r\n|\r|\n)$/.test(raw)) return raw;
  return /(\r\n|\r|\n)$/.test(raw) ? `${raw}\n` : `${raw}\n\n`;
}
