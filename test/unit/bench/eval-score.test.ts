import { describe, expect, it } from "vitest";
import type { LabelledSample } from "../../../bench/eval/corpus.js";
import { f1, type SampleOutcome, scoreCorpus, totalCounts } from "../../../bench/eval/score.js";
import { covers, type System } from "../../../bench/eval/system.js";
import { Channel } from "../../../gen/guard/v1/types_pb.js";

function outcome(id: string, expected: string[], categories: string[], errors = 0): SampleOutcome {
  const sample: LabelledSample = { id, text: id, channel: Channel.USER, expected };
  return { sample, categories, errors };
}

function peer(categories: string[]): System {
  return {
    name: "peer",
    version: "peer@1",
    how: "test",
    scope: "covered",
    checks: [{ name: "c", categories, run: () => [] }],
  };
}

describe("eval scoring", () => {
  it("counts a positive caught by a finding under its expected id as a true positive", () => {
    const score = scoreCorpus([
      outcome("a", ["security.secret_leak"], ["security.secret_leak.aws"]),
      outcome("b", ["security.secret_leak"], []),
    ]);
    expect(score.byCategory.get("security.secret_leak")).toEqual({ tp: 1, fn: 1, fp: 0 });
    expect(score.misses).toEqual(["b (security.secret_leak)"]);
  });

  it("charges a benign sample once per category it draws, folded onto the corpus's expected id", () => {
    const score = scoreCorpus([
      outcome("p", ["security.secret_leak"], ["security.secret_leak.aws"]),
      outcome("n", [], ["security.secret_leak.aws", "security.secret_leak.github", "privacy.pii.email"]),
    ]);
    expect(score.byCategory.get("security.secret_leak")?.fp).toBe(1);
    expect(score.byCategory.get("privacy.pii.email")?.fp).toBe(1);
    expect(totalCounts(score)).toEqual({ tp: 1, fn: 0, fp: 1 });
  });

  it("does not score findings on a positive outside its expected ids", () => {
    const score = scoreCorpus([
      outcome("p", ["security.jailbreak"], ["security.jailbreak", "privacy.pii.email"]),
    ]);
    expect([...score.byCategory.keys()]).toEqual(["security.jailbreak"]);
  });

  it("leaves out a peer's positives it does not cover and keeps every benign sample", () => {
    const inScope = (id: string) => covers(peer(["privacy.pii.email"]), id);
    const score = scoreCorpus(
      [
        outcome("inj", ["security.prompt_injection"], []),
        outcome("mail", ["privacy.pii.email"], ["privacy.pii.email"]),
        outcome("benign", [], ["privacy.pii.email"]),
      ],
      inScope,
    );
    expect(score.positives).toBe(1);
    expect(score.negatives).toBe(1);
    expect(score.byCategory.has("security.prompt_injection")).toBe(false);
    expect(score.byCategory.get("privacy.pii.email")).toEqual({ tp: 1, fn: 0, fp: 1 });
  });

  it("scores a sample on which a check threw, and counts it as errored", () => {
    const score = scoreCorpus([outcome("x", ["privacy.pii.email"], [], 1)]);
    expect(score.erroredSamples).toBe(1);
    expect(score.byCategory.get("privacy.pii.email")).toEqual({ tp: 0, fn: 1, fp: 0 });
  });

  it("has no F1 without positives, and 0 when nothing is caught", () => {
    expect(f1({ tp: 0, fn: 0, fp: 3 })).toBeUndefined();
    expect(f1({ tp: 0, fn: 2, fp: 0 })).toBe(0);
    expect(f1({ tp: 2, fn: 0, fp: 2 })).toBeCloseTo(2 / 3);
  });

  it("matches coverage by prefix either way", () => {
    expect(covers(peer(["security.secret_leak.*"]), "security.secret_leak")).toBe(true);
    expect(covers(peer(["privacy.pii.email"]), "privacy.pii")).toBe(true);
    expect(covers(peer(["privacy.pii.email"]), "privacy.pii.phone")).toBe(false);
  });
});
