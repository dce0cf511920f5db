import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { type Analysis, type Invocation, isShell, SHELLS, shellCommandString } from "../shell/analyze.js";
import type { Pipeline } from "../shell/ast.js";
import { NameSet } from "../shell/name-table.js";
import { basename } from "../shell/wrappers.js";
import { ruleModule, Trait } from "./dispatch.js";
import { type Hit, hitOn, isPythonName, operands, optionValue, pushHit, redirectWrites } from "./types.js";

/**
 * Running code fetched from the network without review: `curl | sh`, `bash <(curl ...)`,
 * `sh -c "$(wget -O- ...)"`, or a download that is made executable and run. Piping a download
 * into `jq`, `tar` or a file is ordinary and does not match; only an executor on the receiving
 * end does. Decoding into a shell (`base64 -d | sh`) is reported too, since it hides the script.
 */

const FETCHERS = new NameSet(["curl", "wget", "fetch", "lwp-request", "GET", "http", "xh", "aria2c"]);
const INTERPRETERS: ReadonlySet<string> = new Set([
  "perl",
  "ruby",
  "node",
  "nodejs",
  "php",
  "lua",
  "Rscript",
]);

/** `python`, `python3.11`, `perl`, ...: programs that run a script named or read on standard input. */
function isInterpreter(name: string): boolean {
  return INTERPRETERS.has(name) || isPythonName(name);
}
const DECODERS = new NameSet(["base64", "base32", "xxd", "openssl", "uudecode", "rev"]);

/**
 * Installers their vendors document as `curl ... | sh` (rustup, uv, nvm, Homebrew, Docker, ...):
 * the usual way to install these tools, fetched over HTTPS from the vendor's own host (and, on
 * GitHub, the vendor's own repository). Run from there, the installer is reported low, to be
 * seen rather than blocked; from any other address it stays high.
 */
const VENDOR_INSTALLERS: readonly (readonly [host: string, pathPrefix: string])[] = [
  ["sh.rustup.rs", "/"],
  ["astral.sh", "/uv/"],
  ["astral.sh", "/ruff/"],
  ["bun.sh", "/install"],
  ["deno.land", "/install.sh"],
  ["get.pnpm.io", "/install.sh"],
  ["install.python-poetry.org", "/"],
  ["get.docker.com", "/"],
  ["deb.nodesource.com", "/setup_"],
  ["rpm.nodesource.com", "/setup_"],
  ["raw.githubusercontent.com", "/nvm-sh/nvm/"],
  ["raw.githubusercontent.com", "/Homebrew/install/"],
  ["raw.githubusercontent.com", "/helm/helm/"],
  ["get.helm.sh", "/"],
  ["starship.rs", "/install.sh"],
  ["ollama.com", "/install.sh"],
  ["tailscale.com", "/install.sh"],
  ["fnm.vercel.app", "/install"],
  ["get.k3s.io", "/"],
  ["sdk.cloud.google.com", "/"],
  // Their Windows counterparts, documented as `irm <url> | iex`.
  ["community.chocolatey.org", "/install.ps1"],
  ["get.scoop.sh", "/"],
  ["deno.land", "/install.ps1"],
  ["get.pnpm.io", "/install.ps1"],
];

/** Whether `word` is an HTTPS address of a vendor's documented installer (VENDOR_INSTALLERS). */
function isVendorInstaller(word: string): boolean {
  if (!word.startsWith("https://")) return false;
  let url: URL;
  try {
    url = new URL(word);
  } catch {
    return false;
  }
  return VENDOR_INSTALLERS.some(([host, path]) => url.host === host && url.pathname.startsWith(path));
}

/** Whether `words` name at least one address, and every address they name is a vendor's installer. */
export function fetchesVendorInstaller(words: readonly string[]): boolean {
  const urls = words.filter((w) => /^[a-z][a-z0-9+.-]*:\/\//i.test(w));
  return urls.length > 0 && urls.every(isVendorInstaller);
}

/** A download run as a script: high, or low when it is a vendor's documented installer. */
function downloadRun(
  span: { start: number; end: number },
  rule: string,
  what: string,
  vendor: boolean,
  score = 0.9,
): Hit {
  return vendor
    ? hitOn(span, `${rule}-vendor`, Severity.LOW, 0.35, `${what} (a vendor's documented installer)`)
    : hitOn(span, rule, Severity.HIGH, score, what);
}

function isFetcher(inv: Invocation): boolean {
  return FETCHERS.has(inv.name);
}

/** A program that executes what arrives on its standard input. */
function executesStdin(inv: Invocation): boolean {
  if (isShell(inv.name)) {
    if (shellCommandString(inv.args) !== undefined) return false;
    const script = operands(inv.args)[0];
    return script === undefined || script === "-" || script === "/dev/stdin";
  }
  if (isInterpreter(inv.name)) {
    const rest = operands(inv.args);
    return rest.length === 0 || rest[0] === "-";
  }
  return (
    (inv.name === "source" || inv.name === ".") && (inv.args[0] === "/dev/stdin" || inv.args.length === 0)
  );
}

/** The words of the first fetching command in `pipelines` (`curl -fsSL https://...`), if any. */
function fetcherWords(pipelines: readonly Pipeline[]): string[] | undefined {
  for (const p of pipelines) {
    for (const c of p.commands) {
      const name = basename(c.words.find((w) => !w.text.includes("=") || w.quoted)?.text ?? "");
      if (FETCHERS.has(name)) return c.words.map((w) => w.text);
    }
  }
  return undefined;
}

/** Whether a substitution decodes what it prints (`$(echo <base64> | base64 -d)`): the hidden script a runner is given. */
function decodesIn(pipelines: readonly Pipeline[]): boolean {
  for (const p of pipelines) {
    for (const c of p.commands) {
      const words = c.words.map((w) => w.text);
      if (decodes(basename(words[0] ?? ""), words.slice(1))) return true;
    }
  }
  return false;
}

/** Whether program `name` with `args` decodes what it reads (`base64 -d`, `xxd -r`, `openssl enc -d`). */
export function decodes(name: string, args: readonly string[]): boolean {
  if (!DECODERS.has(name)) return false;
  if (name === "xxd") return args.includes("-r");
  if (name === "openssl") return args.includes("-d") || args.includes("base64");
  if (name === "rev" || name === "uudecode") return true;
  return args.some((a) => a === "-d" || a === "--decode" || a === "-D");
}

/** Asked of every command of a pipeline: the name is tested before `args`, made when first read, is. */
function isDecoder(inv: Invocation): boolean {
  return DECODERS.has(inv.name) && decodes(inv.name, inv.args);
}

/** Where a fetcher saves its download, if it names a file. */
function savedFile(inv: Invocation): string | undefined {
  const written = redirectWrites(inv)[0];
  if (written !== undefined) return basename(written);
  if (inv.name === "curl") {
    const out = optionValue(inv.args, ["-o", "--output"]);
    if (out !== undefined) return basename(out);
    if (inv.args.includes("-O") || inv.args.includes("--remote-name")) {
      const url = operands(inv.args).find((a) => a.includes("/"));
      return url ? basename(url.split("?")[0]!) : undefined;
    }
    return undefined;
  }
  if (inv.name === "wget") {
    const out = optionValue(inv.args, ["-O", "--output-document"]);
    if (out === "-") return undefined;
    if (out !== undefined) return basename(out);
    const url = operands(inv.args).find((a) => a.includes("/"));
    return url ? basename(url.split("?")[0]!) : undefined;
  }
  return undefined;
}

/** Runs `file`: `./file`, `/tmp/file`, `sh file`, `python file`. */
function runsFile(inv: Invocation, file: string): boolean {
  if (file === "") return false;
  if (inv.program.includes("/") && basename(inv.program) === file) return true;
  if (isShell(inv.name) || isInterpreter(inv.name) || inv.name === "source" || inv.name === ".") {
    return operands(inv.args).some((a) => basename(a) === file);
  }
  return false;
}

function pipedIntoExecutor(analysis: Analysis, hits: Hit[]): void {
  for (const p of analysis.pipelines) {
    const members = p.invocations;
    // Both verdicts need a fetcher or a decoder with an executor after it: two commands at least.
    if (members.length < 2) continue;
    const fetch = members.findIndex(isFetcher);
    const decode = members.findIndex(isDecoder);
    if (fetch === -1 && decode === -1) continue;
    const exec = members.findIndex(executesStdin);
    if (fetch !== -1 && exec > fetch) {
      const vendor = fetchesVendorInstaller(members[fetch]!.args);
      hits.push(
        downloadRun(p, "pipe-to-shell", `downloaded script piped into ${members[exec]!.name}`, vendor),
      );
    } else if (decode !== -1 && exec > decode) {
      hits.push(
        hitOn(p, "decode-to-shell", Severity.HIGH, 0.85, `decoded payload piped into ${members[exec]!.name}`),
      );
    }
  }
}

/** `sh -c "$(curl ...)"`: the runners are a family of names (`python3.11`), so this reads every command. */
function substitutionExec(inv: Invocation): Hit | undefined {
  const runsCode =
    isShell(inv.name) ||
    isInterpreter(inv.name) ||
    inv.name === "eval" ||
    inv.name === "source" ||
    inv.name === ".";
  if (!runsCode) return undefined;
  if (inv.argWords.some((w) => decodesIn(w.substitutions)))
    return hitOn(
      inv,
      "substitution-decoded-exec",
      Severity.HIGH,
      0.9,
      `${inv.name} runs a script it decodes first`,
    );
  for (const w of inv.argWords) {
    const fetched = fetcherWords(w.substitutions);
    if (fetched !== undefined)
      return downloadRun(
        inv,
        "substitution-exec",
        `${inv.name} runs a script fetched by a substitution`,
        fetchesVendorInstaller(fetched),
      );
  }
  return undefined;
}

/** Files downloaded so far in the text, where each download starts, and whether from a vendor's installer address. */
type Downloads = { file: string; at: number; vendor: boolean }[];

export const downloadExec = ruleModule<Downloads>({
  name: "download-exec",
  prepare: () => [],
  before: (analysis, hits) => pipedIntoExecutor(analysis, hits),
  // What is piped into an executor comes from a fetcher or a decoder.
  hooksNeed: [...FETCHERS, ...DECODERS],
  commands: [
    {
      programs: [],
      traits: [Trait.substitution],
      check: (inv, hits) => pushHit(hits, substitutionExec(inv)),
    },
    {
      programs: [...FETCHERS],
      check(inv, _hits, downloads) {
        if (!isFetcher(inv)) return;
        const file = savedFile(inv);
        if (file !== undefined)
          downloads.push({ file, at: inv.start, vendor: fetchesVendorInstaller(inv.args) });
      },
    },
    {
      // The downloaded file run by path (`./x`, `/tmp/x`), or given to a shell or interpreter.
      programs: [...SHELLS, ...INTERPRETERS, "python", "source", "."],
      namePrefixes: ["python"],
      traits: [Trait.slash],
      check(inv, hits, downloads) {
        if (downloads.length === 0 || isFetcher(inv)) return;
        const download = downloads.find((d) => d.at <= inv.start && runsFile(inv, d.file));
        if (download) {
          const span = { start: download.at, end: inv.end };
          hits.push(downloadRun(span, "download-run", "downloaded file executed", download.vendor, 0.85));
        }
      },
    },
  ],
});
