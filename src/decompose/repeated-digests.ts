import { type Digester, digestOf } from "./digest.js";

/**
 * The conversation digests of each agent's last request, so that its next request, which
 * re-sends that conversation, gets the digests of the repeated messages without hashing them
 * again. Hashing every message of every request was a second SHA-256 pass over the body (the
 * first is the raw body's `payload_sha256`), and most of a long body is history.
 *
 * A message is recalled only when its pieces (role, then every part's tag, field count and
 * fields) are, string for string, those the previous request of the same agent had at the same
 * position: its hash input is then the same string, and the digest the SHA-256 of it, exactly
 * as if hashed again, so recalling can never make one text pass for another. Comparing by
 * position rather than looking messages up in a map keeps the cost to one comparison of
 * strings the body already holds (a map would hash each long text again, which was measured
 * slower than SHA-256 itself); a conversation edited in the middle, or two conversations of one
 * agent interleaved, just hash what does not line up.
 *
 * Per organization and agent, bounded in bytes, least recently used agents evicted first.
 */

/** The digests of one request's conversation, by position. */
interface Conversation {
  readonly pieces: (readonly string[])[];
  readonly digests: string[];
  bytes: number;
}

/** What a message costs beyond its pieces' characters (its digest, arrays). */
const MESSAGE_BYTES = 160;

function samePieces(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function piecesBytes(pieces: readonly string[]): number {
  let bytes = MESSAGE_BYTES;
  for (const p of pieces) bytes += p.length * 2;
  return bytes;
}

/** A request's digester: it recalls from the agent's last request, and `keep` makes it the last one. */
export interface RequestDigester extends Digester {
  keep(): void;
}

export class RepeatedDigests {
  readonly #agents = new Map<string, Conversation>();
  #bytes = 0;
  /** Messages whose digest was recalled rather than hashed. */
  recalled = 0;

  /** `maxBytes` bounds the strings held (UTF-16 code units x 2); 0 disables recalling. */
  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  /** Bytes held, for tests. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The digester of one step/request of an agent. */
  forRequest(orgId: string, agentId: string): RequestDigester {
    const key = `${orgId.length}:${orgId}${agentId}`;
    const previous = this.#agents.get(key);
    const next: Conversation = { pieces: [], digests: [], bytes: 0 };
    return {
      digest: (position, pieces) => {
        const before = previous?.pieces[position];
        const repeated = previous !== undefined && before !== undefined && samePieces(before, pieces);
        if (repeated) this.recalled++;
        // A repeated message keeps the strings already held: the new ones then die young, and
        // only new messages' strings survive into the old generation (keeping every request's
        // own had the collector copy the whole history each step).
        const held = repeated ? before : pieces;
        const digest = repeated ? (previous.digests[position] ?? digestOf(pieces)) : digestOf(pieces);
        next.pieces[position] = held;
        next.digests[position] = digest;
        next.bytes += piecesBytes(held);
        return digest;
      },
      keep: () => this.#keep(key, next),
    };
  }

  #keep(key: string, conversation: Conversation): void {
    const old = this.#agents.get(key);
    if (old) {
      this.#agents.delete(key);
      this.#bytes -= old.bytes;
    }
    // Too large to keep: it would evict every other agent's.
    if (conversation.bytes > this.maxBytes / 4) return;
    this.#agents.set(key, conversation);
    this.#bytes += conversation.bytes;
    for (const [oldest, held] of this.#agents) {
      if (this.#bytes <= this.maxBytes) break;
      this.#agents.delete(oldest);
      this.#bytes -= held.bytes;
    }
  }
}
