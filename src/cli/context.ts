import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadConfigFile } from "../config/load.js";
import type { GuardConfig, OrgConfig } from "../config/types.js";
import { type Environment, readEnvironment } from "../env.js";
import { EmbeddedStore } from "../store/embedded/embedded-store.js";
import { PostgresStore } from "../store/postgres/postgres-store.js";
import type { Store } from "../store/store.js";
import { CliError, UsageError } from "./errors.js";
import type { CliIo } from "./io.js";

/**
 * Where the configuration comes from, as the service decides it: GUARD_CONFIG when set (a file the
 * operator owns: the CLI never edits it), else the embedded default's `<data>/local-org.json`
 * (created by the service's first start, and edited by `keys create --add` and `keys revoke`).
 */
export type ConfigSource =
  | { readonly kind: "file"; readonly path: string }
  | { readonly kind: "embedded"; readonly path: string };

export function environment(io: CliIo): Environment {
  try {
    return readEnvironment(io.env);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

export function configSource(env: Environment): ConfigSource {
  return env.configPath
    ? { kind: "file", path: env.configPath }
    : { kind: "embedded", path: join(env.dataDir, "local-org.json") };
}

export function loadConfig(source: ConfigSource): GuardConfig {
  if (source.kind === "embedded" && !existsSync(source.path))
    throw new CliError(`no configuration: ${source.path} does not exist (start the service once to create it, or set GUARD_CONFIG)`);
  try {
    return loadConfigFile(source.path);
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}

/**
 * The organization a command acts on: `--org` when given (it must exist), else the only one
 * configured. With several and none named, guessing would act on the wrong one: a usage error.
 */
export function resolveOrg(config: GuardConfig, id: string | undefined): OrgConfig {
  if (id !== undefined) {
    const org = config.orgs.find((o) => o.id === id);
    if (!org) throw new CliError(`no organization ${id} in the configuration (have: ${config.orgs.map((o) => o.id).join(", ")})`);
    return org;
  }
  const [only, ...others] = config.orgs;
  if (only && others.length === 0) return only;
  throw new UsageError(`--org is required: the configuration has ${config.orgs.length} organizations`);
}

/**
 * Opens the store the service uses (PostgreSQL with GUARD_DATABASE_URL, else the data folder) for
 * the length of one command. The CLI never migrates implicitly: `guard migrate` does that.
 */
export async function withStore<T>(env: Environment, work: (store: Store) => Promise<T>): Promise<T> {
  let store: Store;
  if (env.databaseUrl) {
    try {
      store = await PostgresStore.open(env.databaseUrl, { migrate: false, poolSize: 2 });
    } catch (error) {
      throw new CliError(`cannot open PostgreSQL: ${(error as Error).message}`);
    }
  } else {
    if (!existsSync(env.dataDir))
      throw new CliError(`data folder ${env.dataDir} does not exist (start the service once, or set GUARD_DATA_DIR)`);
    store = EmbeddedStore.open(env.dataDir);
  }
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
