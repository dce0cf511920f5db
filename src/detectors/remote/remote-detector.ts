import { type Client, createClient } from "@connectrpc/connect";
import { type DescribeResponse, DetectorService } from "../../../gen/guard/v1/detector_pb.js";
import type { DetectorHandle } from "../../pipeline/detect.js";
import { categoryMatches } from "../../policy/policy.js";
import type { RemoteDetectorConfig } from "./config.js";
import { checkDetectResponse } from "./contract.js";
import { SessionPool } from "./sessions.js";
import { remoteTransport } from "./transport.js";

/** A remote detector ready for the pipeline, and how to let go of its connection. */
export interface RemoteDetector {
  readonly handle: DetectorHandle;
  /** Aborts the HTTP/2 session this detector opened; with a shared pool, the pool's owner closes it instead. */
  close(): void;
}

/**
 * Wraps the network client so every Detect runs under the detector's configured deadline
 * (not the caller's: a remote detector's budget includes the network and is set per
 * detector) and its answer is held to the contract. Any failure, timeout or contract breach
 * is a rejection, which the pipeline turns into `unjudged` under the fail modes.
 */
function deadlineClient(
  config: RemoteDetectorConfig,
  inner: Client<typeof DetectorService>,
): Client<typeof DetectorService> {
  return {
    describe: (request, options) => inner.describe(request, options),
    async detect(request, options) {
      const response = await inner.detect(request, { ...options, timeoutMs: config.deadline_ms });
      return checkDetectResponse(config, request.segments ?? [], response);
    },
  };
}

/**
 * Creates the handle for one configured remote detector. Pass `sessions` to share HTTP/2
 * sessions with other detectors at the same origin (the pool's owner then closes it);
 * without it the detector gets its own pool, which `close()` aborts.
 */
export function createRemoteDetector(config: RemoteDetectorConfig, sessions?: SessionPool): RemoteDetector {
  const pool = sessions ?? new SessionPool();
  const inner = createClient(DetectorService, remoteTransport(config, pool));
  return {
    handle: {
      name: config.name,
      version: "remote",
      categories: config.categories,
      channels: config.channels,
      client: deadlineClient(config, inner),
    },
    close() {
      if (!sessions) pool.close();
    },
  };
}

/** Handles for every configured remote detector over one session pool, closed together. */
export function createRemoteDetectors(configs: readonly RemoteDetectorConfig[]): {
  handles: DetectorHandle[];
  close(): void;
} {
  const pool = new SessionPool();
  const handles = configs.map((config) => createRemoteDetector(config, pool).handle);
  return { handles, close: () => pool.close() };
}

/**
 * Calls Describe once, at start, and checks that the detector reports nothing outside the
 * categories configured for it: those decide its fail mode when it is silent, so a category
 * they miss would fail open where the operator asked for closed. Rejects when the detector
 * is unreachable or disagrees; resolves with what it said (name and version, for logs).
 */
export async function describeRemote(handle: DetectorHandle, timeoutMs = 5000): Promise<DescribeResponse> {
  let described: DescribeResponse;
  try {
    described = await handle.client.describe({}, { timeoutMs });
  } catch (error) {
    throw new Error(`remote detector ${handle.name} did not answer Describe: ${(error as Error).message}`);
  }
  const uncovered = described.categories.filter(
    (reported) => !handle.categories.some((configured) => covers(configured, reported)),
  );
  if (uncovered.length > 0)
    throw new Error(
      `remote detector ${handle.name} may report ${uncovered.join(", ")}, outside its configured categories ${handle.categories.join(", ")}`,
    );
  return described;
}

/** True when everything `reported` (an id or a `prefix.*`) may stand for lies under `configured`. */
function covers(configured: string, reported: string): boolean {
  return categoryMatches(configured, reported.endsWith(".*") ? reported.slice(0, -2) : reported);
}
