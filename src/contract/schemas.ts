import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { findRepoRoot } from "./repo-root.js";

/**
 * The external JSON contract lives in `openapi/` as plain files: the same bytes are served to callers
 * (GET /openapi.json, GET /schema/v1/<name>.json) and enforced by the bridge, so the published schema
 * and the behaviour cannot drift. This module reads them once and compiles every schema up front, so a
 * broken schema or a dangling `$ref` stops the process at startup instead of at the first request.
 */

// ajv and ajv-formats are CommonJS with `exports.default`; under NodeNext the default import is the
// whole module.exports, whose `default` is the class / plugin itself.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
export type Ajv = InstanceType<typeof Ajv2020>;

/** Base of every schema `$id`; relative `$ref`s such as "finding.json" resolve against it. */
export const SCHEMA_BASE_URI = "https://guard.invalid/schema/v1/";

/** The loaded contract: one Ajv instance holding every schema, and the parsed documents to serve. */
export interface Contract {
  readonly root: string;
  readonly ajv: Ajv;
  /** Schema name (file name without `.json`, e.g. "guard-event") -> parsed, frozen document. */
  readonly documents: ReadonlyMap<string, object>;
  readonly openapi: object;
}

let current: Contract | undefined;

/**
 * Loads and compiles the contract from `root` (the repository root by default). Idempotent for the
 * default root: the bridge may call it at boot to fail fast, and every accessor below calls it lazily.
 */
export function loadContract(root?: string): Contract {
  if (root === undefined && current !== undefined) return current;
  const contract = readContract(root ?? findRepoRoot());
  if (root === undefined) current = contract;
  return contract;
}

/** Name -> parsed JSON of every schema file, for serving under /schema/v1/<name>.json. */
export function schemaDocuments(): ReadonlyMap<string, object> {
  return loadContract().documents;
}

/** The parsed OpenAPI description, for serving under /openapi.json. */
export function openapiDocument(): object {
  return loadContract().openapi;
}

/** The `$id` of the schema called `name` (file name without `.json`). */
export function schemaId(name: string): string {
  return `${SCHEMA_BASE_URI}${name}.json`;
}

function readContract(root: string): Contract {
  const dir = join(root, "openapi", "schemas");
  // strict: unknown keywords, formats and ambiguous types are schema bugs, not things to ignore.
  // strictRequired is the one exception: Ajv runs allOf/anyOf/if before `properties`, so it wrongly
  // flags a conditional `required` (heartbeat's one-of rule, error codes that need their fields); the
  // unit tests check instead that every top-level `required` key is a declared property.
  // No coercion, no removal of extra keys: a closed object must refuse, never silently repair.
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictRequired: false,
    coerceTypes: false,
    removeAdditional: false,
    // Only own properties count: a body assembled by code (the SSE header form) must not satisfy
    // `required` through a prototype.
    ownProperties: true,
  });
  addFormats(ajv, ["date-time"]);

  const documents = new Map<string, object>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const name = file.slice(0, -".json".length);
    const doc = deepFreeze(readJson(join(dir, file)));
    const id = (doc as { $id?: unknown }).$id;
    if (id !== schemaId(name)) {
      throw new Error(`contract: ${file} has $id ${String(id)}, expected ${schemaId(name)}`);
    }
    ajv.addSchema(doc);
    documents.set(name, doc);
  }
  // Compile everything now: this is what resolves (and checks) every relative $ref.
  for (const name of documents.keys()) ajv.getSchema(schemaId(name));

  const openapi = deepFreeze(readJson(join(root, "openapi", "openapi.json")));
  return { root, ajv, documents, openapi };
}

function readJson(file: string): object {
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new Error(`contract: ${file} is not a JSON object`);
  }
  return parsed;
}

/** Served documents are shared by every request; freezing keeps a handler from editing the contract. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
