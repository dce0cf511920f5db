import type { SecretBox } from "../crypto/secret-box.js";

/** Entries kept per box before the cache starts over; a fingerprint is 64 hex characters. */
const MAX_ENTRIES = 50_000;

/**
 * Finding fingerprints (DESIGN.md decision 4: HMAC-SHA256 of `category + subject`, keyed per
 * organization), remembered. A re-sent history brings back the same findings on every step,
 * and each would otherwise cost an HMAC again; the answer never changes for one box,
 * organization, category and subject. The cache holds subjects, which the stored verdicts
 * hold too, and starts over at its bound so memory stays flat.
 */
export class Fingerprints {
  readonly #known = new Map<string, string>();

  constructor(private readonly box: SecretBox) {}

  of(orgId: string, category: string, subject: string): string {
    const key = `${orgId}\0${category}\0${subject}`;
    let fp = this.#known.get(key);
    if (fp === undefined) {
      fp = this.box.mac(`fp:${orgId}`, `${category}\0${subject}`);
      if (this.#known.size >= MAX_ENTRIES) this.#known.clear();
      this.#known.set(key, fp);
    }
    return fp;
  }
}

const byBox = new WeakMap<SecretBox, Fingerprints>();

/** The fingerprint cache of a box (one per deployment secret). */
export function fingerprintsOf(box: SecretBox): Fingerprints {
  let fingerprints = byBox.get(box);
  if (!fingerprints) {
    fingerprints = new Fingerprints(box);
    byBox.set(box, fingerprints);
  }
  return fingerprints;
}
