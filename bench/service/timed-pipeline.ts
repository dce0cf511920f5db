import { DecomposeService } from "../../gen/guard/v1/decompose_pb.js";
import { DetectorService } from "../../gen/guard/v1/detector_pb.js";
import { SessionService } from "../../gen/guard/v1/session_pb.js";
import { KeyRing, type Principal } from "../../src/auth/key-ring.js";
import { parseJsonBody } from "../../src/bridge/json-body.js";
import { verdictBody } from "../../src/bridge/verdict-body.js";
import { validateEvent } from "../../src/contract/validate.js";
import type { SecretBox } from "../../src/crypto/secret-box.js";
import { RepeatedDigests } from "../../src/decompose/repeated-digests.js";
import { decomposeServiceImpl } from "../../src/decompose/service.js";
import { builtinDetectors } from "../../src/detectors/registry.js";
import { detectorServiceImpl } from "../../src/detectors/service.js";
import { monotonicUlid } from "../../src/identity/event-id.js";
import { AgentDirectory } from "../../src/identity/placement.js";
import { ObligationBook } from "../../src/obligations/obligations.js";
import { evaluate, type PipelineDeps } from "../../src/pipeline/evaluate.js";
import { DetectionMemo } from "../../src/pipeline/detection-memo.js";
import type { GuardEvent } from "../../src/pipeline/event.js";
import { PlaceholderRegistry } from "../../src/placeholders/registry.js";
import { inProcessClient } from "../../src/rpc/in-process.js";
import { createSessionService } from "../../src/session/service.js";
import { EmbeddedStore } from "../../src/store/embedded/embedded-store.js";
import { PROVIDER } from "../../src/version.js";
import { Whitelist } from "../../src/whitelist/whitelist.js";
import { BENCH_KEY, benchConfig } from "./config.js";
import { timed } from "./timed-client.js";

/**
 * The evaluate pipeline wired exactly as src/app.ts wires it (same services, same in-process
 * transport, same store), except that each dependency reports when it is entered and when it
 * settles. One evaluation is then cut into contiguous stages between those instants, so the
 * stages add up to the whole evaluate; parse, validate and serialise are the bridge's own
 * functions, timed around the calls. Evaluations run one at a time, so the instants are not
 * blurred by other work. Wrappers cost two `performance.now()` calls per dependency call.
 */

export const STAGES = [
  "parse",
  "validate",
  "place",
  "decompose",
  "session",
  "detect",
  "compose",
  "record",
  "serialize",
] as const;
export type Stage = (typeof STAGES)[number];

export interface StageTimes {
  readonly stages: Record<Stage, number>;
  /** Synchronous time of each detector's DetectorService call (the part of `detect` it owns). */
  readonly detectors: Record<string, number>;
  readonly total: number;
}

interface Marks {
  decomposeStart: number;
  attachStart: number;
  attachEnd: number;
  detectEnd: number;
  concludeStart: number;
  concludeEnd: number;
  detectors: Record<string, number>;
}

const now = () => performance.now();

function freshMarks(): Marks {
  return {
    decomposeStart: 0,
    attachStart: 0,
    attachEnd: 0,
    detectEnd: 0,
    concludeStart: 0,
    concludeEnd: 0,
    detectors: {},
  };
}

export class TimedPipeline {
  #marks: Marks = freshMarks();
  readonly #mintEventId = monotonicUlid();

  private constructor(
    readonly deps: PipelineDeps,
    readonly principal: Principal,
    readonly store: EmbeddedStore,
  ) {}

  /** `memoBytes` 0 turns the detection memo off: every text is judged as if never seen. */
  static async open(dataDir: string, box: SecretBox, memoBytes?: number): Promise<TimedPipeline> {
    const auth = new KeyRing(benchConfig()).authenticate(`Bearer ${BENCH_KEY}`, Date.now());
    if (!auth.ok) throw new Error("the bench key does not authenticate");
    const store = EmbeddedStore.open(dataDir);
    const whitelist = new Whitelist(store);
    await whitelist.load();
    let pipeline: TimedPipeline | undefined;
    const m = () => {
      if (!pipeline) throw new Error("timed pipeline used before it was built");
      return pipeline.#marks;
    };
    const endDetect = () => {
      const marks = m();
      marks.detectEnd = Math.max(marks.detectEnd, now());
    };
    const deps: PipelineDeps = {
      decompose: timed(inProcessClient(DecomposeService, decomposeServiceImpl), {
        decompose: { before: () => (m().decomposeStart = now()) },
      }),
      decomposeInProcess: true,
      repeatedDigests: new RepeatedDigests(),
      sessions: timed(inProcessClient(SessionService, createSessionService({})), {
        attach: { before: () => (m().attachStart = now()), settled: () => (m().attachEnd = now()) },
        conclude: { before: () => (m().concludeStart = now()), settled: () => (m().concludeEnd = now()) },
      }),
      detectors: builtinDetectors.map((d) => ({
        name: d.name,
        version: d.version,
        categories: d.categories,
        channels: d.channels ?? [],
        client: timed(inProcessClient(DetectorService, detectorServiceImpl(d)), {
          detect: {
            before: now,
            // In process the handler runs inside the call: this is the detector's own work.
            returned: (started) => {
              const marks = m();
              marks.detectors[d.name] = (marks.detectors[d.name] ?? 0) + (now() - started);
            },
            settled: () => endDetect(),
          },
        }),
      })),
      // Memo calls happen inside detection: with every text recalled no detector runs at all,
      // and detection then ends with the last memo call.
      memo: timed(new DetectionMemo(memoBytes), {
        key: { before: now, settled: () => endDetect() },
        recall: { before: now, settled: () => endDetect() },
        remember: { before: now, settled: () => endDetect() },
      }),
      store,
      agents: new AgentDirectory(store),
      placeholders: new PlaceholderRegistry(box, store),
      box,
      isWhitelisted: (orgId, fp) => whitelist.has(orgId, fp),
      provider: PROVIDER,
      obligations: new ObligationBook(),
      obligationTtlMs: 60 * 60_000,
    };
    pipeline = new TimedPipeline(deps, auth.principal, store);
    return pipeline;
  }

  /** One evaluation of a raw GuardEvent body, as the bridge's route does it, cut into stages. */
  async evaluate(raw: Buffer): Promise<StageTimes> {
    const t0 = now();
    const parsed = parseJsonBody(raw);
    const t1 = now();
    if (!parsed.ok) throw new Error(parsed.message);
    const checked = validateEvent(parsed.value);
    const t2 = now();
    if (!checked.ok) throw new Error(`invalid event: ${JSON.stringify(checked.details).slice(0, 300)}`);
    this.#marks = freshMarks();
    const receivedAt = new Date();
    const e0 = now();
    const evaluation = await evaluate(this.deps, {
      principal: this.principal,
      event: parsed.value as GuardEvent,
      raw,
      eventId: this.#mintEventId(),
      receivedAt,
    });
    const e1 = now();
    JSON.stringify(verdictBody(evaluation, receivedAt));
    const t3 = now();
    const k = this.#marks;
    // A request with nothing to judge calls no detector: detection then ends where attach did.
    const detectEnd = k.detectEnd || k.attachEnd;
    return {
      stages: {
        parse: t1 - t0,
        validate: t2 - t1,
        place: k.decomposeStart - e0,
        decompose: k.attachStart - k.decomposeStart,
        session: k.attachEnd - k.attachStart + (k.concludeEnd - k.concludeStart),
        detect: detectEnd - k.attachEnd,
        compose: k.concludeStart - detectEnd,
        record: e1 - k.concludeEnd,
        serialize: t3 - e1,
      },
      detectors: k.detectors,
      total: t3 - t0,
    };
  }

  async close(): Promise<void> {
    await this.store.close();
  }
}
