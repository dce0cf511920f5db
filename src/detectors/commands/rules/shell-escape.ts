import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { isShellPath, normalizePath } from "../paths.js";
import { type Invocation, isShell, SHELLS, shellCommandString } from "../shell/analyze.js";
import { basename } from "../shell/wrappers.js";
import { ruleModule, Trait } from "./dispatch.js";
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
  // `-H/bin/sh`: a shell given as the value of a one-letter option.
  // All three shapes hold a slash; most arguments have none.
  return inv.args.some(
    (a) =>
      a.includes("/") &&
      (isShellPath(a) || mentionsShell(a) || (/^-[A-Za-z]\//.test(a) && mentionsShell(a.slice(2)))),
  );
}

const EDITORS: ReadonlySet<string> = new Set(["vi", "vim", "nvim", "ex", "view", "rvim", "rview", "vimdiff"]);

/** `vi -c ':shell'`, `vim +sh`: an editor told to start a shell on opening. */
function editorShell(inv: Invocation): boolean {
  if (!EDITORS.has(inv.name)) return false;
  const commands: string[] = [];
  for (let k = 0; k < inv.args.length; k++) {
    const a = inv.args[k]!;
    if (a === "-c" || a === "--cmd") commands.push(inv.args[k + 1] ?? "");
    else if (a.startsWith("+")) commands.push(a.slice(1));
  }
  return commands.some((c) =>
    c.split("|").some((part) => {
      const ex = part.trim().replace(/^:+/, "").trim();
      return ex === "sh" || ex === "shell" || ex.startsWith("sh ") || ex.startsWith("shell ");
    }),
  );
}

/**
 * Programs that open an interactive shell without naming one: terminal multiplexers and session
 * recorders started bare, `capsh --`, `sg group`, `ansible-test shell`, the Tcl shells. Judged
 * like a bare `bash`: an interactive shell in an agent's command is a way around reviewing
 * what runs next.
 */
const OPENS_SHELL = ["screen", "tmux", "script", "capsh", "sg", "newgrp", "ansible-test", "tclsh", "wish"];

function opensShell(inv: Invocation): string | undefined {
  const a = inv.args;
  switch (inv.name) {
    case "screen":
      // Bare only: `screen -r`, `screen -ls`, `screen -S name cmd` manage sessions.
      return a.length === 0 ? "screen starts a shell" : undefined;
    case "tmux": {
      let k = 0;
      while (k < a.length && a[k]!.startsWith("-")) k += /^-[SLfc]$/.test(a[k]!) ? 2 : 1;
      return k >= a.length && !a.includes("-c") && !a.includes("-V") ? "tmux starts a shell" : undefined;
    }
    case "script":
      return a.some((x) => x === "-c" || x.startsWith("--command")) ? undefined : "script starts a shell";
    case "capsh":
      return a.at(-1) === "--" ? "capsh starts a shell" : undefined;
    case "sg":
      return operands(a).length === 1 && !a.includes("-c")
        ? "sg starts a shell with another group"
        : undefined;
    case "newgrp":
      return "newgrp starts a shell with another group";
    case "ansible-test":
      return a[0] === "shell" && !a.includes("--") ? "ansible-test opens a shell" : undefined;
    case "tclsh":
    case "wish":
      return operands(a).length === 0 &&
        inv.pipelineSize === 1 &&
        !inv.redirects.some((r) => r.op.startsWith("<"))
        ? `${inv.name} starts an interactive Tcl shell, which runs system commands`
        : undefined;
    default:
      return undefined;
  }
}

/** `xargs -o ... /bin/sh`: xargs reopens the terminal as the shell's input. */
function xargsTerminalShell(inv: Invocation): boolean {
  if (!isShell(inv.name) || basename(inv.words[0] ?? "") !== "xargs") return false;
  const programAt = inv.words.length - inv.args.length - 1;
  const wrapperWords = inv.words.slice(1, programAt);
  return (
    (wrapperWords.includes("-o") || wrapperWords.includes("--open-tty")) &&
    shellCommandString(inv.args) === undefined &&
    operands(inv.args).length === 0
  );
}

const BINARY_DIRS: ReadonlySet<string> = new Set([
  "/bin",
  "/sbin",
  "/usr/bin",
  "/usr/sbin",
  "/usr/local/bin",
]);

/** `run-parts /bin --regex '^sh$'`: run-parts made to execute system programs, a shell among them. */
function runPartsBinaries(inv: Invocation): boolean {
  return inv.name === "run-parts" && operands(inv.args).some((d) => BINARY_DIRS.has(normalizePath(d)));
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

export const shellEscapePatterns: readonly RegExp[] = [EMBEDDED_SHELL, CODE_SHELL];

/** One finding per command: the most specific way it hands over a shell. */
function shellEscape(inv: Invocation, hits: Hit[]): void {
  const opened = opensShell(inv);
  if (editorShell(inv) || xargsTerminalShell(inv) || runPartsBinaries(inv))
    hits.push(hitOn(inv, "shell-escape", Severity.MEDIUM, 0.7, `${inv.name} spawns a system shell`));
  else if (opened !== undefined) {
    const root = inv.args.includes("--uid=0") || inv.args.includes("root") || inv.elevated;
    hits.push(
      hitOn(inv, "interactive-shell", root ? Severity.MEDIUM : Severity.LOW, root ? 0.6 : 0.4, opened),
    );
  } else if (spawnsShell(inv))
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

export const shellEscapes = ruleModule({
  name: "shell-escape",
  commands: [
    {
      programs: [...EDITORS, ...SHELLS, "run-parts", ...OPENS_SHELL],
      // Any program given a shell path (`-H/bin/sh`, `PAGER=/bin/sh`) can start it.
      traits: [Trait.slash, Trait.assignment],
      check: shellEscape,
    },
  ],
  after(analysis, hits) {
    for (const c of analysis.code) {
      if (CODE_SHELL.test(c.code) || mentionsShell(c.code))
        hits.push(
          hitOn(c, "code-shell", Severity.MEDIUM, 0.75, `${c.interpreter} code spawns a system shell`),
        );
    }
  },
});
