import { Code, ConnectError } from "@connectrpc/connect";
import type { DetectorHandle } from "../pipeline/detect.js";
import type { GuardMetrics } from "./guard-metrics.js";

/** `timeout` when the detector missed its deadline, `error` for any other failure. */
export function failureReason(error: unknown): "timeout" | "error" {
  if (error instanceof ConnectError && error.code === Code.DeadlineExceeded) return "timeout";
  if ((error as { name?: unknown } | undefined)?.name === "TimeoutError") return "timeout";
  return "error";
}

/**
 * The same detector, timed and counted. Wrapping the client rather than the pipeline keeps the
 * decision path untouched: a failure is rethrown as it came, so the pipeline still turns it into
 * unjudged segments and the fail modes still apply.
 */
export function observeDetector(handle: DetectorHandle, metrics: GuardMetrics): DetectorHandle {
  const labels = { detector: handle.name };
  const client = handle.client;
  const detect: typeof client.detect = async (request, options) => {
    const started = performance.now();
    metrics.detectorCalls.inc(labels);
    try {
      return await client.detect(request, options);
    } catch (error) {
      metrics.detectorFailures.inc({ ...labels, reason: failureReason(error) });
      throw error;
    } finally {
      metrics.detectorDuration.observe((performance.now() - started) / 1000, labels);
    }
  };
  return { ...handle, client: { ...client, detect } };
}
