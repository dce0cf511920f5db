import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { append } from "../append.js";
import { isBlockDevice, isCriticalDeleteTarget, isIrreplaceableStore, normalizePath } from "../paths.js";
import type { Analysis, Invocation } from "../shell/analyze.js";
import { codeTreeDeletes } from "./code-deletes.js";
import { ruleModule, Trait } from "./dispatch.js";
import {
  findRoots,
  flagSet,
  type Hit,
  hitOn,
  operands,
  optionValue,
  pushHit,
  redirectWrites,
} from "./types.js";

/**
 * Commands that destroy data or the system: recursive deletes of `/`, home or system
 * directories, disk wipes, formatting devices, writing over a device, fork bombs. Deleting a
 * build directory or `node_modules` is routine and is deliberately not matched: only targets
 * whose loss is catastrophic count.
 */

function rm(inv: Invocation): Hit[] {
  const flags = flagSet(inv.args);
  const recursive = flags.has("-r") || flags.has("-R") || flags.has("--recursive");
  if (flags.has("--no-preserve-root")) {
    return [
      hitOn(inv, "rm-no-preserve-root", Severity.CRITICAL, 0.99, "recursive delete of the root file system"),
    ];
  }
  if (!recursive) return [];
  const targets = operands(inv.args);
  const target = targets.find(isCriticalDeleteTarget);
  if (target !== undefined)
    return [
      hitOn(inv, "rm-critical", Severity.CRITICAL, 0.95, `recursive delete of ${normalizePath(target)}`),
    ];
  const store = targets.find(isIrreplaceableStore);
  if (store === undefined) return [];
  return [hitOn(inv, "rm-store", Severity.HIGH, 0.85, `recursive delete of ${normalizePath(store)}`)];
}

function find(inv: Invocation): Hit[] {
  if (!findRoots(inv.args).some(isCriticalDeleteTarget)) return [];
  const deletes =
    inv.args.includes("-delete") ||
    inv.args.some(
      (a, k) => (a === "-exec" || a === "-execdir") && /^(\/bin\/)?(rm|shred)$/.test(inv.args[k + 1] ?? ""),
    );
  return deletes
    ? [hitOn(inv, "find-delete", Severity.CRITICAL, 0.9, "find deleting from a system directory")]
    : [];
}

function wipe(inv: Invocation): Hit | undefined {
  switch (inv.name) {
    case "wipefs":
      return hitOn(inv, "wipefs", Severity.CRITICAL, 0.9, "wipes file system signatures");
    case "blkdiscard":
      return operands(inv.args).some(isBlockDevice)
        ? hitOn(inv, "blkdiscard", Severity.CRITICAL, 0.95, "discards every block of a disk device")
        : undefined;
    case "shred": {
      const targets = operands(inv.args);
      if (targets.some((t) => isBlockDevice(t) || isCriticalDeleteTarget(t))) {
        return hitOn(inv, "shred-device", Severity.CRITICAL, 0.95, "shreds a disk or system directory");
      }
      return undefined;
    }
    case "dd": {
      const of = inv.args.find((a) => a.startsWith("of="));
      if (of !== undefined && isBlockDevice(of.slice(3))) {
        return hitOn(inv, "dd-device", Severity.CRITICAL, 0.95, "dd writing over a disk device");
      }
      return undefined;
    }
    case "sgdisk":
    case "fdisk":
    case "sfdisk":
    case "parted": {
      const zap = inv.args.some(
        (a) => a === "-Z" || a === "--zap-all" || a === "mklabel" || a === "--delete",
      );
      return zap && inv.args.some(isBlockDevice)
        ? hitOn(inv, "partition-wipe", Severity.CRITICAL, 0.85, "erases a disk's partition table")
        : undefined;
    }
    default:
      return undefined;
  }
}

function deviceOverwrite(inv: Invocation): Hit | undefined {
  // Only redirections, `tee` and `cp` write anywhere below.
  if (inv.redirects.length === 0 && inv.name !== "tee" && inv.name !== "cp") return undefined;
  const writes = redirectWrites(inv);
  if (inv.name === "tee") append(writes, operands(inv.args));
  const last = operands(inv.args).at(-1);
  if (inv.name === "cp" && last !== undefined) writes.push(last);
  return writes.some(isBlockDevice)
    ? hitOn(inv, "device-overwrite", Severity.CRITICAL, 0.95, "writes over a disk device")
    : undefined;
}

function recursivePermissions(inv: Invocation): Hit | undefined {
  if (inv.name !== "chmod" && inv.name !== "chown" && inv.name !== "chgrp") return undefined;
  const flags = flagSet(inv.args);
  if (!flags.has("-R") && !flags.has("--recursive")) return undefined;
  const targets = operands(inv.args).slice(1);
  return targets.some(
    (t) => normalizePath(t) === "/" || normalizePath(t) === "/etc" || normalizePath(t) === "/usr",
  )
    ? hitOn(inv, "recursive-perms-root", Severity.HIGH, 0.85, `recursive ${inv.name} of a system tree`)
    : undefined;
}

function killAll(inv: Invocation): Hit | undefined {
  if (inv.name !== "kill") return undefined;
  return operands(inv.args).includes("-1") || inv.args.includes("-1")
    ? hitOn(inv, "kill-all", Severity.HIGH, 0.8, "kills every process the user can signal")
    : undefined;
}

const OUTPUT_OPTION: readonly string[] = ["--output"];

/** A function that pipes into or backgrounds a call to itself: `:(){ :|:& };:`. */
function forkBombs(analysis: Analysis): Hit[] {
  if (analysis.functions.length === 0) return [];
  const names = new Set(analysis.functions.map((f) => f.name));
  const hits: Hit[] = [];
  for (const p of analysis.pipelines) {
    const members = p.invocations;
    if (members.length >= 2 && members.every((m) => names.has(m.name) && m.name === members[0]!.name)) {
      const def = analysis.functions.find((f) => f.name === members[0]!.name)!;
      hits.push(hitOn({ start: def.start, end: p.end }, "fork-bomb", Severity.CRITICAL, 0.95, "fork bomb"));
    }
  }
  return hits;
}

/** Fork bombs in interpreter one-liners (`perl -e 'fork while fork'`). */
function codeForkBombs(analysis: Analysis): Hit[] {
  return analysis.code
    .filter((c) =>
      /fork while (?:fork|1)|while\s?\(?\s?(1|True|true)\s?\)?\s?:?\s?\{?\s?(os\.)?fork\(\)/.test(c.code),
    )
    .map((c) => hitOn(c, "fork-bomb-code", Severity.CRITICAL, 0.9, "fork bomb"));
}

/** `mkfs.ext4 /dev/sdb1`: the formatters are a family of names, so this reads every command. */
function formats(inv: Invocation): Hit | undefined {
  return inv.name.startsWith("mk") &&
    /^(mkfs(\.[a-z0-9]+)?|mke2fs|mkswap|mkntfs|mkdosfs)$/.test(inv.name) &&
    inv.args.some(isBlockDevice)
    ? hitOn(inv, "mkfs-device", Severity.CRITICAL, 0.9, "formats a disk device")
    : undefined;
}

/** `--output /dev/sda` given to any program but dd (whose `of=` is judged by `wipe`). */
function outputToDevice(inv: Invocation): Hit | undefined {
  const of = inv.name === "dd" ? undefined : optionValue(inv.args, OUTPUT_OPTION);
  return of !== undefined && isBlockDevice(of)
    ? hitOn(inv, "device-overwrite", Severity.CRITICAL, 0.9, "writes over a disk device")
    : undefined;
}

export const destructive = ruleModule({
  name: "destructive",
  commands: [
    // Each check tests the program itself too: the dispatch may only skip work, never decide.
    {
      programs: ["rm"],
      check(inv, hits) {
        if (inv.name === "rm") append(hits, rm(inv));
      },
    },
    {
      programs: ["find"],
      check(inv, hits) {
        if (inv.name === "find") append(hits, find(inv));
      },
    },
    {
      programs: ["wipefs", "blkdiscard", "shred", "dd", "sgdisk", "fdisk", "sfdisk", "parted"],
      check: (inv, hits) => pushHit(hits, wipe(inv)),
    },
    // Disk devices are paths under /dev/, named by an argument or a redirection target (isBlockDevice).
    { programs: [], traits: [Trait.device], check: (inv, hits) => pushHit(hits, formats(inv)) },
    { programs: [], traits: [Trait.device], check: (inv, hits) => pushHit(hits, deviceOverwrite(inv)) },
    { programs: ["chmod", "chown", "chgrp"], check: (inv, hits) => pushHit(hits, recursivePermissions(inv)) },
    { programs: ["kill"], check: (inv, hits) => pushHit(hits, killAll(inv)) },
    { programs: [], traits: [Trait.device], check: (inv, hits) => pushHit(hits, outputToDevice(inv)) },
  ],
  after(analysis, hits) {
    append(hits, forkBombs(analysis));
    append(hits, codeForkBombs(analysis));
    append(hits, codeTreeDeletes(analysis));
  },
});
