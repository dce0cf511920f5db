import { createHash } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import {
  Channel,
  type Finding,
  FindingSchema,
  Severity,
  type ToolCall,
} from "../../gen/guard/v1/types_pb.js";
import { type Artifact, artifactsOf } from "./artifacts.js";

/** Spec 2.6, as written on the wire. */
export interface WireObligation {
  id: string;
  type: "scan_artifact";
  call_id: string;
  artifact: { kind: Artifact["kind"]; locator: string; declared_type?: string };
  on_unfulfilled: "flag" | "block";
  expires_at: string;
}

/** One reported result (DESIGN.md decision 8). */
export interface ObligationResult {
  readonly id: string;
  readonly status: "clean" | "malicious" | "error";
  readonly detail?: string;
}

export const MAX_OBLIGATIONS = 64;
const MAX_ID = 256;

/**
 * The scan obligations of a response's tool calls: one per artifact a call would bring in.
 * Ids hash the step, the call and the artifact, so a re-delivered event re-mints the same
 * ids and a duplicate fulfilment is idempotent. Packages and executables are blocking when
 * unanswered; URLs only flag.
 */
export function obligationsFor(
  stepId: string,
  calls: readonly ToolCall[],
  now: number,
  ttlMs: number,
): WireObligation[] {
  const obligations: WireObligation[] = [];
  for (const call of calls) {
    if (call.id.length === 0 || call.id.length > MAX_ID) continue;
    for (const artifact of artifactsOf(call.name, call.argumentsJson)) {
      if (obligations.length >= MAX_OBLIGATIONS) return obligations;
      const id = `ob_${createHash("sha256").update(`${stepId}\0${call.id}\0${artifact.kind}\0${artifact.locator}`).digest("hex").slice(0, 32)}`;
      const blocking =
        artifact.kind === "package" || (artifact.kind === "file" && artifact.declaredType !== undefined);
      obligations.push({
        id,
        type: "scan_artifact",
        call_id: call.id,
        artifact: {
          kind: artifact.kind,
          locator: artifact.locator,
          ...(artifact.declaredType ? { declared_type: artifact.declaredType } : {}),
        },
        on_unfulfilled: blocking ? "block" : "flag",
        expires_at: new Date(now + ttlMs).toISOString(),
      });
    }
  }
  return obligations;
}

/** Reads `obligation_results` leniently: malformed items are skipped, never an error. */
export function parseResults(raw: unknown): ObligationResult[] {
  if (!Array.isArray(raw)) return [];
  const results: ObligationResult[] = [];
  for (const item of raw.slice(0, 256)) {
    if (typeof item !== "object" || item === null) continue;
    const { id, status, detail } = item as Record<string, unknown>;
    if (typeof id !== "string" || (status !== "clean" && status !== "malicious" && status !== "error"))
      continue;
    results.push({ id, status, ...(typeof detail === "string" ? { detail: detail.slice(0, 512) } : {}) });
  }
  return results;
}

function finding(category: string, severity: Severity, obligation: WireObligation, reason: string): Finding {
  return create(FindingSchema, {
    category,
    severity,
    path: "payload",
    score: 1,
    detector: "obligations",
    subject: obligation.artifact.locator,
    reason,
    channel: Channel.UNSPECIFIED,
    callId: obligation.call_id,
  });
}

/**
 * Outstanding obligations per agent, in this process. A result settles its obligation; a
 * `malicious` result, or an obligation still unanswered at `expires_at`, becomes a finding
 * on the agent's next event (DESIGN.md decision 8): `security.malicious_artifact`, or
 * `security.unverified_artifact` (high when it was to block, low when only to flag).
 */
export class ObligationBook {
  /** Per agent, by obligation id: the obligation and its expiry in epoch ms (parsed once, not per event). */
  readonly #open = new Map<
    string,
    Map<string, { readonly obligation: WireObligation; readonly expiresAt: number }>
  >();

  constructor(private readonly maxPerAgent = 1024) {}

  issue(orgId: string, agentId: string, obligations: readonly WireObligation[]): void {
    if (obligations.length === 0) return;
    const key = `${orgId}\0${agentId}`;
    let open = this.#open.get(key);
    if (!open) {
      open = new Map();
      this.#open.set(key, open);
    }
    for (const obligation of obligations) {
      if (open.size >= this.maxPerAgent) open.delete(open.keys().next().value as string);
      open.set(obligation.id, { obligation, expiresAt: Date.parse(obligation.expires_at) });
    }
  }

  /** Applies results and expiries for the agent's event at `now`; returns the findings they cost. */
  settle(orgId: string, agentId: string, results: readonly ObligationResult[], now: number): Finding[] {
    const open = this.#open.get(`${orgId}\0${agentId}`);
    if (!open) return [];
    const findings: Finding[] = [];
    for (const result of results) {
      const obligation = open.get(result.id)?.obligation;
      if (!obligation) continue;
      open.delete(result.id);
      if (result.status === "malicious")
        findings.push(
          finding(
            "security.malicious_artifact",
            Severity.CRITICAL,
            obligation,
            "a scanned artifact was reported malicious",
          ),
        );
    }
    for (const [id, { obligation, expiresAt }] of open) {
      if (expiresAt > now) continue;
      open.delete(id);
      const blocking = obligation.on_unfulfilled === "block";
      findings.push(
        finding(
          "security.unverified_artifact",
          blocking ? Severity.HIGH : Severity.LOW,
          obligation,
          "an artifact was never reported scanned",
        ),
      );
    }
    return findings;
  }
}
