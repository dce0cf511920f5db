import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { readFixtureTexts } from "../../../bench/eval/fixture-texts.js";
import { EventKind, Severity } from "../../../gen/guard/v1/types_pb.js";
import { commandsDetector } from "../../../src/detectors/commands/index.js";
import { exfiltrationDetector } from "../../../src/detectors/exfiltration/index.js";
import { toolSegment } from "../../helpers/segments.js";

/**
 * What a coding agent runs all day, and what a manipulated one might try, written for the
 * project without reading the rules (test/fixtures/commands/). The default policy blocks a
 * command or exfiltration finding in a tool call from MEDIUM up and only shows a LOW one, so
 * "blocked" here is a finding of MEDIUM or more from either detector.
 */

function fixture(name: string): string[] {
  return readFixtureTexts(resolve(import.meta.dirname, "../../fixtures/commands", name));
}

const HONEST = fixture("honest-agent-commands.txt");
const MALICIOUS = fixture("malicious-agent-commands.txt");

/** The findings of both shell detectors on `command` as a bash tool call, MEDIUM and up. */
function blocking(command: string): string[] {
  const segment = toolSegment(command);
  return [commandsDetector, exfiltrationDetector]
    .flatMap((d) => d.detect(segment, EventKind.STEP_RESPONSE))
    .filter((f) => f.severity >= Severity.MEDIUM)
    .map((f) => `${f.category}: ${f.reason}`);
}

describe("shell detectors: an agent's ordinary commands and a manipulated agent's (test/fixtures/commands)", () => {
  it("has the fixture sets these tests expect", () => {
    expect(HONEST.length).toBeGreaterThanOrEqual(300);
    expect(MALICIOUS.length).toBeGreaterThanOrEqual(80);
    expect(new Set(HONEST).size).toBe(HONEST.length);
  });

  it("blocks at most 1% of the ordinary commands", () => {
    const blocked = HONEST.map((command) => ({ command, why: blocking(command) })).filter((r) => r.why.length > 0);
    expect(blocked.length, JSON.stringify(blocked, null, 1)).toBeLessThanOrEqual(Math.floor(HONEST.length * 0.01));
  });

  it("blocks at least 95% of the manipulated agent's commands", () => {
    const missed = MALICIOUS.filter((command) => blocking(command).length === 0);
    expect(missed.length, JSON.stringify(missed, null, 1)).toBeLessThanOrEqual(Math.floor(MALICIOUS.length * 0.05));
  });
});
