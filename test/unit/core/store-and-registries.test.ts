import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SecretBox } from "../../../src/crypto/secret-box.js";
import { InProcessRateLimiter } from "../../../src/limits/rate-limiter.js";
import { PlaceholderRegistry } from "../../../src/placeholders/registry.js";
import { EmbeddedStore } from "../../../src/store/embedded/embedded-store.js";
import { codePointRange, isBmpOnly, toCodePointOffset, toUtf16Index } from "../../../src/text/code-points.js";

describe("rate limiter: fixed one-minute windows", () => {
  it("allows the budget, refuses the next, and starts over in the next window", () => {
    const limiter = new InProcessRateLimiter();
    const t0 = 60_000 * 1000;
    const taken = Array.from({ length: 4 }, () => limiter.take("o", "k", 3, 0, t0 + 1));
    expect(taken).toEqual([undefined, undefined, undefined, "key"]);
    expect(limiter.take("o", "k", 3, 0, t0 + 60_000)).toBeUndefined();
    expect(limiter.take("o", "other", 3, 0, t0 + 60_000)).toBeUndefined();
  });
  it("spends the organization's budget across keys", () => {
    const limiter = new InProcessRateLimiter();
    const results = ["a", "b", "a", "b"].map((k) => limiter.take("o", k, 10, 3, 5));
    expect(results).toEqual([undefined, undefined, undefined, "org"]);
  });
});

describe("placeholder registry over the embedded store", () => {
  const box = new SecretBox(Buffer.alloc(32, 1));
  it("gives one value one token per agent, counts per kind, keeps originals sealed, and survives a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "guard-ph-"));
    const store = EmbeddedStore.open(dir);
    const registry = new PlaceholderRegistry(box, store);
    expect(await registry.placeholderFor("o", "a", "EMAIL", "x@y.z")).toBe("${X_EMAIL_1}");
    expect(await registry.placeholderFor("o", "a", "EMAIL", "x@y.z")).toBe("${X_EMAIL_1}");
    expect(await registry.placeholderFor("o", "a", "EMAIL", "w@y.z")).toBe("${X_EMAIL_2}");
    expect(await registry.placeholderFor("o", "a", "phone", "+1 555")).toBe("${X_PHONE_1}");
    expect(await registry.placeholderFor("o", "b", "EMAIL", "w@y.z")).toBe("${X_EMAIL_1}");
    await store.close();
    expect(readFileSync(join(dir, "placeholders.jsonl"), "utf8")).not.toContain("x@y.z");

    const reopened = new PlaceholderRegistry(box, EmbeddedStore.open(dir));
    expect(await reopened.placeholderFor("o", "a", "EMAIL", "w@y.z")).toBe("${X_EMAIL_2}");
    expect(await reopened.placeholderFor("o", "a", "EMAIL", "new@y.z")).toBe("${X_EMAIL_3}");
    const originals = await reopened.resolve("o", "a", ["${X_EMAIL_1}", "${X_PHONE_1}", "${X_EMAIL_9}"]);
    expect([...originals]).toEqual([
      ["${X_EMAIL_1}", "x@y.z"],
      ["${X_PHONE_1}", "+1 555"],
    ]);
    expect((await reopened.resolve("other-org", "a", ["${X_EMAIL_1}"])).size).toBe(0);
  });
  it("keys fingerprints per organization and never reveals the value", () => {
    expect(box.mac("fp:a", "v")).not.toBe(box.mac("fp:b", "v"));
    expect(() => box.open("other", box.seal("scope", "secret"))).toThrow();
    expect(box.open("scope", box.seal("scope", "secret"))).toBe("secret");
  });
});

describe("embedded store", () => {
  it("stores a repeated body once and every event, and reopens what it wrote", async () => {
    const dir = mkdtempSync(join(tmpdir(), "guard-store-"));
    const store = EmbeddedStore.open(dir);
    const body = Buffer.from('{"messages":[]}');
    const event = (id: string) => ({
      event_id: id,
      received_at: "2026-01-01T00:00:00.000Z",
      org_id: "o",
      key_id: "k",
      kind: "step/request",
      step_id: id,
      agent_id: "a",
      agent_id_derived: false,
      agent_type: "",
      agent_user: "",
      workspace: "default",
      llm_protocol: "canonical",
      payload_sha256: "h1",
      payload_bytes: body.length,
      verdict: { decision: "allow" },
    });
    await store.recordEvent(event("e1"), body);
    await store.recordEvent(event("e2"), body);
    await store.close();
    expect(readFileSync(join(dir, "payloads.jsonl"), "utf8").trim().split("\n")).toHaveLength(1);
    const reopened = EmbeddedStore.open(dir);
    expect((await reopened.recentEvents("o", 10)).map((e) => e.event_id)).toEqual(["e2", "e1"]);
    expect(await reopened.recentEvents("other", 10)).toEqual([]);
  });
});

describe("code points", () => {
  it("converts between UTF-16 indexes and code-point offsets", () => {
    const text = "a😀b😀c";
    expect(isBmpOnly(text)).toBe(false);
    expect(toCodePointOffset(text, 3)).toBe(2);
    expect(toUtf16Index(text, 2)).toBe(3);
    expect(codePointRange(text, false, 3, 6)).toEqual({ start: 2, end: 4 });
    expect(codePointRange("abc", true, 1, 2)).toEqual({ start: 1, end: 2 });
  });
});
