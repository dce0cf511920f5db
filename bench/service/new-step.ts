/**
 * The same body as a new step: a fresh `step_id`, so replaying a body is a new step of its
 * session rather than a retry. `step_id` is the envelope's second key, so the first match is
 * always the envelope's, never text inside the payload (where quotes are escaped).
 */
export function asNewStep(body: string, n: number): string {
  return body.replace(STEP_ID, `${STEP_ID}r${n}-`);
}

const STEP_ID = '"step_id":"';

/**
 * A body kept as bytes for replay, cut where its `step_id` value starts. A service receives
 * bytes from its socket; encoding a 64 KB string on every call (and having the injector measure
 * its length) is the harness's work, which timing loops must not bill to the service.
 */
export class ReplayBody {
  readonly #head: Buffer;
  readonly #tail: Buffer;
  /** Whether the body has a `step_id` to renumber (asNewStep leaves one without it as it is). */
  readonly #numbered: boolean;

  constructor(body: string) {
    const bytes = Buffer.from(body);
    const at = bytes.indexOf(STEP_ID);
    const cut = at < 0 ? bytes.length : at + STEP_ID.length;
    this.#head = bytes.subarray(0, cut);
    this.#tail = bytes.subarray(cut);
    this.#numbered = at >= 0;
  }

  /** Bytes of the original body. */
  get byteLength(): number {
    return this.#head.length + this.#tail.length;
  }

  /** The bytes of `asNewStep(body, n)`, in a buffer of their own (the service may keep it). */
  asNewStep(n: number): Buffer {
    if (!this.#numbered) return Buffer.from(this.#head);
    return Buffer.concat([this.#head, Buffer.from(`r${n}-`), this.#tail]);
  }
}
