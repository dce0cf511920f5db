import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { isShellPath } from "../paths.js";
import { type Analysis, type Invocation, isShell, shellCommandString } from "../shell/analyze.js";
import { type Hit, hitOn, operands } from "./types.js";

/**
 * Shell escapes: an unrelated program made to start an interactive system shell (`vim -c
 * ':!/bin/sh'`, `awk 'BEGIN {system("/bin/sh")}'`, `find . -exec /bin/sh \;`, a `pty.spawn`).
 * An agent already has whatever command tool it was given; a program that hands over a raw
 * shell is how sandboxes and command allow-lists are escaped (the GTFOBins "shell" function).
 * Container and remote tools (`docker exec -it c /bin/sh`, `ssh`) and account tools
 * (`chsh -s /bin/bash`) take a shell path for honest reasons and are not matched, nor are
 * shebang lines written by `echo`.
 */

const EXEMPT: ReadonlySet<string> = new Set([
  "docker",
  "podman",
  "kubectl",
  "oc",
  "nerdctl",
  "lxc",
  "lxc-attach",
  "incus",
  "ssh",
  "mosh-client",
  "chsh",
  "usermod",
  "useradd",
  "adduser",
  "cat",
  "which",
  "type",
  "ls",
  "file",
  "stat",
  "readlink",
  "realpath",
  "test",
  "[",
  "grep",
  "ldd",
  "strings",
  "md5sum",
  "sha256sum",
  "tmux-new",
  "script-replay",
  "git",
  "vagrant",
  "multipass",
  "toolbox",
  "distrobox",
  "wsl",
  "gcloud",
  "az",
  "aws",
]);

/** A shell path as a token inside text: `system("/bin/sh")`, `!/bin/sh`, `'/bin/sh;false'`. */
const EMBEDDED_SHELL = /(^|[\s!'"(;:=,`{|.])(\/usr)?\/bin\/(ba|da|z|k|a)?sh($|[\s'")};,`&|])/;

/** Text with a shell path other than on a `#!` line. */
function mentionsShell(text: string): boolean {
  if (!EMBEDDED_SHELL.test(text)) return false;
  if (!text.includes("#!")) return true;
  return text.split("\n").some((line) => !line.includes("#!") && EMBEDDED_SHELL.test(line));
}

function spawnsShell(inv: Invocation): boolean {
  // `PAGER='/bin/sh -c ...' git -p help`: a program's hook pointed at a shell.
  if (inv.assignments.some((a) => mentionsShell(a.slice(a.indexOf("=") + 1)))) return true;
  if (inv.name === "" || isShell(inv.name)) return false;
  if (inv.name === "ssh" || inv.name === "scp" || inv.name === "sftp" || inv.name === "sshfs") {
    return inv.args.some((a) => /command=/i.test(a) && mentionsShell(a.slice(a.indexOf("=") + 1)));
  }
  if (EXEMPT.has(inv.name)) return false;
  return inv.args.some((a) => isShellPath(a) || mentionsShell(a));
}

/** `bash`, `sh -i`, `bash -p`: a shell with no script, reading the terminal. */
function bareShell(inv: Invocation): boolean {
  if (!isShell(inv.name) || inv.pipelineSize > 1) return false;
  if (shellCommandString(inv.args) !== undefined || operands(inv.args).length > 0) return false;
  // Input dups (`0<&2`) and the terminal keep it interactive; a file or here-document does not.
  return !inv.redirects.some(
    (r) =>
      (r.op === "<" && r.target.text !== "/dev/tty") || r.op === "<<" || r.op === "<<-" || r.op === "<<<",
  );
}

const CODE_SHELL =
  /pty\.spawn|os\.execl?p?\(\s?["']\/bin\/|system\(\s?["'](\/bin\/)?(ba)?sh["']|exec\s?["']\/bin\/(ba)?sh|Kernel\.exec|os\.execute\(\s?["']\/bin\/(ba)?sh/;

export function shellEscapes(analysis: Analysis): Hit[] {
  const hits: Hit[] = [];
  for (const inv of analysis.invocations) {
    if (spawnsShell(inv))
      hits.push(hitOn(inv, "shell-escape", Severity.MEDIUM, 0.7, `${inv.name} spawns a system shell`));
    else if (bareShell(inv)) {
      const privileged = inv.args.includes("-p");
      hits.push(
        hitOn(
          inv,
          "interactive-shell",
          privileged ? Severity.HIGH : Severity.LOW,
          privileged ? 0.8 : 0.4,
          privileged ? "starts a shell keeping set-uid privileges" : "starts an interactive shell",
        ),
      );
    }
  }
  for (const c of analysis.code) {
    if (CODE_SHELL.test(c.code) || mentionsShell(c.code))
      hits.push(hitOn(c, "code-shell", Severity.MEDIUM, 0.75, `${c.interpreter} code spawns a system shell`));
  }
  return hits;
}
