import { Transform, type TransformCallback } from "node:stream";
import { errors } from "../errors/guard-error.js";

/**
 * Counts body bytes as they arrive and fails the read with 413 once the organization's
 * limit is passed: the check for bodies whose Content-Length is absent (chunked) or false.
 */
export function byteLimit(limitBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > limitBytes) callback(errors.payloadTooLarge(limitBytes));
      else callback(null, chunk);
    },
  });
}
