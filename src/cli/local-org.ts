import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { parseConfig } from "../config/load.js";
import { CliError } from "./errors.js";

type RawKey = Record<string, unknown> & { id?: unknown };
type RawOrg = Record<string, unknown> & { id?: unknown; keys?: RawKey[] };
type RawDocument = { orgs: RawOrg[] } & Record<string, unknown>;

/** The embedded default's configuration document (`<data>/local-org.json`), as plain JSON. */
export function readLocalOrg(path: string): RawDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
  }
  if (typeof doc !== "object" || doc === null || !Array.isArray((doc as RawDocument).orgs))
    throw new CliError(`${path} has no orgs list`);
  return doc as RawDocument;
}

/**
 * Writes the document back only if the service would accept it (parsed as the service parses it),
 * through a temporary file and a rename: a crash mid-write never leaves a half file that would
 * stop the next start.
 */
export function writeLocalOrg(path: string, doc: RawDocument): void {
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  try {
    parseConfig(text);
  } catch (error) {
    throw new CliError(`refusing to write ${path}: ${(error as Error).message}`);
  }
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, path);
}

export function orgOf(doc: RawDocument, orgId: string, path: string): RawOrg {
  const org = doc.orgs.find((o) => o.id === orgId);
  if (!org) throw new CliError(`no organization ${orgId} in ${path}`);
  return org;
}
