import { describe, expect, it } from "vitest";
import { readEnvironment } from "../../../src/env.js";

describe("GUARD_BASE_PATH", () => {
  const basePath = (value: string) => readEnvironment({ GUARD_BASE_PATH: value }).basePath;

  it("normalises to /name[/name...] without a trailing slash", () => {
    expect(basePath("/guard")).toBe("/guard");
    expect(basePath("guard/")).toBe("/guard");
    expect(basePath("//a/b//")).toBe("/a/b");
    expect(basePath("/")).toBe("");
    expect(basePath("")).toBe("");
  });

  it("refuses empty names and characters outside a path segment", () => {
    expect(() => basePath("/a//b")).toThrow(/GUARD_BASE_PATH/);
    expect(() => basePath("//")).toThrow(/GUARD_BASE_PATH/);
    expect(() => basePath("/a b")).toThrow(/GUARD_BASE_PATH/);
  });

  it("takes a long run of slashes in time linear in its length", () => {
    // The former `\/+$` trim backtracked quadratically: 200k slashes and a letter took seconds.
    expect(() => basePath(`${"/".repeat(200_000)}x/`)).not.toThrow();
    expect(() => basePath(`/a${"/".repeat(200_000)}x`)).toThrow(/GUARD_BASE_PATH/);
  });
});
