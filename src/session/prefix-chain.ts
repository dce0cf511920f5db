import type { ConversationEntryLike } from "./records.js";

/**
 * Rolling keys of every prefix of a conversation: `key(k)` names the first k entries.
 *
 * A request repeats the whole conversation, so the tracker finds its session by probing the keys
 * of the longest prefixes first: a continuation hits after as many probes as it has new messages,
 * whatever the length of the history. Each key costs one pass over its entry's role and digest
 * (digests are already SHA-256 of the content), and key strings are only built for the prefixes
 * actually probed or stored.
 *
 * The mix is a 128-bit non-cryptographic chain (four FNV-style lanes, crossed per entry with
 * murmur3's finaliser). Accidental collisions are out of reach; a forged one would need content
 * crafted against the target's digests, and could only mis-group sessions inside the forger's own
 * (org, agent, user) scope, since every index is scoped there and grouping never grants trust
 * (spec 2.1 rule 2).
 */
export class PrefixChain {
  readonly length: number;
  /** Four lanes per prefix length 1..length. */
  readonly #lanes: Uint32Array;

  constructor(entries: readonly ConversationEntryLike[]) {
    this.length = entries.length;
    this.#lanes = new Uint32Array(entries.length * 4);
    let a = 0x811c9dc5;
    let b = 0x050c5d1f;
    let c = 0x9e3779b9;
    let d = 0x2545f491;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      const text = entry.role + "\u0001" + entry.digest + "\u0002";
      for (let j = 0; j < text.length; j++) {
        const ch = text.charCodeAt(j);
        a = Math.imul(a ^ ch, 0x01000193);
        b = Math.imul(b ^ ch, 0x5bd1e995);
        c = Math.imul(c ^ ch, 0x85ebca6b);
        d = Math.imul(d ^ ch, 0xc2b2ae35);
      }
      // Cross the lanes so that every lane depends on the whole entry sequence.
      a = fmix(a ^ d);
      b = fmix(b ^ a);
      c = fmix(c ^ b);
      d = fmix(d ^ c);
      const at = i * 4;
      this.#lanes[at] = a;
      this.#lanes[at + 1] = b;
      this.#lanes[at + 2] = c;
      this.#lanes[at + 3] = d;
    }
  }

  /** Key of the first `k` entries (1 ≤ k ≤ length); the length is part of the key. */
  key(k: number): string {
    if (!Number.isInteger(k) || k < 1 || k > this.length) throw new RangeError(`no prefix of length ${k}`);
    const at = (k - 1) * 4;
    let out = k.toString(36) + ":";
    for (let i = 0; i < 4; i++) out += this.#lanes[at + i]!.toString(16).padStart(8, "0");
    return out;
  }
}

/** murmur3's 32-bit finaliser: full avalanche of a lane. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}
