import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { DetectorService, DetectResponseSchema } from "../../gen/guard/v1/detector_pb.js";
import { Channel, type Finding, FindingSchema, Severity } from "../../gen/guard/v1/types_pb.js";
import type { DetectorHandle } from "../../src/pipeline/detect.js";
import { inProcessClient } from "../../src/rpc/in-process.js";

/**
 * Deterministic detectors for pipeline tests: they react to marker words, so a test can
 * make any segment block, redact or stall without depending on real detection quality.
 * BLOCKME -> security.malicious_command; INJECTME -> security.prompt_injection (high);
 * SECRETME -> security.secret_leak.test with offsets; SLOWME stalls the slow detector.
 */
function markerImpl(): ServiceImpl<typeof DetectorService> {
  return {
    describe: () => ({ name: "markers", version: "1", categories: ["security.malicious_command"] }),
    detect(request) {
      const findings: Finding[] = [];
      for (const segment of request.segments) {
        const base = { path: segment.path, detector: "markers", channel: segment.channel, callId: segment.callId, score: 0.99 };
        if (segment.text.includes("BLOCKME"))
          findings.push(
            create(FindingSchema, { ...base, category: "security.malicious_command", severity: Severity.CRITICAL, subject: "BLOCKME", reason: "marker command" }),
          );
        if (segment.text.includes("INJECTME"))
          findings.push(
            create(FindingSchema, { ...base, category: "security.prompt_injection", severity: Severity.HIGH, subject: "INJECTME", reason: "marker injection" }),
          );
        const at = segment.text.indexOf("SECRETME");
        if (at >= 0) {
          const finding = create(FindingSchema, {
            ...base,
            category: "security.secret_leak.test",
            severity: Severity.HIGH,
            subject: "SECRETME",
            placeholderKind: "TEST_SECRET",
            reason: "marker secret",
          });
          if (segment.addressable) {
            finding.start = at;
            finding.end = at + "SECRETME".length;
          }
          findings.push(finding);
        }
      }
      return create(DetectResponseSchema, { findings });
    },
  };
}

function slowImpl(delayMs: number): ServiceImpl<typeof DetectorService> {
  return {
    describe: () => ({ name: "slow", version: "1", categories: ["security.secret_leak.*"] }),
    async detect(request) {
      if (request.segments.some((s) => s.text.includes("SLOWME"))) await new Promise((r) => setTimeout(r, delayMs));
      return create(DetectResponseSchema, {});
    },
  };
}

export function markerDetector(): DetectorHandle {
  return {
    name: "markers",
    version: "1",
    categories: ["security.malicious_command", "security.prompt_injection", "security.secret_leak.test"],
    channels: [],
    client: inProcessClient(DetectorService, markerImpl()),
  };
}

export function slowDetector(delayMs = 400): DetectorHandle {
  return {
    name: "slow",
    version: "1",
    categories: ["security.secret_leak.*"],
    channels: [Channel.USER, Channel.TOOL_RESULT, Channel.PROSE, Channel.TOOL_CALL_ARGUMENTS],
    client: inProcessClient(DetectorService, slowImpl(delayMs)),
  };
}
