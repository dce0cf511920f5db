import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Finds the repository root by walking up from `fromUrl` to the first directory that holds both
 * `package.json` and `openapi/`. The contract code runs from `src/` (vitest, tsx) and compiled from
 * `dist/src/`, so a fixed relative path would be right in only one of the two; checking for
 * `openapi/` as well keeps a stray package.json (say in a bundled dist) from being taken for the root.
 */
export function findRepoRoot(fromUrl: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(fromUrl));
  for (;;) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "openapi"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(
        `contract: no directory with package.json and openapi/ above ${fileURLToPath(fromUrl)}`,
      );
    }
    dir = parent;
  }
}
