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
  // The hash input, built as one string and hashed once: one native call per message
  // instead of two per field. The bytes hashed are the same as field by field.
  #input: string;

  constructor(role: string) {
    this.#input = `${role.length}:${role}`;
  }

  /** Adds one content part: a tag (`text`, `call`, `result`, ...) and its fields. */
  part(tag: string, ...fields: readonly string[]): void {
    // Length-prefixed so that no two different part lists hash the same input stream.
    let input = `${this.#input}${tag.length}:${tag}${String(fields.length).length}:${fields.length}`;
    for (const f of fields) input += `${f.length}:${f}`;
    this.#input = input;
  }

  /** Hex SHA-256 of role and parts (one-shot: a Hash object per message costs more than the hashing). */
  hex(): string {
    return hash("sha256", this.#input, "hex");
  }
}

/** Where parsers put content parts; responses have no conversation, so they discard them. */
export interface PartSink {
  part(tag: string, ...fields: readonly string[]): void;
}

/** A sink that keeps nothing: parsers read the same code path whether or not they digest. */
export const DISCARD: PartSink = { part: () => {} };
