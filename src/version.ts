import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findRepoRoot } from "./contract/repo-root.js";

/** The package version, read once (works from src/ under vitest and from dist/src/). */
export const VERSION: string = (
  JSON.parse(readFileSync(join(findRepoRoot(import.meta.url), "package.json"), "utf8")) as { version: string }
).version;

/** The Verdict's `provider`: which runtime judged. */
export const PROVIDER = `guard/${VERSION}`;
