import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { distinctChars } from "../entropy.js";
import type { SecretHit, SecretRule } from "../rule.js";
import { looksLikeEncodedText } from "./base64.js";

/**
 * PEM, PKCS#8, OpenSSH and PGP private key blocks. The regex only finds the BEGIN line;
 * the END line is found with indexOf, and the body in between must hold real key material
 * (at least 40 base64 characters that do not decode to text), so documentation blocks such
 * as `-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----` are left alone.
 */

/** How far after BEGIN the END line is looked for (an RSA 8192 key is about 6.5 KB). */
const MAX_BLOCK = 16_384;
const MIN_BODY = 40;

/** Base64 characters of the body, skipping headers (`Proc-Type: ...`) and escaped newlines. */
function keyBody(block: string): string {
  const lines = block.replace(/\\r|\\n/g, "\n").split(/\n/);
  let body = "";
  for (const line of lines) {
    if (line.includes(":")) continue;
    body += line.replace(/[\s"',]/g, "");
  }
  return body;
}

function findBlockEnd(text: string, bodyStart: number): number {
  // Searches are bounded: an unbounded indexOf per BEGIN line is quadratic on hostile text.
  // The first "-----" after BEGIN must open the END line; otherwise the block has none.
  const found = text.slice(bodyStart, bodyStart + MAX_BLOCK).indexOf("-----");
  if (found === -1 || !text.startsWith("-----END", bodyStart + found)) return -1;
  const end = bodyStart + found;
  const close = text.slice(end + 8, end + 88).indexOf("-----");
  return close === -1 ? -1 : end + 8 + close + 5;
}

/** Without an END line (a truncated paste), the block runs while base64 lines continue. */
function truncatedBlockEnd(text: string, bodyStart: number): number {
  const limit = Math.min(text.length, bodyStart + MAX_BLOCK);
  let i = bodyStart;
  while (i < limit && /[A-Za-z0-9+/=\s\\]/.test(text.charAt(i))) i++;
  return i;
}

function acceptBlock(match: RegExpExecArray, text: string): boolean | Partial<SecretHit> {
  const bodyStart = match.index + match[0].length;
  const closed = findBlockEnd(text, bodyStart);
  const end = closed === -1 ? truncatedBlockEnd(text, bodyStart) : closed;
  const bodyEnd = closed === -1 ? end : text.lastIndexOf("-----END", end);
  const body = keyBody(text.slice(bodyStart, bodyEnd));
  if (body.length < MIN_BODY || !/^[A-Za-z0-9+/=]+$/.test(body)) return false;
  if (looksLikeEncodedText(body)) return false;
  const encrypted =
    /ENCRYPTED/.test(match[0]) || text.slice(bodyStart, bodyEnd).includes("Proc-Type: 4,ENCRYPTED");
  return {
    start: match.index,
    end,
    value: text.slice(match.index, end),
    // A passphrase-protected key still needs the passphrase to be used.
    severity: encrypted ? Severity.HIGH : Severity.CRITICAL,
    score: closed === -1 ? 0.8 : 0.95,
  };
}

/** How far around a bare hex key its context is read. */
const CONTEXT = 120;
/** Words that say a nearby 256-bit hex value is a key that signs. */
const KEY_CONTEXT = /priv|secret|wallet|mnemonic|seed|signer|signing|keystore/i;
/** Words that say it is one of the many public 256-bit values: hashes, ids, storage slots. */
const PUBLIC_CONTEXT =
  /\b(?:tx|txn|txid|transactions?|hash(?:es)?|block|topics?|slot|storage|commit|digest|checksum|sha\d*|keccak|merkle|root|nonce|salt|address|pub(?:lic)?[ _-]?key)\b/i;

/**
 * A bare `0x` + 64 hex digits is far more often a transaction or block hash than an
 * Ethereum (secp256k1) private key, so it is reported only when the surrounding text talks
 * about keys or wallets and not about hashes. Assignments to a key name (`PRIVATE_KEY=0x...`)
 * are also caught by the generic rule.
 */
function acceptHexKey(value: string, match: RegExpExecArray, text: string): boolean {
  if (distinctChars(value) < 10) return false;
  const before = text.slice(Math.max(0, match.index - CONTEXT), match.index);
  const after = text.slice(match.index + match[0].length, match.index + match[0].length + CONTEXT);
  const context = `${before} ${after}`;
  return KEY_CONTEXT.test(context) && !PUBLIC_CONTEXT.test(context);
}

export const privateKeyRules: readonly SecretRule[] = [
  {
    id: "private_key",
    kind: "PRIVATE_KEY",
    keywords: ["private key"],
    pattern: /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/dg,
    severity: Severity.CRITICAL,
    score: 0.95,
    priority: 3,
    ownPlaceholderCheck: true,
    reason: "private key block",
    accept: (_value, match, text) => acceptBlock(match, text),
  },
  {
    id: "secp256k1_private_key",
    kind: "PRIVATE_KEY",
    keywords: ["0x"],
    pattern: /(?<![0-9A-Za-z])0x([0-9a-fA-F]{64})(?![0-9A-Za-z])/dg,
    severity: Severity.CRITICAL,
    score: 0.7,
    minEntropy: 3,
    priority: 2,
    reason: "secp256k1 (Ethereum) private key",
    accept: acceptHexKey,
  },
];
