import { hash, randomBytes } from "node:crypto";

/** SHA-256 hex of the whole key string: the only form in which a key is ever kept. */
export function hashKey(key: string): string {
  return hash("sha256", key, "hex");
}

/** Mints a key of the form `gk_<env>_<random>` (DESIGN.md decision 7). */
export function mintKey(env = "live"): string {
  return `gk_${env}_${randomBytes(24).toString("base64url")}`;
}

/** A bearer token we accept at all: printable ASCII without spaces, bounded. */
const TOKEN_SHAPE = /^[\x21-\x7e]{8,512}$/;

/** Takes the token out of `Authorization: Bearer <key>`; undefined when absent or malformed. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
  const token = match?.[1];
  return token !== undefined && TOKEN_SHAPE.test(token) ? token : undefined;
}
