import { hash } from "node:crypto";

/**
 * Conversation digests for session chaining. Every step/request re-sends the whole
 * conversation, and sessions are found by matching the digests of a request's prefix
 * against earlier requests, so the same message must digest the same way every time it is
 * sent: only role and content count, never presentation (cache_control markers move from
 * request to request, string content equals one text part, tool arguments are compared
 * as parsed JSON rather than as the provider's encoding).
 */
export class MessageDigest implements PartSink {
  /**
   * The role, then per part its tag, its field count and its fields. Kept as a list rather than
   * the hash input itself so that a message already digested is recognised by comparing the
   * strings the body holds, without building (and copying) its input again: equal lists give
   * equal inputs (see repeated-digests.ts).
   */
  readonly pieces: string[];

  constructor(role: string) {
    this.pieces = [role];
  }

  /** Adds one content part: a tag (`text`, `call`, `result`, ...) and its fields. */
  part(tag: string, ...fields: readonly string[]): void {
    this.pieces.push(tag, String(fields.length));
    for (const f of fields) this.pieces.push(f);
  }
}

/**
 * Hex SHA-256 of a message's pieces, each length-prefixed so that no two different part lists
 * hash the same input stream. The input is built as one string and hashed once: one native call
 * per message instead of two per field, and one-shot, since a Hash object per message costs more
 * than the hashing.
 */
export function digestOf(pieces: readonly string[]): string {
  let input = "";
  for (const p of pieces) input += `${p.length}:${p}`;
  return hash("sha256", input, "hex");
}

/** Turns each message of a conversation, in order, into its digest. */
export interface Digester {
  digest(position: number, pieces: readonly string[]): string;
}

/** Hashes every message. */
export const HASH_EVERY: Digester = { digest: (_position, pieces) => digestOf(pieces) };

/** Where parsers put content parts; responses have no conversation, so they discard them. */
export interface PartSink {
  part(tag: string, ...fields: readonly string[]): void;
}

/** A sink that keeps nothing: parsers read the same code path whether or not they digest. */
export const DISCARD: PartSink = { part: () => {} };
