import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hashKey, mintKey } from "./auth/keys.js";
import { parseConfig } from "./config/load.js";
import type { GuardConfig } from "./config/types.js";
import { SecretBox } from "./crypto/secret-box.js";

/**
 * The embedded default's first start: with no configuration file, Guard creates one
 * organization (`local`), its `default` workspace and one API key. The key is printed once
 * and left in `<data>/api-key` (mode 0600) for the operator; the service itself keeps
 * only its SHA-256, in `<data>/local-org.json`.
 */
export interface Bootstrapped {
  readonly config: GuardConfig;
  /** The key minted by this start, or undefined when the data folder already had one. */
  readonly newKey?: string;
}

export function bootstrapLocalOrg(dataDir: string): Bootstrapped {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const orgFile = join(dataDir, "local-org.json");
  // The file is configuration like any other (JSON is YAML): defaults fill what it omits.
  if (existsSync(orgFile)) return { config: parseConfig(readFileSync(orgFile, "utf8")) };
  const key = mintKey("local");
  const document = {
    orgs: [
      {
        id: "local",
        subscription: "active",
        default_workspace: "default",
        workspaces: ["default"],
        keys: [{ id: "local-1", sha256: hashKey(key) }],
      },
    ],
  };
  writeFileSync(join(dataDir, "api-key"), `${key}\n`, { mode: 0o600 });
  writeFileSync(orgFile, JSON.stringify(document, null, 2), { mode: 0o600 });
  return { config: parseConfig(JSON.stringify(document)), newKey: key };
}

/**
 * The deployment's master secret (placeholder sealing, fingerprint keys): from
 * GUARD_MASTER_KEY (base64 of 32 bytes) when given, else `<data>/master.key`, created once.
 */
export function loadMasterSecret(dataDir: string, fromEnv: string | undefined): SecretBox {
  if (fromEnv) {
    const master = Buffer.from(fromEnv, "base64");
    if (master.length !== 32) throw new Error("GUARD_MASTER_KEY must be base64 of exactly 32 bytes");
    return new SecretBox(master);
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, "master.key");
  if (!existsSync(file)) writeFileSync(file, SecretBox.generateMaster().toString("base64"), { mode: 0o600 });
  return new SecretBox(Buffer.from(readFileSync(file, "utf8").trim(), "base64"));
}
