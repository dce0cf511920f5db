import { hash } from "node:crypto";
import { type Client, createContextValues } from "@connectrpc/connect";
import type { DecomposeResponse, DecomposeService } from "../../gen/guard/v1/decompose_pb.js";
import type { SessionService } from "../../gen/guard/v1/session_pb.js";
import { EventKind } from "../../gen/guard/v1/types_pb.js";
import type { Principal } from "../auth/key-ring.js";
import { compose } from "../compose/compose.js";
import { fingerprintsOf } from "../compose/fingerprints.js";
import type { Composition } from "../compose/wire.js";
import type { SecretBox } from "../crypto/secret-box.js";
import type { RepeatedDigests } from "../decompose/repeated-digests.js";
import { GuardError } from "../errors/guard-error.js";
import { type AgentDirectory, type Placement, placeEvent } from "../identity/placement.js";
import { type ObligationBook, obligationsFor, parseResults } from "../obligations/obligations.js";
import type { PlaceholderRegistry } from "../placeholders/registry.js";
import { selectPolicy } from "../policy/from-config.js";
import { DEFAULT_POLICY } from "../policy/policy.js";
import { digesterKey, parsedPayloadKey } from "../rpc/context.js";
import type { EventRecord } from "../store/records.js";
import type { Store } from "../store/store.js";
import { type DetectorHandle, detectAll } from "./detect.js";
import type { DetectionMemo } from "./detection-memo.js";
import { EVENT_KINDS, type GuardEvent, PROTOCOLS } from "./event.js";
import { judgeMedia } from "./media.js";

/** Everything one evaluation needs, built once at start (src/app.ts). */
export interface PipelineDeps {
  readonly decompose: Client<typeof DecomposeService>;
  /** True when the DecomposeService runs in this process: it then gets the parsed body. */
  readonly decomposeInProcess: boolean;
  /** Each agent's last conversation digests, for an in-process DecomposeService to recall. */
  readonly repeatedDigests: RepeatedDigests;
  readonly sessions: Client<typeof SessionService>;
  readonly detectors: readonly DetectorHandle[];
  readonly store: Store;
  readonly agents: AgentDirectory;
  readonly placeholders: PlaceholderRegistry;
  readonly box: SecretBox;
  readonly isWhitelisted: (orgId: string, fp: string) => boolean;
  /** Scan obligations issued and not yet settled. */
  readonly obligations: ObligationBook;
  /** How long an obligation stays answerable. */
  readonly obligationTtlMs: number;
  /** Detection results per organization and text: each repeated text is judged once. */
  readonly memo: DetectionMemo;
  /** The Verdict's `provider`. */
  readonly provider: string;
}

export interface EvaluateInput {
  readonly principal: Principal;
  readonly event: GuardEvent;
  /** The body exactly as transported. */
  readonly raw: Buffer;
  readonly eventId: string;
  readonly receivedAt: Date;
}

/** The verdict's evaluated parts; the bridge adds timing and serialises. */
export interface Evaluation extends Composition {
  readonly eventId: string;
  readonly provider: string;
  readonly latencyMs: number;
  /** The agent the event was placed as (its placeholder registry restores responses). */
  readonly orgId: string;
  readonly agentId: string;
  readonly streamRequested: boolean;
}

/**
 * One evaluate, top to bottom: place the event, take the body apart, attach it to its
 * session, consult the detectors, compose the verdict, record everything. Recording is
 * queued (write-behind), so the decision path never waits on a disk.
 */
export async function evaluate(deps: PipelineDeps, input: EvaluateInput): Promise<Evaluation> {
  const started = performance.now();
  const { principal, event } = input;
  const org = principal.org;
  const kind = EVENT_KINDS[event.kind];
  const receivedAt = input.receivedAt.toISOString();

  const placement = await place(deps, input, receivedAt);
  const decomposition = await decomposeEvent(deps, event, kind, org.id, placement.agentId);
  const session = await deps.sessions.attach({
    orgId: org.id,
    agentId: placement.agentId,
    agentType: event.agent_type,
    agentUser: event.agent_user,
    kind,
    stepId: event.step_id,
    sessionHint: event.session_hint ?? "",
    connection: event.connection ?? "",
    conversation: decomposition.conversation,
    finishReason: decomposition.finishReason,
    eventId: input.eventId,
  });
  const detected = await detectAll(deps.detectors, kind, decomposition.segments, org.detector_deadline_ms, {
    memo: deps.memo,
    orgId: org.id,
    sessionId: session.sessionId,
    conversation: decomposition.conversation,
  });
  const media = judgeMedia(decomposition.media, org.limits);
  const now = Date.parse(receivedAt);
  // What earlier obligations cost: malicious results, and scans never reported in time.
  const settled = deps.obligations.settle(
    org.id,
    placement.agentId,
    parseResults(input.event.obligation_results),
    now,
  );

  const fingerprints = fingerprintsOf(deps.box);
  const composed = compose({
    kind,
    segments: decomposition.segments,
    toolCalls: decomposition.toolCalls,
    findings: [...settled, ...detected.findings],
    unjudged: [...decomposition.unjudged, ...detected.unjudged, ...media.unjudged],
    policy: selectPolicy(org.policies, DEFAULT_POLICY, placement.agentId, placement.workspace),
    fingerprint: (category, subject) => fingerprints.of(org.id, category, subject),
    isWhitelisted: (fp) => deps.isWhitelisted(org.id, fp),
    silent: detected.failed,
    failModes: org.fail_modes,
  });
  const composition = composed.composition;
  if (composition.decision === "allow" && kind === EventKind.STEP_RESPONSE) {
    const obligations = obligationsFor(event.step_id, decomposition.toolCalls, now, deps.obligationTtlMs);
    if (obligations.length > 0) {
      composition.obligations = obligations;
      deps.obligations.issue(org.id, placement.agentId, obligations);
    }
  }
  composition.spans = await Promise.all(
    composed.redactions.map(async (r) => ({
      path: r.path,
      start: r.start,
      end: r.end,
      replacement: await deps.placeholders.placeholderFor(org.id, placement.agentId, r.kind, r.value),
    })),
  );
  const concluded = await deps.sessions.conclude({
    orgId: org.id,
    sessionId: session.sessionId,
    stepId: event.step_id,
    kind,
    decision: composition.decision,
  });
  const latencyMs = performance.now() - started;

  const record: EventRecord = {
    event_id: input.eventId,
    received_at: receivedAt,
    org_id: org.id,
    key_id: principal.key.id,
    kind: event.kind,
    step_id: event.step_id,
    agent_id: placement.agentId,
    agent_id_derived: placement.derived,
    agent_type: event.agent_type,
    agent_user: event.agent_user,
    workspace: placement.workspace,
    llm_protocol: event.llm_protocol,
    ...(event.integration !== undefined ? { integration: event.integration } : {}),
    ...(event.connection !== undefined ? { connection: event.connection } : {}),
    ...(event.session_hint !== undefined ? { session_hint: event.session_hint } : {}),
    payload_sha256: hash("sha256", input.raw, "hex"),
    payload_bytes: input.raw.length,
    session: {
      session_id: session.sessionId,
      turn_id: session.turnId,
      turn_index: session.turnIndex,
      step_index: session.stepIndex,
      attach_method: session.attachMethod,
      paired: session.paired,
      signals: session.signals,
      turn_closed: concluded.turnClosed,
      protocol_detected: decomposition.protocolMismatch ? decomposition.protocol : undefined,
      finish_reason: decomposition.finishReason || undefined,
      media_declined: media.declined.length > 0 ? media.declined : undefined,
      detectors_failed: detected.failed.length > 0 ? detected.failed.map((d) => d.name) : undefined,
    },
    verdict: { ...composition, latency_ms: latencyMs },
  };
  await deps.store.recordEvent(record, input.raw);
  return {
    ...composition,
    eventId: input.eventId,
    provider: deps.provider,
    latencyMs,
    orgId: org.id,
    agentId: placement.agentId,
    streamRequested: decomposition.streamRequested,
  };
}

/**
 * Takes the payload apart. In process the parsed body rides in a context value (only a remote
 * service needs bytes), and so does a request's digester: the messages its agent's last request
 * already had are not hashed again. Only a request becomes its agent's last conversation.
 */
async function decomposeEvent(
  deps: PipelineDeps,
  event: GuardEvent,
  kind: EventKind,
  orgId: string,
  agentId: string,
): Promise<DecomposeResponse> {
  const request = {
    kind,
    llmProtocol: PROTOCOLS[event.llm_protocol],
    payloadJson: deps.decomposeInProcess ? new Uint8Array() : Buffer.from(JSON.stringify(event.payload)),
  };
  if (!deps.decomposeInProcess) return deps.decompose.decompose(request);
  const digester = kind === EventKind.STEP_REQUEST ? deps.repeatedDigests.forRequest(orgId, agentId) : undefined;
  const decomposition = await deps.decompose.decompose(request, {
    contextValues: createContextValues().set(parsedPayloadKey, event.payload).set(digesterKey, digester),
  });
  digester?.keep();
  return decomposition;
}

/** Places the event (spec 5.3 to 5.5); an identity refusal is audited before it is answered. */
async function place(deps: PipelineDeps, input: EvaluateInput, now: string): Promise<Placement> {
  const { principal, event } = input;
  try {
    const placement = placeEvent(
      principal.org,
      principal.key,
      event,
      (agentId) => deps.agents.get(principal.org.id, agentId),
      now,
    );
    if (!placement.newAgent) return placement;
    const held = await deps.agents.claim(placement.newAgent);
    return { agentId: placement.agentId, derived: placement.derived, workspace: held.workspace };
  } catch (error) {
    if (error instanceof GuardError && error.code === "identity_refused") {
      void deps.store.recordAudit({
        at: now,
        org_id: principal.org.id,
        key_id: principal.key.id,
        action: "identity_refused",
        field: String(error.fields["field"]),
        asserted: String(event[error.fields["field"] as "agent_id" | "agent_workspace"]),
        expected: String(error.fields["expected"]),
      });
    }
    throw error;
  }
}
