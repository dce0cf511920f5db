import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { append } from "../append.js";
import { isPrivilegeFile, isShellPath, normalizePath } from "../paths.js";
import { type Invocation, isShell, shellCommandString } from "../shell/analyze.js";
import { ruleModule, Trait } from "./dispatch.js";
import { type Hit, hitOn, operands, optionValue, pushHit, READ_ONLY, redirectWrites } from "./types.js";

/**
 * Gaining privileges: set-uid bits, edits of sudoers or the account databases, joining
 * administrative groups, file capabilities that allow `setuid`, and root shells opened
 * through sudo.
 */

const ADMIN_GROUPS = /(^|,)(sudo|wheel|admin|root|adm|docker|lxd|disk|shadow)(,|$)/;

/** The mode a command sets: chmod's first operand, `install -m`/`mkdir -m`. */
function modeSet(inv: Invocation): string | undefined {
  if (inv.name === "chmod") return operands(inv.args)[0];
  if (inv.name === "install" || inv.name === "mkdir") return optionValue(inv.args, ["-m", "--mode"]);
  return undefined;
}

function setuid(inv: Invocation): Hit | undefined {
  const mode = modeSet(inv);
  if (mode === undefined) return undefined;
  const symbolic = /^[ugoa]*[+=][rwxXt]*s/.test(mode);
  const numeric = /^[0-7]?[2467][0-7]{3}$/.test(mode);
  if (!symbolic && !numeric) return undefined;
  const shells = operands(inv.args)
    .slice(inv.name === "chmod" ? 1 : 0)
    .some((t) => isShellPath(t) || isShell(t.slice(t.lastIndexOf("/") + 1)));
  return hitOn(
    inv,
    "setuid",
    shells ? Severity.CRITICAL : Severity.HIGH,
    shells ? 0.95 : 0.8,
    "sets the set-uid/set-gid bit",
  );
}

function groups(inv: Invocation): Hit | undefined {
  const args = inv.args;
  let group: string | undefined;
  if (inv.name === "usermod" || inv.name === "useradd") {
    const k = args.findIndex((a) => a === "-G" || a === "-aG" || a === "--groups" || a === "-g");
    group = k === -1 ? undefined : args[k + 1];
    if (
      (args.includes("-o") || args.includes("--non-unique")) &&
      args.some((a, j) => a === "-u" && args[j + 1] === "0")
    ) {
      return hitOn(inv, "uid-zero-user", Severity.CRITICAL, 0.9, "creates a second uid-0 account");
    }
  } else if (inv.name === "gpasswd" && args.includes("-a")) {
    group = operands(args)[1];
  } else if (inv.name === "adduser" || inv.name === "addgroup") {
    const ops = operands(args);
    group = ops.length === 2 ? ops[1] : undefined;
  }
  return group !== undefined && ADMIN_GROUPS.test(group)
    ? hitOn(inv, "admin-group", Severity.HIGH, 0.85, `adds a user to the ${group} group`)
    : undefined;
}

function privilegeFileWrites(inv: Invocation): Hit | undefined {
  const targets = redirectWrites(inv);
  if (inv.name === "tee") append(targets, operands(inv.args));
  if (
    (inv.name === "cp" || inv.name === "mv" || inv.name === "install" || inv.name === "ln") &&
    operands(inv.args).length >= 2
  ) {
    targets.push(operands(inv.args).at(-1)!);
  }
  if (inv.name === "sed" && inv.args.some((a) => a.startsWith("-i") || a === "--in-place"))
    append(targets, operands(inv.args).slice(1));
  if (inv.name === "visudo") return hitOn(inv, "sudoers-edit", Severity.HIGH, 0.6, "edits sudoers");
  if (inv.name === "passwd" && operands(inv.args)[0] === "root")
    return hitOn(inv, "root-password", Severity.HIGH, 0.7, "changes the root password");
  const fed = inv.position > 0 || inv.redirects.some((r) => r.op === "<<<" || r.op === "<<" || r.op === "<");
  if ((inv.name === "passwd" && fed) || inv.name === "chpasswd")
    return hitOn(inv, "scripted-password", Severity.MEDIUM, 0.65, "sets an account password from a script");
  const hit = targets.find(isPrivilegeFile);
  if (hit !== undefined) {
    return hitOn(inv, "privilege-file-write", Severity.CRITICAL, 0.9, `modifies ${normalizePath(hit)}`);
  }
  if ((inv.name === "echo" || inv.name === "printf") && inv.args.some((a) => a.includes("NOPASSWD"))) {
    return hitOn(inv, "nopasswd", Severity.HIGH, 0.8, "writes a password-less sudo rule");
  }
  return undefined;
}

function capabilities(inv: Invocation): Hit | undefined {
  if (inv.name !== "setcap") return undefined;
  return inv.args.some((a) => /cap_(setuid|setgid|sys_admin|dac_override|dac_read_search|sys_ptrace)/.test(a))
    ? hitOn(inv, "setcap", Severity.HIGH, 0.85, "grants a privileged capability to a program")
    : undefined;
}

/** `sudo -i`, `sudo su`, `sudo bash`: an interactive root shell. */
function rootShell(inv: Invocation): Hit | undefined {
  if (!inv.elevated) return undefined;
  const interactive =
    inv.name === "" ||
    inv.name === "su" ||
    (isShell(inv.name) && shellCommandString(inv.args) === undefined && operands(inv.args).length === 0);
  return interactive
    ? hitOn(inv, "root-shell", Severity.MEDIUM, 0.6, "opens an interactive root shell")
    : undefined;
}

/** Other programs run through sudo that are given a shell to start (GTFOBins sudo escapes). */
function sudoEscape(inv: Invocation): Hit | undefined {
  if (!inv.elevated || isShell(inv.name) || READ_ONLY.has(inv.name) || inv.name === "") return undefined;
  return inv.args.some((a) => isShellPath(a) || /(^|[\s!'"(;])\/bin\/(ba)?sh([\s'");]|$)/.test(a))
    ? hitOn(inv, "sudo-shell-escape", Severity.HIGH, 0.85, `${inv.name} run as root spawns a shell`)
    : undefined;
}

/** `git apply --unsafe-paths`: a patch allowed to write outside the repository, anywhere. */
function unsafePatch(inv: Invocation): Hit | undefined {
  return inv.name === "git" && inv.args.includes("apply") && inv.args.includes("--unsafe-paths")
    ? hitOn(inv, "unsafe-patch", Severity.MEDIUM, 0.7, "git apply allowed to write outside the repository")
    : undefined;
}

/** `dosbox -c 'mount c /'`: an emulator given the host's root file system to read and write. */
function emulatorRootMount(inv: Invocation): Hit | undefined {
  if (inv.name !== "dosbox") return undefined;
  const mounts = inv.args.some((a) => {
    const words = a.trim().split(/\s+/);
    return words[0]?.toLowerCase() === "mount" && words[2] === "/";
  });
  return mounts
    ? hitOn(inv, "host-root-mount", Severity.MEDIUM, 0.7, "mounts the host root file system into an emulator")
    : undefined;
}

const CONTAINER_TOOLS: ReadonlySet<string> = new Set(["docker", "podman", "nerdctl", "ctr", "lxc", "incus"]);

/** Files that must stay unreadable by others (password hashes, sudo rules), not only unwritable. */
const SECRET_PRIVILEGE_FILE = /^\/etc\/(?:g?shadow-?|sudoers(?:\.d(?:\/.*)?)?)$/;

/** A symbolic mode by which others (`o`, `a`, or no one named, meaning all) gain write, or read. */
const OTHERS_GAIN_WRITE = /(?:^|,)(?:[ug]*[oa][ugoa]*)?\+[rwxXst]*w/;
const OTHERS_GAIN_READ = /(?:^|,)(?:[ug]*[oa][ugoa]*)?\+[rwxXst]*r/;

/** Whether chmod's `mode` lets group or others write `file`, or others read it when it is secret. */
function modeOpens(mode: string, file: string): boolean {
  const secret = SECRET_PRIVILEGE_FILE.test(normalizePath(file));
  const numeric = /^[0-7]{3,4}$/.test(mode);
  if (numeric) {
    const others = Number(mode.at(-1));
    const group = Number(mode.at(-2));
    return (group & 2) !== 0 || (others & 2) !== 0 || (secret && (others & 4) !== 0);
  }
  return OTHERS_GAIN_WRITE.test(mode) || (secret && OTHERS_GAIN_READ.test(mode));
}

/**
 * `chmod 666 /etc/shadow`, `chmod o+r /etc/sudoers`, `chown mallory /etc/passwd`: the account and
 * sudo files opened to others, which reads every password hash or grants root. Their usual modes
 * (`640 /etc/shadow`, `440 /etc/sudoers`, `644 /etc/passwd`) and root ownership are left alone.
 */
function privilegeFileOpened(inv: Invocation): Hit | undefined {
  if (inv.name !== "chmod" && inv.name !== "chown" && inv.name !== "chgrp") return undefined;
  const ops = operands(inv.args);
  const spec = ops[0] ?? "";
  const file = ops.slice(1).find(isPrivilegeFile);
  if (file === undefined) return undefined;
  const opens =
    inv.name === "chmod"
      ? modeOpens(spec, file)
      : !/^(?:root|0)?(?:[:.](?:root|shadow|0))?$/.test(inv.name === "chgrp" ? `:${spec}` : spec);
  return opens
    ? hitOn(inv, "privilege-file-opened", Severity.HIGH, 0.85, `opens ${normalizePath(file)} to others`)
    : undefined;
}

/** A container given the host's root file system (`-v /:/mnt`, `source=/`): root on the host. */
function hostRootMount(inv: Invocation): Hit | undefined {
  if (!CONTAINER_TOOLS.has(inv.name)) return undefined;
  const mountsRoot = inv.args.some((a) => a.startsWith("/:/") || /(^|,)(src|source)=\/(,|$)/.test(a));
  return mountsRoot
    ? hitOn(inv, "host-root-mount", Severity.HIGH, 0.85, "mounts the host root file system into a container")
    : undefined;
}

export const privilege = ruleModule({
  name: "privilege",
  commands: [
    { programs: ["chmod", "install", "mkdir"], check: (inv, hits) => pushHit(hits, setuid(inv)) },
    { programs: ["chmod", "chown", "chgrp"], check: (inv, hits) => pushHit(hits, privilegeFileOpened(inv)) },
    {
      programs: ["usermod", "useradd", "gpasswd", "adduser", "addgroup"],
      check: (inv, hits) => pushHit(hits, groups(inv)),
    },
    {
      // Redirections write privilege files whatever the program.
      programs: ["tee", "cp", "mv", "install", "ln", "sed", "visudo", "passwd", "chpasswd", "echo", "printf"],
      traits: [Trait.redirect],
      check: (inv, hits) => pushHit(hits, privilegeFileWrites(inv)),
    },
    { programs: ["setcap"], check: (inv, hits) => pushHit(hits, capabilities(inv)) },
    // Anything run through sudo.
    { programs: [], traits: [Trait.elevated], check: (inv, hits) => pushHit(hits, rootShell(inv)) },
    { programs: [], traits: [Trait.elevated], check: (inv, hits) => pushHit(hits, sudoEscape(inv)) },
    { programs: [...CONTAINER_TOOLS], check: (inv, hits) => pushHit(hits, hostRootMount(inv)) },
    { programs: ["git"], check: (inv, hits) => pushHit(hits, unsafePatch(inv)) },
    { programs: ["dosbox"], check: (inv, hits) => pushHit(hits, emulatorRootMount(inv)) },
  ],
});
