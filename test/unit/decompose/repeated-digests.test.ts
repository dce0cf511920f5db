import { describe, expect, it } from "vitest";
import { EventKind, LlmProtocol } from "../../../gen/guard/v1/types_pb.js";
import { decompose } from "../../../src/decompose/decompose.js";
import type { Digester } from "../../../src/decompose/digest.js";
import { RepeatedDigests } from "../../../src/decompose/repeated-digests.js";

const chat = (...contents: string[]) => ({
  model: "m",
  messages: contents.map((content, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content })),
});

const digestsOf = (body: unknown, digester?: Digester) =>
  decompose(EventKind.STEP_REQUEST, LlmProtocol.VENDOR_A_CHAT, body, digester).conversation.map((e) => e.digest);

/** Decomposes `body` as one request of the agent through `repeated`; answers the digests. */
function request(repeated: RepeatedDigests, orgId: string, agentId: string, body: unknown): string[] {
  const digester = repeated.forRequest(orgId, agentId);
  const digests = digestsOf(body, digester);
  digester.keep();
  return digests;
}

describe("repeated conversation digests", () => {
  it("are the digests every message would get hashed again", () => {
    const repeated = new RepeatedDigests();
    const bodies = [chat("a"), chat("a", "b", "c"), chat("a", "b", "c", "d", "e"), chat("x", "b", "c")];
    for (const body of bodies) expect(request(repeated, "o", "agent", body)).toEqual(digestsOf(body));
    // a; a (b c); a b c (d e); then x differs, b and c still line up.
    expect(repeated.recalled).toBe(1 + 3 + 2);
  });

  it("hash a changed message at a repeated position afresh", () => {
    const repeated = new RepeatedDigests();
    const first = request(repeated, "o", "agent", chat("a", "b", "c"));
    const edited = request(repeated, "o", "agent", chat("a", "B", "c"));
    expect(edited[0]).toBe(first[0]);
    expect(edited[1]).not.toBe(first[1]);
    expect(edited).toEqual(digestsOf(chat("a", "B", "c")));
    expect(repeated.recalled).toBe(2);
  });

  it("recall only from the same organization and agent, and only what was kept", () => {
    const repeated = new RepeatedDigests();
    request(repeated, "o", "agent", chat("a", "b"));
    request(repeated, "other", "agent", chat("a", "b"));
    request(repeated, "o", "other", chat("a", "b"));
    expect(repeated.recalled).toBe(0);
    digestsOf(chat("a", "b", "c"), repeated.forRequest("o", "agent"));
    expect(repeated.recalled).toBe(2);
    // Not kept: the agent's last conversation is still the first one.
    request(repeated, "o", "agent", chat("a", "b"));
    expect(repeated.recalled).toBe(4);
  });

  it("hold no more than the bound, and nothing with a bound of 0", () => {
    const repeated = new RepeatedDigests(4096);
    request(repeated, "o", "small", chat("a", "b"));
    expect(repeated.bytes).toBeGreaterThan(0);
    request(repeated, "o", "large", chat("x".repeat(4096)));
    for (let i = 0; i < 20; i++) request(repeated, "o", `agent${i}`, chat(`message ${i}`));
    expect(repeated.bytes).toBeLessThanOrEqual(4096);
    const off = new RepeatedDigests(0);
    request(off, "o", "agent", chat("a"));
    request(off, "o", "agent", chat("a"));
    expect(off.bytes).toBe(0);
    expect(off.recalled).toBe(0);
  });
});
