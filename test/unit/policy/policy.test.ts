import { describe, expect, it } from "vitest";
import { Channel, EventKind, Severity } from "../../../gen/guard/v1/types_pb.js";
import { failModeFor } from "../../../src/policy/fail-modes.js";
import { parseRule, selectPolicy } from "../../../src/policy/from-config.js";
import { actionFor, categoryMatches, DEFAULT_POLICY } from "../../../src/policy/policy.js";

describe("policy", () => {
  it("matches categories exactly or under a prefix", () => {
    expect(categoryMatches("security.secret_leak.*", "security.secret_leak.aws_key")).toBe(true);
    expect(categoryMatches("security.secret_leak.*", "security.secret_leakage")).toBe(false);
    expect(categoryMatches("privacy.pii.email", "privacy.pii.email")).toBe(true);
  });

  it.each([
    ["security.secret_leak.github", Channel.USER, EventKind.STEP_REQUEST, "redact"],
    ["security.secret_leak.github", Channel.TOOL_CALL_ARGUMENTS, EventKind.STEP_RESPONSE, "block"],
    ["security.malicious_command", Channel.TOOL_CALL_ARGUMENTS, EventKind.STEP_RESPONSE, "block"],
    ["security.malicious_command", Channel.PROSE, EventKind.STEP_RESPONSE, "flag"],
    ["security.prompt_injection", Channel.TOOL_RESULT, EventKind.STEP_REQUEST, "block"],
    ["security.prompt_injection", Channel.USER, EventKind.STEP_REQUEST, "flag"],
    ["privacy.pii.email", Channel.USER, EventKind.STEP_REQUEST, "redact"],
    ["privacy.pii.email", Channel.TOOL_CALL_ARGUMENTS, EventKind.STEP_RESPONSE, "flag"],
  ] as const)("the shipped defaults: %s on channel %i of kind %i -> %s", (category, channel, kind, action) => {
    expect(actionFor(DEFAULT_POLICY, { category, channel, severity: Severity.HIGH, score: 0.9 }, kind)).toBe(action);
  });

  it("parses configured rules and refuses mistakes by name", () => {
    expect(parseRule({ category: "privacy.pii.*", action: "block", channels: ["user"], min_severity: "high" }, "r")).toEqual({
      category: "privacy.pii.*",
      action: "block",
      channels: [Channel.USER],
      minSeverity: Severity.HIGH,
    });
    expect(() => parseRule({ category: "privacy.pii.*", action: "allow" }, "r")).toThrow(/action/);
    expect(() => parseRule({ category: "Bad", action: "flag" }, "r")).toThrow(/category/);
    expect(() => parseRule({ category: "x.y", action: "flag", channels: ["mars"] }, "r")).toThrow(/mars/);
  });

  it("chooses a set by agent first, then workspace, else the defaults", () => {
    const rule = { category: "x.a", action: "block" as const };
    const sets = [
      { name: "ws", agents: [], workspaces: ["prod"], rules: [rule], inheritDefaults: true },
      { name: "agent", agents: ["bot"], workspaces: [], rules: [rule], inheritDefaults: false },
    ];
    expect(selectPolicy(sets, DEFAULT_POLICY, "bot", "prod").name).toBe("agent");
    expect(selectPolicy(sets, DEFAULT_POLICY, "other", "prod").rules.length).toBe(1 + DEFAULT_POLICY.rules.length);
    expect(selectPolicy(sets, DEFAULT_POLICY, "other", "dev")).toBe(DEFAULT_POLICY);
  });
});

describe("fail modes", () => {
  const modes = { default: "open", "security.secret_leak.*": "closed", "security.secret_leak.test": "open" } as const;
  it("takes the most specific overlapping entry, else the default", () => {
    expect(failModeFor(modes, ["security.secret_leak.*"])).toBe("closed");
    expect(failModeFor(modes, ["security.secret_leak.aws"])).toBe("closed");
    expect(failModeFor(modes, ["security.secret_leak.test"])).toBe("open");
    expect(failModeFor(modes, ["privacy.pii.email"])).toBe("open");
    expect(failModeFor({ default: "closed" }, ["privacy.pii.email"])).toBe("closed");
  });
});
