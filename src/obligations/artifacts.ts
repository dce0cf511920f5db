import { analyzeShell } from "../detectors/commands/shell/analyze.js";

/** Something a tool call fetches, installs, opens or writes, that the caller must scan (spec 2.6). */
export interface Artifact {
  readonly kind: "file" | "package" | "url" | "text";
  /** Exactly as the agent wrote it: never resolved or normalised. */
  readonly locator: string;
  /** What the name claims from its extension (`sh`, `exe`, `tar.gz`). */
  readonly declaredType?: string;
}

const MAX_LOCATOR = 512;
const MAX_DECLARED_TYPE = 128;

/** Package managers and the subcommands that fetch and install code. */
const INSTALLERS: Readonly<Record<string, readonly string[]>> = {
  npm: ["install", "i", "add"],
  pnpm: ["install", "i", "add"],
  yarn: ["add"],
  bun: ["add", "install", "i"],
  pip: ["install"],
  pip3: ["install"],
  pipx: ["install"],
  uv: ["add"],
  gem: ["install"],
  cargo: ["install", "add"],
  go: ["install", "get"],
  "apt-get": ["install"],
  apt: ["install"],
  brew: ["install"],
};

const SHELL_TOOL = /(^|[_.-])(bash|shell|sh|exec|execute|terminal|run|command|cmd)($|[_.-])/i;
const SHELL_KEYS = new Set(["command", "cmd", "script", "shell", "bash"]);
const URL_TOOL = /(browse|browser|navigate|open_url|fetch|http|web|download|visit)/i;
const WRITE_TOOL = /(write|create|save|put)_?(file)?/i;
const EXECUTABLE = /\.(sh|bash|zsh|exe|bin|ps1|bat|cmd|dll|so|dylib|deb|rpm|apk|msi|dmg|pkg|jar|whl|appimage|run|elf|com|scr|vbs|js|py)$/i;
const URL_SHAPE = /^(https?|ftp):\/\/[^\s]{1,500}$/i;

/** The extension a name claims, as written (`archive.tar.gz` -> `tar.gz`). */
export function declaredType(locator: string): string | undefined {
  const name = locator.split(/[/?#]/).filter(Boolean).pop() ?? "";
  const match = /\.((?:tar\.)?[A-Za-z0-9]{1,16})$/.exec(name);
  return match?.[1] ? match[1].toLowerCase().slice(0, MAX_DECLARED_TYPE) : undefined;
}

function artifact(kind: Artifact["kind"], locator: string): Artifact | undefined {
  if (locator.length === 0 || locator.length > MAX_LOCATOR) return undefined;
  const type = kind === "package" ? undefined : declaredType(locator);
  return type ? { kind, locator, declaredType: type } : { kind, locator };
}

/** Options of curl/wget that name the output file. */
const OUTPUT_FLAGS = new Set(["-o", "--output", "-O", "--output-document"]);

function fromShell(command: string): Artifact[] {
  const found: (Artifact | undefined)[] = [];
  for (const call of analyzeShell(command).invocations) {
    const args = call.args;
    const installs = INSTALLERS[call.name];
    if (installs && args[0] !== undefined && installs.includes(args[0])) {
      for (const arg of args.slice(1)) if (!arg.startsWith("-")) found.push(artifact("package", arg));
      continue;
    }
    if (call.name === "curl" || call.name === "wget") {
      args.forEach((arg, i) => {
        if (URL_SHAPE.test(arg)) found.push(artifact("url", arg));
        const next = args[i + 1];
        // wget -O and curl -o name a file; curl -O (no argument) keeps the URL's name.
        if (OUTPUT_FLAGS.has(arg) && next !== undefined && !(call.name === "curl" && arg === "-O")) found.push(artifact("file", next));
      });
      continue;
    }
    if (call.name === "git" && args[0] === "clone" && args[1] !== undefined) found.push(artifact("url", args[1]));
    if (call.name === "chmod" && args.some((a) => /^(\+x|[ugoa]*\+[rw]*x|[0-7]?[0-7][1357][0-7]{2})$/.test(a)))
      for (const arg of args) if (!arg.startsWith("-") && !/^[0-7+ugoarwx]+$/.test(arg)) found.push(artifact("file", arg));
  }
  return found.filter((a): a is Artifact => a !== undefined);
}

/** String leaves of a decoded arguments object, with their dotted keys (bounded depth). */
function leaves(value: unknown, key = "", depth = 0, out: [string, string][] = []): [string, string][] {
  if (typeof value === "string") out.push([key, value]);
  else if (depth < 8 && typeof value === "object" && value !== null)
    for (const [k, v] of Object.entries(value)) leaves(v, key ? `${key}.${k}` : k, depth + 1, out);
  return out;
}

/**
 * The artifacts one tool call would bring in: packages installed, URLs fetched or opened,
 * files downloaded, made executable or written with an executable's name.
 */
export function artifactsOf(toolName: string, argumentsJson: string): Artifact[] {
  let args: unknown;
  try {
    args = JSON.parse(argumentsJson);
  } catch {
    return [];
  }
  const found: Artifact[] = [];
  const shellTool = SHELL_TOOL.test(toolName);
  for (const [key, value] of leaves(args)) {
    const last = key.split(".").pop() ?? key;
    if (SHELL_KEYS.has(last) || (shellTool && (last === "input" || last === "code"))) found.push(...fromShell(value));
    else if (URL_SHAPE.test(value) && (URL_TOOL.test(toolName) || last === "url" || last === "href")) {
      const a = artifact("url", value);
      if (a) found.push(a);
    } else if (WRITE_TOOL.test(toolName) && /path|file|name|dest/i.test(last) && EXECUTABLE.test(value)) {
      const a = artifact("file", value);
      if (a) found.push(a);
    }
  }
  const seen = new Set<string>();
  return found.filter((a) => {
    const id = `${a.kind}\0${a.locator}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
