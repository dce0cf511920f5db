import { describe, expect, it } from "vitest";
import { hashKey } from "../../../src/auth/keys.js";
import { KeyRing } from "../../../src/auth/key-ring.js";
import { ConfigError, parseConfig } from "../../../src/config/load.js";

const key = "gk_live_abcdefghijklmnop";

describe("configuration file", () => {
  it("reads orgs, workspaces, limits and keys, filling unset limits with defaults", () => {
    const config = parseConfig(`
orgs:
  - id: acme
    subscription: active
    default_workspace: default
    workspaces: [default, prod]
    limits: {max_request_bytes: 1048576, rate_per_minute: 600}
    keys:
      - id: k1
        sha256: ${hashKey(key)}
        workspace: prod
        bound: {agent_id: bot}
        expires_at: 2030-01-01T00:00:00Z
`);
    const org = config.orgs[0];
    expect(org?.limits.max_request_bytes).toBe(1048576);
    expect(org?.limits.org_rate_per_minute).toBe(0);
    expect(org?.keys[0]).toMatchObject({ id: "k1", workspace: "prod", bound: { agent_id: "bot" }, expires_at: "2030-01-01T00:00:00Z" });
  });

  it.each([
    ["not yaml: [", /not valid YAML/],
    ["orgs: 3", /orgs/],
    ["orgs: [{id: a, keys: [{id: k, sha256: nothex}]}]", /sha256/],
    ["orgs: [{id: a, limits: {rate_per_minute: -1}}]", /rate_per_minute/],
    ["orgs: [{id: a}, {id: a}]", /twice/],
    ["orgs: [{id: a, keys: [{id: k, sha256: " + hashKey(key) + ", workspace: nope}]}]", /workspace/],
  ])("refuses a bad configuration with a message naming the entry: %s", (text, message) => {
    expect(() => parseConfig(text)).toThrow(ConfigError);
    expect(() => parseConfig(text)).toThrow(message);
  });
});

describe("key ring", () => {
  const ring = new KeyRing(
    parseConfig(`
orgs:
  - id: a
    keys: [{id: k, sha256: ${hashKey(key)}}]
  - id: b
    subscription: none
    keys: [{id: k2, sha256: ${hashKey(`${key}2`)}}]
`),
  );
  it("resolves a key by its hash and refuses the rest", () => {
    const ok = ring.authenticate(`Bearer ${key}`, Date.now());
    expect(ok.ok && ok.principal.org.id).toBe("a");
    const unpaid = ring.authenticate(`Bearer ${key}2`, Date.now());
    expect(!unpaid.ok && unpaid.error.status).toBe(402);
    for (const header of [undefined, "", "Bearer ", "Token x", `Bearer ${key}x`]) {
      const refused = ring.authenticate(header, Date.now());
      expect(!refused.ok && refused.error.status).toBe(401);
    }
  });

  it("refuses a key from the instant it expires, with the expiry read once when the configuration is swapped in", () => {
    const expiring = new KeyRing(
      parseConfig(`
orgs:
  - id: a
    keys: [{id: k, sha256: ${hashKey(key)}, expires_at: "2030-01-01T00:00:00Z"}]
`),
    );
    const at = Date.parse("2030-01-01T00:00:00Z");
    expect(expiring.authenticate(`Bearer ${key}`, at - 1).ok).toBe(true);
    const expired = expiring.authenticate(`Bearer ${key}`, at);
    expect(!expired.ok && expired.error.message).toContain("expired");
    // A key without an expiry never expires.
    expect(ring.authenticate(`Bearer ${key}`, Number.MAX_SAFE_INTEGER).ok).toBe(true);
  });
});
