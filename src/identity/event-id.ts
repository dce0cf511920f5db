import { randomFillSync } from "node:crypto";
import { monotonicFactory, type PRNG } from "ulid";

/**
 * Event ids (DESIGN.md decision 6): ULIDs from the `ulid` package, monotonic within the
 * process. Its default generator asks the system for one random byte per character (16 calls
 * per id), which showed on the profile of an evaluation; the same factory is fed here from a
 * pool of cryptographic random bytes refilled 4 KiB at a time.
 */

/** A PRNG in [0, 1) drawing one pooled random byte per call (ulid keeps its top 5 bits). */
export function pooledPrng(poolBytes = 4096): PRNG {
  const pool = Buffer.allocUnsafe(poolBytes);
  let next = pool.length;
  return () => {
    if (next >= pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    return (pool[next++] ?? 0) / 256;
  };
}

/** A generator of monotonic ULIDs; `now` gives milliseconds since the epoch. */
export function monotonicUlid(now: () => number = Date.now): () => string {
  const mint = monotonicFactory(pooledPrng());
  return () => mint(now());
}
