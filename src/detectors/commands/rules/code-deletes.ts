import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { isCriticalDeleteTarget, isIrreplaceableStore, normalizePath } from "../paths.js";
import type { Analysis, CodeFragment } from "../shell/analyze.js";
import { type Hit, hitOn } from "./types.js";

/**
 * Recursive deletes written as library calls in interpreter code, judged like `rm -rf` of the
 * same target: `shutil.rmtree('/')`, `shutil.rmtree(Path.home())`, `fs.rmSync('/etc',
 * {recursive: true})`, `FileUtils.rm_rf(Dir.home)`, Perl's `remove_tree('/home')`. A code tool
 * reaches the file system through these, not through `rm`, so a rule that only reads shell
 * never sees them.
 */

/** Calls that delete a tree, by their own name; `deleterOf` checks what qualifies them. */
const TREE_DELETE =
  /\b(rmtree|remove_tree|rm_rf|rm_r|remove_dir|remove_entry_secure|remove_entry|removeSync|remove|emptyDirSync|rimraf|rmSync|rmdirSync|rmdir|rm)(?:\.sync)?\s*\(\s*/g;

/** What must stand before a deleting call's name, and whether the call must say `recursive: true`. */
interface Qualifier {
  readonly before: RegExp;
  readonly recursive: boolean;
}

function qualified(names: readonly string[], before: RegExp, recursive = false): [string, Qualifier][] {
  return names.map((name) => [name, { before, recursive }]);
}

const QUALIFIED: ReadonlyMap<string, Qualifier> = new Map([
  // shutil.rmtree, `from shutil import rmtree`, Perl's File::Path rmtree and remove_tree.
  ...qualified(["rmtree", "remove_tree"], /(?:shutil\.|File::Path::|^|[^.\w])$/),
  ...qualified(["rm_rf", "rm_r", "remove_dir", "remove_entry_secure", "remove_entry"], /FileUtils\.$/),
  ...qualified(["removeSync", "remove", "emptyDirSync"], /\bfse\.$/),
  ...qualified(["rimraf"], /(?:^|[^.\w])$/),
  // Node's fs.rm and fs.rmdir delete a tree only when told to; also on require('fs') and fs.promises.
  ...qualified(["rmSync", "rm", "rmdirSync", "rmdir"], /(?:\bfs\.|\bpromises\.|\)\.)$/, true),
]);

/** Expressions for the user's home directory across the languages. */
const HOME_EXPRESSIONS =
  /^(?:(?:pathlib\.)?Path\.home\(\)|os\.homedir\(\)|process\.env\.HOME|os\.environ\[\s*['"]HOME['"]\s*\]|os\.getenv\(\s*['"]HOME['"]\s*\)|ENV\[\s*['"]HOME['"]\s*\]|Dir\.home|\$ENV\{\s*HOME\s*\})$/;

/** A quoted literal, optionally raw (`r'...'`), wrapped in `Path(...)` or `os.path.expanduser(...)`. */
const LITERAL =
  /^(?:(?:pathlib\.)?Path\(|os\.path\.expanduser\(|File\.expand_path\()?\s*r?(?:'([^']*)'|"([^"]*)"|`([^`]*)`)\s*\)?$/;

/** The longest argument read; a call's first argument naming a path is far shorter. */
const MAX_ARGUMENT = 200;

export const codeDeletePatterns: readonly RegExp[] = [
  TREE_DELETE,
  HOME_EXPRESSIONS,
  LITERAL,
  ...[...QUALIFIED.values()].map((q) => q.before),
];

export function codeTreeDeletes(analysis: Analysis): Hit[] {
  const hits: Hit[] = [];
  for (const c of analysis.code) {
    const hit = treeDeleteIn(c);
    if (hit) hits.push(hit);
  }
  return hits;
}

function treeDeleteIn(c: CodeFragment): Hit | undefined {
  TREE_DELETE.lastIndex = 0;
  for (let m = TREE_DELETE.exec(c.code); m !== null; m = TREE_DELETE.exec(c.code)) {
    const qualified = QUALIFIED.get(m[1]!);
    if (!qualified?.before.test(c.code.slice(Math.max(0, m.index - 16), m.index))) continue;
    const call = callArguments(c.code, TREE_DELETE.lastIndex);
    if (qualified.recursive && !/recursive\s*:\s*true/.test(call.rest)) continue;
    const target = targetOf(call.first);
    if (target === undefined) continue;
    if (isCriticalDeleteTarget(target)) {
      return hitOn(
        c,
        "code-tree-delete",
        Severity.CRITICAL,
        0.9,
        `recursive delete of ${normalizePath(target)}`,
      );
    }
    if (isIrreplaceableStore(target)) {
      return hitOn(
        c,
        "code-tree-delete",
        Severity.HIGH,
        0.85,
        `recursive delete of ${normalizePath(target)}`,
      );
    }
  }
  return undefined;
}

/** The first argument of the call whose arguments start at `from`, and the rest up to its `)`. */
function callArguments(code: string, from: number): { first: string; rest: string } {
  let depth = 0;
  let comma = -1;
  const limit = Math.min(code.length, from + MAX_ARGUMENT);
  let k = from;
  for (; k < limit; k++) {
    const ch = code[k];
    if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if (ch === ")" || ch === "]" || ch === "}") {
      if (depth === 0) break;
      depth--;
    } else if (ch === "," && depth === 0 && comma === -1) comma = k;
  }
  const first = code.slice(from, comma === -1 ? k : comma).trim();
  return { first, rest: comma === -1 ? "" : code.slice(comma, k) };
}

/** The path a first argument names: a literal, or the home directory; undefined for anything computed. */
function targetOf(argument: string): string | undefined {
  if (HOME_EXPRESSIONS.test(argument)) return "~";
  const literal = LITERAL.exec(argument);
  return literal ? (literal[1] ?? literal[2] ?? literal[3]) : undefined;
}
