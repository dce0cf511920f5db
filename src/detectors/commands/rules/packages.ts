import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import type { Invocation } from "../shell/analyze.js";
import { ruleModule } from "./dispatch.js";
import { flagSet, type Hit, hitOn, operands } from "./types.js";

/**
 * Packages installed from outside a signed repository. A package's install scripts run as root,
 * so a crafted package file is a classic way from `sudo dpkg -i` to a root shell (GTFOBins
 * `dpkg`, `rpm`, `snap`, `pkg` entries). Installing a local package file is common enough in
 * honest setup steps to weigh LOW; turning signature checks or confinement off, or installing
 * straight from a URL, weighs MEDIUM. Installs by package name from the configured
 * repositories (`apt install curl`, `dnf install git`) are not matched.
 */

const PACKAGE_FILE = /\.(deb|rpm|ipk|apk|txz|tgz|pkg|snap)$/;
const UNSIGNED_FLAGS: ReadonlySet<string> = new Set([
  "--nogpgcheck",
  "--no-gpg-checks",
  "--allow-unauthenticated",
  "--nosignature",
  "--force-bad-verify",
  "--dangerous",
  "--devmode",
  "--allow-untrusted",
]);

function isUrl(arg: string): boolean {
  return /^(https?|ftp):\/\//i.test(arg);
}

function isPackageFile(arg: string): boolean {
  return PACKAGE_FILE.test(arg) && !isUrl(arg);
}

/** Package file operands of an install, or undefined when the command installs nothing. */
function installs(inv: Invocation): readonly string[] | undefined {
  const a = inv.args;
  // Operands are listed inside each case: most commands are none of these and need none.
  switch (inv.name) {
    case "dpkg":
      return a.some((x) => x === "-i" || x === "--install" || /^-[a-hj-zA-Z]*i[a-zA-Z]*$/.test(x))
        ? operands(a)
        : undefined;
    case "rpm": {
      const flags = flagSet(a);
      return flags.has("-i") ||
        flags.has("-U") ||
        flags.has("-F") ||
        flags.has("--install") ||
        flags.has("--upgrade")
        ? operands(a)
        : undefined;
    }
    case "apt":
    case "apt-get":
    case "yum":
    case "dnf":
    case "zypper":
    case "pkg":
    case "opkg":
    case "snap":
    case "apk": {
      const ops = operands(a);
      return ops[0] === "install" || ops[0] === "localinstall" || ops[0] === "add" || ops[0] === "in"
        ? ops.slice(1)
        : undefined;
    }
    default:
      return undefined;
  }
}

/** Package managers `installs` reads. */
const INSTALLERS = ["dpkg", "rpm", "apt", "apt-get", "yum", "dnf", "zypper", "pkg", "opkg", "snap", "apk"];

function packageInstall(inv: Invocation, hits: Hit[]): void {
  const targets = installs(inv);
  if (targets === undefined) return;
  const unsigned = inv.args.find((x) => UNSIGNED_FLAGS.has(x));
  if (unsigned !== undefined) {
    hits.push(hitOn(inv, "unsigned-package", Severity.MEDIUM, 0.7, `${inv.name} install with ${unsigned}`));
  } else if (targets.some(isUrl)) {
    hits.push(
      hitOn(
        inv,
        "package-from-url",
        Severity.MEDIUM,
        0.7,
        `${inv.name} installs a package straight from a URL`,
      ),
    );
  } else if (targets.some(isPackageFile)) {
    hits.push(
      hitOn(
        inv,
        "package-file",
        inv.elevated ? Severity.MEDIUM : Severity.LOW,
        0.45,
        `${inv.name} installs a package file whose scripts run as root`,
      ),
    );
  }
}

export const packages = ruleModule({
  name: "packages",
  commands: [{ programs: INSTALLERS, check: packageInstall }],
});
