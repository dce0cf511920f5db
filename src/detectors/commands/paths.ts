/**
 * Classifies file paths named on a command line. Paths are compared after a light
 * normalisation (`$HOME` and `/root` read as `~`, duplicate and trailing slashes dropped), not
 * resolved: the detector never touches the file system and judges the text alone.
 */

/** `${HOME}` as written in shell text, kept out of a template literal on purpose. */
const BRACED_HOME = "$" + "{HOME}";

export function normalizePath(raw: string): string {
  // Without a slash only the home prefixes and the blanks around can change (most words).
  if (!raw.includes("/")) return homeOnly(raw.trim());
  if (alreadyNormal(raw)) return raw;
  let p = raw.trim();
  if (p.startsWith("file://")) p = p.slice(7);
  if (p.startsWith(BRACED_HOME)) p = `~${p.slice(7)}`;
  else if (p.startsWith("$HOME")) p = `~${p.slice(5)}`;
  else if (p === "/root" || p.startsWith("/root/")) p = `~${p.slice(5)}`;
  else if (/^\/home\/[^/]+(\/|$)/.test(p))
    p = `~${p.slice(p.indexOf("/", 6) === -1 ? p.length : p.indexOf("/", 6))}`;
  p = p.replace(/\/\/+/g, "/");
  if (p.startsWith("/") && (p.includes("/./") || p.includes("/.."))) p = resolveDots(p);
  if (p.startsWith("~/")) p = p.replace(/^~\/(\.\/)+/, "~/");
  while (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
  return p;
}

/** Printable ASCII other than the space: a character `trim` keeps at either end. */
function isVisibleAscii(c: number): boolean {
  return c > 0x20 && c < 0x7f;
}

/**
 * Whether `normalizePath` would give a path with a slash back unchanged: nothing to trim, no
 * home prefix, scheme, doubled slash, dot segment or trailing slash. Paths named on ordinary
 * command lines (`/api/v1/users`) pass, and are spared the copies and the regular expression
 * normalising makes. Errs towards `false`, which only means taking the full way.
 */
function alreadyNormal(raw: string): boolean {
  const first = raw.charCodeAt(0);
  const last = raw.charCodeAt(raw.length - 1);
  return (
    isVisibleAscii(first) &&
    isVisibleAscii(last) &&
    first !== 0x24 && // `$HOME`, `${HOME}`
    last !== 0x2f && // a trailing slash
    !raw.startsWith("file://") &&
    !raw.startsWith("/root") &&
    !raw.startsWith("/home/") &&
    !raw.includes("//") &&
    !raw.includes("/.")
  );
}

/** `normalizePath` of a trimmed word without a slash: `$HOME`, `${HOME}` read as `~`. */
function homeOnly(p: string): string {
  if (p.startsWith(BRACED_HOME)) return `~${p.slice(7)}`;
  if (p.startsWith("$HOME")) return `~${p.slice(5)}`;
  return p;
}

/** `/a/../etc/./shadow` is `/etc/shadow`; `..` above the root stays at the root. */
function resolveDots(p: string): string {
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

const SYSTEM_DIRS: ReadonlySet<string> = new Set([
  "/",
  "/bin",
  "/boot",
  "/dev",
  "/etc",
  "/home",
  "/lib",
  "/lib32",
  "/lib64",
  "/opt",
  "/proc",
  "/sbin",
  "/srv",
  "/sys",
  "/usr",
  "/usr/bin",
  "/usr/lib",
  "/usr/local",
  "/usr/sbin",
  "/var",
  "/var/lib",
  "/var/log",
  "~",
  "C:",
  "C:\\",
  "C:\\Windows",
]);

/** Targets whose recursive deletion destroys the system, a home directory or the working tree. */
export function isCriticalDeleteTarget(raw: string): boolean {
  const p = normalizePath(raw);
  if (SYSTEM_DIRS.has(p)) return true;
  if (p.endsWith("/*") && SYSTEM_DIRS.has(p.slice(0, -2) || "/")) return true;
  return p === "*" || p === "./*" || p === ".*" || p === ".." || p === "../*" || p === "/*" || p === "~/*";
}

/**
 * A user's key and credential stores, a user's own documents and a database's data directory:
 * nothing rebuilds them, unlike a build directory or a cache (`rm -rf ~/.cache/pip` is routine).
 */
const IRREPLACEABLE_STORES: ReadonlySet<string> = new Set([
  "~/.ssh",
  "~/.gnupg",
  "~/.aws",
  "~/.kube",
  "~/.config",
  "~/.password-store",
  "~/documents",
  "~/desktop",
  "~/pictures",
  "/var/lib/postgresql",
  "/var/lib/mysql",
  "/var/lib/mongodb",
  "/var/lib/redis",
]);

/**
 * The directory `raw` names, normalised and lower-cased, `dir/*` read as `dir` (and `/*` as
 * `/`): how a delete or a search names where it works.
 */
export function namedDirectory(raw: string): string {
  const p = normalizePath(raw).toLowerCase();
  return p.endsWith("/*") ? p.slice(0, -2) || "/" : p;
}

/** Whether deleting `raw` recursively loses what no build or download restores (see IRREPLACEABLE_STORES). */
export function isIrreplaceableStore(raw: string): boolean {
  return IRREPLACEABLE_STORES.has(namedDirectory(raw));
}

/** Whole-disk and partition devices (`/dev/sda`, `/dev/nvme0n1p2`, `/dev/mapper/x`). */
export function isBlockDevice(raw: string): boolean {
  return /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme[0-9]|mmcblk[0-9]|md[0-9]|dm-[0-9]|mapper\/|disk[0-9]|rdisk[0-9]|sr[0-9]|loop[0-9])/.test(
    raw,
  );
}

/** System credential stores: any access to these is credential dumping. */
const SYSTEM_SECRETS: readonly string[] = [
  "/etc/shadow",
  "/etc/gshadow",
  "/etc/shadow-",
  "/etc/gshadow-",
  "/etc/master.passwd",
  "/etc/security/opasswd",
  "/etc/sudoers",
];

/** Per-user secrets: reading them out is credential theft; using them (`ssh -i`) is not. */
const USER_SECRET_SUFFIXES: readonly string[] = [
  "/.aws/credentials",
  "/.config/gcloud/credentials.db",
  "/.config/gcloud/application_default_credentials.json",
  "/.config/gcloud/access_tokens.db",
  // gcloud's per-account copy of application default credentials: legacy_credentials/<account>/adc.json.
  "/adc.json",
  "/.azure/accesstokens.json",
  "/.azure/msal_token_cache.json",
  "/.azure/msal_token_cache.bin",
  "/.azure/service_principal_entries.json",
  // The token a pod's service account authenticates to the Kubernetes API with.
  "/kubernetes.io/serviceaccount/token",
  "/.kube/config",
  "/.docker/config.json",
  "/.netrc",
  "/.pgpass",
  "/.git-credentials",
  "/.npmrc",
  "/.pypirc",
  "/.vault-token",
  "/.config/gh/hosts.yml",
  "/login data",
  "/cookies",
  "/logins.json",
  "/key4.db",
  "/key3.db",
  "/cookies.sqlite",
  "/local state",
  "/.bash_history",
  "/.zsh_history",
  "/proc/self/environ",
];

/** USER_SECRET_SUFFIXES by their last path segment, so a path is compared only with the suffixes its own last segment allows. */
const SECRET_SUFFIXES_BY_NAME: ReadonlyMap<string, readonly string[]> = groupBy(
  USER_SECRET_SUFFIXES,
  (suffix) => suffix.slice(suffix.lastIndexOf("/") + 1),
);

/** `items` in lists by `key`, each list in the order of `items`. */
function groupBy<T>(items: readonly T[], key: (item: T) => string): ReadonlyMap<string, readonly T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/** The last character of each of USER_SECRET_SUFFIXES: a path ending in any other has none of them. */
const SECRET_SUFFIX_ENDS: ReadonlySet<number> = new Set(
  USER_SECRET_SUFFIXES.map((suffix) => suffix.charCodeAt(suffix.length - 1)),
);

/** `lower` ends with one of USER_SECRET_SUFFIXES; each suffix starts with a slash, so its last segment is the path's. */
function hasSecretSuffix(lower: string): boolean {
  // Most paths end in a character no suffix ends in (a digit, say): spared cutting out the last segment.
  if (!SECRET_SUFFIX_ENDS.has(lower.charCodeAt(lower.length - 1))) return false;
  const candidates = SECRET_SUFFIXES_BY_NAME.get(lower.slice(lower.lastIndexOf("/") + 1));
  if (candidates === undefined) return false;
  for (const s of candidates) if (lower.endsWith(s)) return true;
  return false;
}

/** Directories whose files are all a user's keys or cloud credentials. */
const USER_SECRET_DIRS: ReadonlySet<string> = new Set([
  "~/.ssh",
  "~/.aws",
  "~/.gnupg",
  "~/.kube",
  "~/.azure",
  "~/.config/gcloud",
  "~/.config/gcloud/legacy_credentials",
]);

const SSH_KEY = /(^|\/)(id_(rsa|dsa|ecdsa|ed25519)(_sk)?|ssh_host_[a-z0-9]+_key)$/;

export type SecretKind = "system" | "user";

/** Whether the path names a credential store, and which kind. */
export function secretKind(raw: string): SecretKind | undefined {
  // Normalising a word without a slash only rewrites a `$HOME` prefix: it gains neither a slash
  // nor an underscore, and every store and key name below holds one of the two.
  if (!raw.includes("/") && !raw.includes("_")) return undefined;
  const p = normalizePath(raw);
  // Every store below has a slash in its path; only a bare key file name (`id_rsa`) has none.
  if (!p.includes("/")) return isBareKeyName(p) ? "user" : undefined;
  for (const s of SYSTEM_SECRETS) if (p === s) return "system";
  const lower = p.toLowerCase();
  // Every key name SSH_KEY takes holds one of these; the test spares its scan to most paths.
  if ((lower.includes("id_") || lower.includes("ssh_host_")) && SSH_KEY.test(lower)) return "user";
  // A process's environment (`/proc/1234/environ`, `/proc/self/environ`), or every process's (`/proc/*/environ`).
  if (lower.startsWith("/proc/") && /^\/proc\/(?:[0-9a-z]+|\*)\/environ$/.test(lower)) return "user";
  if (hasSecretSuffix(lower)) return "user";
  if (USER_SECRET_DIRS.has(lower)) return "user";
  if (lower.startsWith("~/.gnupg/private-keys")) return "user";
  return undefined;
}

/**
 * The last name of `path` (`shadow` of `/etc/shadow`, `systemd` of `/etc/systemd/`), lower-cased:
 * for a prefix, what the name a path continues it with starts with.
 */
function lastName(path: string): string {
  const trimmed = path.endsWith("/") ? path.slice(0, -1) : path;
  return trimmed.slice(trimmed.lastIndexOf("/") + 1).toLowerCase();
}

/** An expression matching text that holds any of `marks` (lower-case, matched against lower-cased text). */
function anyMark(marks: Iterable<string>): RegExp {
  const unique = [...new Set(marks)].filter((m) => m !== "");
  return new RegExp(unique.map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"));
}

/**
 * Marks one of which every path `secretKind` knows holds once lower-cased: the last name of each
 * store it lists (`shadow`, `credentials`, `.ssh`), and what key files (`id_`, `ssh_host_`), a
 * process's environment and gnupg's private keys are known by.
 *
 * Normalising a path (see `normalizePath`) drops characters around and between its names (blanks
 * at either end, a `file://` or `$HOME` prefix, doubled slashes, dot segments) but never changes a
 * name or makes one, and no mark holds a slash or `~`; lower-casing goes character by character.
 * So a word none of whose lower-cased text holds a mark has no part `secretKind` knows, and rules
 * that judge parts of a word may ask this of the whole word first.
 */
const SECRET_MARKS = anyMark([
  ...SYSTEM_SECRETS.map(lastName),
  ...SECRET_SUFFIXES_BY_NAME.keys(),
  ...[...USER_SECRET_DIRS].map(lastName),
  "id_",
  "ssh_host_",
  "environ",
  ".gnupg",
]);

/** Whether `text`, or any part of it, may be a path `secretKind` knows (see SECRET_MARKS). */
export function maySecretPath(text: string): boolean {
  return SECRET_MARKS.test(text.toLowerCase());
}

/**
 * A key file named without a directory (`id_rsa`). SSH_KEY then matches from the word's start,
 * an `i` or an `s` of either case: most words with an underscore (`duration_ms=150`,
 * `lookup_tensor`) start otherwise and are spared lowering and the expression.
 */
function isBareKeyName(p: string): boolean {
  const initial = p.charCodeAt(0) | 0x20;
  return (initial === 0x69 || initial === 0x73) && p.includes("_") && SSH_KEY.test(p.toLowerCase());
}

/** Files that hold secrets for exfiltration purposes: credential stores plus dotenv and key files. */
export function isSensitiveFile(raw: string): boolean {
  // Every name below has a slash, a dot or an underscore but `credentials`; most words have none.
  if (!raw.includes("/") && !raw.includes(".") && !raw.includes("_"))
    return raw.length >= 11 && raw.trim().toLowerCase() === "credentials";
  if (secretKind(raw) !== undefined) return true;
  const p = normalizePath(raw).toLowerCase();
  const base = p.slice(p.lastIndexOf("/") + 1);
  if (base === ".env" || (base.startsWith(".env.") && !/\.(example|sample|template|dist)$/.test(base)))
    return true;
  if (p === "/etc/passwd" || p === "~/.ssh/known_hosts" || p === "~/.ssh/config") return true;
  // The public half of a key pair is made to be handed out (`ssh-copy-id`, `scp id_ed25519.pub
  // host:`); only its private half, without the suffix, is a secret.
  if (base.endsWith(".pub")) return false;
  if (base.endsWith(".pem") || base.endsWith(".key") || base.endsWith(".p12") || base.endsWith(".pfx"))
    return true;
  if (base.endsWith(".kdbx") || base === "credentials" || base === "secrets.json" || base === "secrets.yaml")
    return true;
  return (
    p.startsWith("~/.ssh/") ||
    p.startsWith("~/.aws/") ||
    p.startsWith("~/.gnupg/") ||
    p.startsWith("~/.azure/") ||
    p.startsWith("~/.config/gcloud/legacy_credentials/")
  );
}

export type PersistenceKind = "cron" | "service" | "shell-rc" | "ssh-keys" | "preload" | "autostart" | "hook";

const PERSISTENCE_PREFIXES: ReadonlyArray<readonly [string, PersistenceKind]> = [
  ["/etc/cron", "cron"],
  ["/var/spool/cron", "cron"],
  ["/etc/anacrontab", "cron"],
  ["/etc/systemd/", "service"],
  ["/lib/systemd/system/", "service"],
  ["/usr/lib/systemd/system/", "service"],
  ["~/.config/systemd/", "service"],
  ["/etc/init.d/", "service"],
  ["/etc/rc.local", "service"],
  ["/library/launchagents", "service"],
  ["/library/launchdaemons", "service"],
  ["~/library/launchagents", "service"],
  ["/etc/profile", "shell-rc"],
  ["/etc/bash.bashrc", "shell-rc"],
  ["/etc/zsh/", "shell-rc"],
  ["/etc/update-motd.d/", "shell-rc"],
  ["~/.bashrc", "shell-rc"],
  ["~/.bash_profile", "shell-rc"],
  ["~/.bash_login", "shell-rc"],
  ["~/.bash_logout", "shell-rc"],
  ["~/.profile", "shell-rc"],
  ["~/.zshrc", "shell-rc"],
  ["~/.zprofile", "shell-rc"],
  ["~/.zshenv", "shell-rc"],
  ["~/.ssh/authorized_keys", "ssh-keys"],
  ["/etc/ssh/sshd_config", "ssh-keys"],
  ["/etc/ld.so.preload", "preload"],
  ["~/.config/autostart", "autostart"],
  ["/etc/xdg/autostart", "autostart"],
  // Run by lesspipe each time the user opens a file with less.
  ["~/.lessfilter", "hook"],
];

/** The first segment of a path and the slash after it: `/etc/cron.d/x` is `/etc`, `~/.bashrc` is `~`. */
function rootOf(path: string): string {
  return path.slice(0, path.indexOf("/", 1));
}

/**
 * PERSISTENCE_PREFIXES by their first segment, in table order: a path a prefix starts has the
 * prefix's first segment, so only that group is tried. This needs a slash after the first
 * character of every prefix, which is checked here rather than trusted.
 */
const PERSISTENCE_PREFIXES_BY_ROOT = groupBy(PERSISTENCE_PREFIXES, ([prefix]) => {
  if (prefix.indexOf("/", 1) === -1) throw new Error(`persistence prefix without a second slash: ${prefix}`);
  return rootOf(prefix);
});

/**
 * Marks one of which every path `persistenceKind` knows holds once lower-cased: what the last name
 * of each prefix (`cron` of `/etc/cron`, `.bashrc`, `systemd` of `/etc/systemd/`) starts with.
 * As for SECRET_MARKS, normalising never makes or changes a name, so a word whose lower-cased text
 * holds none has no part `persistenceKind` knows.
 */
const PERSISTENCE_MARKS = anyMark(PERSISTENCE_PREFIXES.map(([prefix]) => lastName(prefix)));

/** Whether `text`, or any part of it, may be a path `persistenceKind` knows (see PERSISTENCE_MARKS). */
export function mayPersistencePath(text: string): boolean {
  return PERSISTENCE_MARKS.test(text.toLowerCase());
}

export function persistenceKind(raw: string): PersistenceKind | undefined {
  // Every prefix has a slash, and normalising never adds one.
  if (!raw.includes("/")) return undefined;
  const p = normalizePath(raw);
  // Lowering case changes no slash, so the root of the lowered path is the lowered root; most
  // roots have no prefix and the path is spared lowering.
  const candidates = PERSISTENCE_PREFIXES_BY_ROOT.get(rootOf(p).toLowerCase());
  if (candidates === undefined) return undefined;
  const lower = p.toLowerCase();
  for (const [prefix, kind] of candidates) if (lower.startsWith(prefix)) return kind;
  return undefined;
}

/** Files whose modification grants privileges: sudoers, the account databases. */
export function isPrivilegeFile(raw: string): boolean {
  const p = normalizePath(raw);
  return (
    p === "/etc/sudoers" ||
    p.startsWith("/etc/sudoers.d") ||
    p === "/etc/passwd" ||
    p === "/etc/shadow" ||
    p === "/etc/group"
  );
}

const SHELL_PATH = /^(\/usr)?(\/local)?\/bin\/(ba|da|z|k|a|mk|tc|c|fi)?sh$/;

/** `/bin/sh`, `/usr/bin/bash`, ... */
export function isShellPath(word: string): boolean {
  return SHELL_PATH.test(word);
}

/**
 * Path-like tokens inside free text (interpreter code, here-documents): runs of characters
 * that can appear in a path, cut at anything else. Linear: one pass, no backtracking.
 */
export function pathTokens(raw: string): string[] {
  if (!raw.includes("/")) return [];
  const text = raw.includes(BRACED_HOME) ? raw.replaceAll(BRACED_HOME, "$HOME") : raw;
  const out: string[] = [];
  let start = -1;
  for (let k = 0; k <= text.length; k++) {
    const pathChar = k < text.length && isPathChar(text.charCodeAt(k));
    if (pathChar && start === -1) start = k;
    else if (!pathChar && start !== -1) {
      const token = text.slice(start, k);
      if (token.includes("/")) out.push(token);
      start = -1;
    }
  }
  return out;
}

/** Letters, digits and `/._-~$`: the characters of a path token. */
function isPathChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x30 && c <= 0x39) ||
    c === 0x2f ||
    c === 0x2e ||
    c === 0x5f ||
    c === 0x2d ||
    c === 0x7e ||
    c === 0x24
  );
}

/**
 * Whether `pathTokens(raw)` is `[raw]`: a word with a slash and nothing but path characters
 * (`/api/v1/users`, the usual word with a slash). Rules that judge such a word whole pass over
 * its tokens, and this answers without making them.
 */
export function isOnePathToken(raw: string): boolean {
  if (!raw.includes("/")) return false;
  for (let k = 0; k < raw.length; k++) if (!isPathChar(raw.charCodeAt(k))) return false;
  return true;
}
