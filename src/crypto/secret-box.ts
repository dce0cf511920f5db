import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

/**
 * Sealing for values kept at rest (placeholder originals) and keyed hashes (finding
 * fingerprints, placeholder lookup). One 32-byte master secret per deployment; every use
 * derives its own key from it, so a fingerprint key never equals an encryption key and
 * fingerprints differ between organizations (DESIGN.md decision 4).
 */
export class SecretBox {
  readonly #master: Buffer;
  /** Derived keys by purpose: deriving costs an HMAC, and every fingerprint needs one. */
  readonly #derived = new Map<string, Buffer>();

  constructor(master: Buffer) {
    if (master.length !== 32) throw new Error("master secret must be 32 bytes");
    this.#master = master;
  }

  static generateMaster(): Buffer {
    return randomBytes(32);
  }

  #derive(purpose: string): Buffer {
    let key = this.#derived.get(purpose);
    if (!key) {
      key = createHmac("sha256", this.#master).update(purpose).digest();
      // Purposes are per organization; a bound keeps a tenant-churning process flat.
      if (this.#derived.size >= 10_000) this.#derived.clear();
      this.#derived.set(purpose, key);
    }
    return key;
  }

  /** Keyed hash, hex: irreversible and specific to `scope` (e.g. an organization). */
  mac(scope: string, value: string): string {
    return createHmac("sha256", this.#derive(`mac:${scope}`)).update(value, "utf8").digest("hex");
  }

  /** AES-256-GCM; the result is `iv.tag.ciphertext` in base64url. */
  seal(scope: string, plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#derive(`seal:${scope}`), iv);
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((b) => b.toString("base64url")).join(".");
  }

  /** Opens a sealed value; throws when it was tampered with or sealed under another scope. */
  open(scope: string, sealed: string): string {
    const [iv, tag, body] = sealed.split(".").map((p) => Buffer.from(p, "base64url"));
    if (!iv || !tag || !body) throw new Error("malformed sealed value");
    const decipher = createDecipheriv("aes-256-gcm", this.#derive(`seal:${scope}`), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  }
}
