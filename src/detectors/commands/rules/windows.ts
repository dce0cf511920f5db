import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { isSensitiveFile } from "../paths.js";
import type { Analysis } from "../shell/analyze.js";
import { ruleModule } from "./dispatch.js";
import { type Hit, hitOn, pushHit } from "./types.js";

/**
 * Windows' own tools turned on the host: saving the registry hives that hold password hashes,
 * copying the domain controller's database, dumping LSASS through comsvcs.dll, deleting the
 * volume shadow copies, turning Microsoft Defender, the firewall or the event logs off, adding a
 * user to the Administrators group, downloading with certutil or bitsadmin (a program run after
 * it, `certutil -urlcache -f URL x.exe && x.exe`, see `downloadedThenRun`), and a web cmdlet
 * sending a secret file (`Invoke-WebRequest -Method Post -InFile $env:USERPROFILE\.aws\credentials`).
 * Judged on a command's words, whether bash ran them (Git Bash, WSL interop) or they are a
 * statement of a PowerShell command line (powershell.ts).
 */

/** What one Windows command does, if it is one of the steps above. */
export interface WindowsVerdict {
  readonly rule: string;
  readonly severity: Severity;
  readonly score: number;
  readonly reason: string;
}

/**
 * The program as Windows resolves it, whatever its case, directory or `.exe`:
 * `C:\Windows\System32\REG.EXE` is `reg`. PowerShell cmdlets and aliases are case-blind too.
 */
export function windowsProgram(word: string): string {
  const lower = word.toLowerCase();
  const name = lower.slice(Math.max(lower.lastIndexOf("\\"), lower.lastIndexOf("/")) + 1);
  return name.endsWith(".exe") ? name.slice(0, -4) : name;
}

/** The hives whose saved copy yields the local password hashes, and why each matters. */
const CREDENTIAL_HIVES: ReadonlyMap<string, string> = new Map([
  ["sam", "the SAM hive, which holds the local accounts' password hashes"],
  ["security", "the SECURITY hive, which holds LSA secrets and cached domain logons"],
  ["system", "the SYSTEM hive, whose boot key decrypts the SAM"],
]);

/**
 * The credential hive a registry key names, if any: `HKLM\SAM`, `HKEY_LOCAL_MACHINE\SYSTEM\`,
 * PowerShell's `HKLM:\SECURITY`.
 * Unquoted in bash the backslash is an escape and vanishes (`HKLM\SAM` arrives as `HKLMSAM`),
 * so the key is compared with its separators removed; nothing else is spelt that way.
 */
function credentialHive(key: string): string | undefined {
  const flat = key.toLowerCase().replace(/[\\/:]/g, "");
  for (const root of ["hklm", "hkey_local_machine"])
    if (flat.startsWith(root)) return CREDENTIAL_HIVES.get(flat.slice(root.length));
  return undefined;
}

/** `reg save HKLM\SAM sam.hive`, `reg export HKLM\SECURITY s.reg`: a hive copied out to crack offline. */
function registryHiveDump(args: readonly string[]): WindowsVerdict | undefined {
  const verb = args[0]?.toLowerCase();
  if (verb !== "save" && verb !== "export") return undefined;
  const hive = args[1] === undefined ? undefined : credentialHive(args[1]);
  return hive === undefined
    ? undefined
    : { rule: "registry-hive-dump", severity: Severity.HIGH, score: 0.95, reason: `saves ${hive}` };
}

/** `ntdsutil "ac i ntds" "ifm" "create full c:\x" q q`: install-from-media copies ntds.dit with every domain hash. */
function domainDatabaseCopy(args: readonly string[]): WindowsVerdict | undefined {
  return args.some((a) => /(?:^|\s)ifm(?:\s|$)/i.test(a))
    ? {
        rule: "ntds-copy",
        severity: Severity.HIGH,
        score: 0.9,
        reason: "copies the Active Directory database (ntds.dit) with every domain password hash",
      }
    : undefined;
}

/** `rundll32 C:\windows\system32\comsvcs.dll, MiniDump 624 lsass.dmp full`: a process's memory, usually LSASS's. */
function comsvcsMiniDump(args: readonly string[]): WindowsVerdict | undefined {
  const lower = args.join(" ").toLowerCase();
  return lower.includes("comsvcs") && lower.includes("minidump")
    ? {
        rule: "comsvcs-minidump",
        severity: Severity.HIGH,
        score: 0.95,
        reason: "dumps a process's memory through comsvcs.dll, the way LSASS credentials are stolen",
      }
    : undefined;
}

const SHADOW_COPIES_DELETED: WindowsVerdict = {
  rule: "shadow-copy-delete",
  severity: Severity.HIGH,
  score: 0.9,
  reason: "deletes the volume shadow copies, Windows' restore points (as ransomware does first)",
};

/** `vssadmin delete shadows /all /quiet`, `wmic shadowcopy delete`. */
function shadowCopyDeletion(program: string, args: readonly string[]): WindowsVerdict | undefined {
  const lower = args.map((a) => a.toLowerCase());
  if (program === "vssadmin")
    return lower[0] === "delete" && lower[1] === "shadows" ? SHADOW_COPIES_DELETED : undefined;
  return lower.includes("shadowcopy") && lower.includes("delete") ? SHADOW_COPIES_DELETED : undefined;
}

/** The value a PowerShell switch is given: `-X:$false`, `-X $true`, or none (on). */
function switchValue(args: readonly string[], k: number): string {
  const a = args[k]!;
  const colon = a.indexOf(":");
  if (colon !== -1) return a.slice(colon + 1).toLowerCase();
  const next = args[k + 1];
  return next === undefined || next.startsWith("-") ? "$true" : next.toLowerCase();
}

const OFF_VALUES: ReadonlySet<string> = new Set(["$false", "0", "false"]);

/**
 * `Set-MpPreference -DisableRealtimeMonitoring $true` turns a Defender protection off;
 * `-DisableRealtimeMonitoring $false` turns it back on and is left alone. Exclusions
 * (`Add-MpPreference -ExclusionPath C:\x`) leave the rest of the machine scanned, and
 * Microsoft itself recommends them for build directories, so they weigh less.
 */
function defenderPreference(args: readonly string[]): WindowsVerdict | undefined {
  for (let k = 0; k < args.length; k++) {
    const option = args[k]!.toLowerCase();
    if (option.startsWith("-disable") && !OFF_VALUES.has(switchValue(args, k)))
      return {
        rule: "defender-off",
        severity: Severity.HIGH,
        score: 0.9,
        reason: `turns off Microsoft Defender protection (${args[k]!.split(":", 1)[0]})`,
      };
    if (option.startsWith("-exclusion"))
      return {
        rule: "defender-exclusion",
        severity: Severity.MEDIUM,
        score: 0.7,
        reason: `exempts ${args[k + 1] ?? "files"} from Microsoft Defender scanning`,
      };
  }
  return undefined;
}

/** Services whose stop leaves the host unguarded: Defender's engine, its EDR sensor, the firewall, the event log. */
const GUARD_SERVICES: ReadonlySet<string> = new Set(["windefend", "sense", "wdnissvc", "mpssvc", "eventlog"]);

/** `sc stop WinDefend`, `Stop-Service WinDefend`, `Set-Service WinDefend -StartupType Disabled`. */
function guardServiceStopped(program: string, args: readonly string[]): WindowsVerdict | undefined {
  const lower = args.map((a) => a.toLowerCase());
  const service = args.find((a) => GUARD_SERVICES.has(a.toLowerCase()));
  if (service === undefined) return undefined;
  const stops =
    program === "stop-service" ||
    (program === "sc" && (lower[0] === "stop" || lower[0] === "delete" || lower.includes("disabled"))) ||
    (program === "set-service" && lower.includes("disabled"));
  return stops
    ? {
        rule: "security-service-off",
        severity: Severity.HIGH,
        score: 0.85,
        reason: `stops or disables the ${service} service`,
      }
    : undefined;
}

const FIREWALL_OFF: WindowsVerdict = {
  rule: "firewall-off",
  severity: Severity.HIGH,
  score: 0.85,
  reason: "turns the Windows firewall off",
};

/** `netsh advfirewall set allprofiles state off`, `Set-NetFirewallProfile -Enabled False`. */
function firewallOff(program: string, args: readonly string[]): WindowsVerdict | undefined {
  const lower = args.map((a) => a.toLowerCase());
  if (program === "netsh")
    return lower.includes("advfirewall") && lower.includes("state") && lower.at(-1) === "off"
      ? FIREWALL_OFF
      : undefined;
  const k = lower.findIndex((a) => a.startsWith("-enabled"));
  return k !== -1 && OFF_VALUES.has(switchValue(args, k)) ? FIREWALL_OFF : undefined;
}

/** `wevtutil cl Security`, `Clear-EventLog -LogName Security`: the host's record of what happened, erased. */
function eventLogCleared(program: string, args: readonly string[]): WindowsVerdict | undefined {
  const clears =
    program === "clear-eventlog" ||
    (program === "wevtutil" && (args[0]?.toLowerCase() === "cl" || args[0]?.toLowerCase() === "clear-log"));
  return clears
    ? { rule: "event-log-clear", severity: Severity.HIGH, score: 0.85, reason: "erases Windows event logs" }
    : undefined;
}

/** Local and domain groups whose members administer the machine or the domain. */
const ADMIN_GROUPS = /^(?:administrators|domain admins|enterprise admins|schema admins|backup operators)$/i;

/**
 * `net localgroup administrators evil /add`, `Add-LocalGroupMember -Group Administrators -Member
 * evil`: an account made an administrator. Another group (`Remote Desktop Users`) is reported
 * LOW, as is `net user name password /add`, an account created: what Linux's `useradd` is.
 */
function accountChange(program: string, args: readonly string[]): WindowsVerdict | undefined {
  const lower = args.map((a) => a.toLowerCase());
  let group: string | undefined;
  if (program === "net" || program === "net1") {
    if (!lower.includes("/add")) return undefined;
    if (lower[0] === "user")
      return {
        rule: "windows-user-add",
        severity: Severity.LOW,
        score: 0.4,
        reason: "creates a local account",
      };
    if (lower[0] !== "localgroup" && lower[0] !== "group") return undefined;
    group = args[1];
  } else {
    const k = lower.findIndex((a) => a === "-group" || a === "-name" || a === "-sid");
    group = k === -1 ? args.find((a) => !a.startsWith("-")) : args[k + 1];
  }
  if (group === undefined) return undefined;
  return ADMIN_GROUPS.test(group) || group === "S-1-5-32-544"
    ? {
        rule: "windows-admin-group",
        severity: Severity.HIGH,
        score: 0.85,
        reason: `adds an account to the ${group} group`,
      }
    : {
        rule: "windows-group-add",
        severity: Severity.LOW,
        score: 0.4,
        reason: `adds an account to the ${group} group`,
      };
}

/** The URL and the file of `certutil -urlcache -f URL FILE` or `bitsadmin /transfer job URL FILE`. */
export function lolbinDownload(
  program: string,
  args: readonly string[],
): { url: string; file?: string } | undefined {
  const lower = args.map((a) => a.toLowerCase());
  const isUrl = (a: string) => /^(?:https?|ftp):\/\//i.test(a);
  const url = args.findIndex(isUrl);
  if (url === -1) return undefined;
  const downloads =
    program === "certutil"
      ? lower.some((a) => a === "-urlcache" || a === "/urlcache" || a === "-verifyctl" || a === "/verifyctl")
      : lower.some((a) => a === "/transfer" || a === "/addfile");
  if (!downloads) return undefined;
  const file = args.slice(url + 1).find((a) => !a.startsWith("-") && !a.startsWith("/"));
  return { url: args[url]!, file };
}

/** `certutil -urlcache -split -f URL x.exe`: tools for certificates and transfers made to fetch a file, as intrusions do. */
function lolbinFetch(program: string, args: readonly string[]): WindowsVerdict | undefined {
  const download = lolbinDownload(program, args);
  return download === undefined
    ? undefined
    : {
        rule: "windows-lolbin-download",
        severity: Severity.MEDIUM,
        score: 0.65,
        reason: `${program} downloads ${download.url}`,
      };
}

/** Secret files as a Windows path names them, relative to the user's profile, separators removed. */
const FLAT_USER_SECRETS = [
  ".awscredentials",
  ".kubeconfig",
  ".dockerconfig.json",
  ".git-credentials",
  ".azuremsal_token_cache.json",
  ".azureaccesstokens.json",
  "application_default_credentials.json",
  ".sshid_rsa",
  ".sshid_ed25519",
  ".sshid_ecdsa",
];

/**
 * Whether a Windows path names a secret file: `$env:USERPROFILE\.aws\credentials`,
 * `C:\Users\me\.ssh\id_rsa`, `~\.kube\config`. Unquoted in bash the backslashes vanish
 * (`$env:USERPROFILE.awscredentials`), so the path is also compared with its separators removed.
 */
export function isWindowsSecretPath(word: string): boolean {
  const slashed = word
    .replace(/\\/g, "/")
    .replace(/^\$env:(?:userprofile|home)|^\$home|^[a-z]:\/users\/[^/]{1,64}/i, "~");
  if (isSensitiveFile(slashed)) return true;
  const flat = word.toLowerCase().replace(/[\\/:]/g, "");
  return (
    /^(?:\$envuserprofile|\$envhome|\$home|~|[a-z]users)/.test(flat) &&
    FLAT_USER_SECRETS.some((f) => flat.endsWith(f))
  );
}

/** Cmdlets and aliases that read a file out, as a `-Body` is given one: `-Body (Get-Content f -Raw)`. */
const READERS: ReadonlySet<string> = new Set(["get-content", "gc", "cat", "type"]);

/** The file a web cmdlet sends: `-InFile f` (or an abbreviation), `-Body (Get-Content f)`. */
function webCmdletUpload(args: readonly string[]): WindowsVerdict | undefined {
  for (let k = 0; k < args.length; k++) {
    const p = args[k]!.toLowerCase();
    const body = p === "-body" && READERS.has(args[k + 1]?.toLowerCase() ?? "");
    if (!(p.startsWith("-inf") || body)) continue;
    const file = args[k + (body ? 2 : 1)];
    if (file !== undefined && isWindowsSecretPath(file))
      return {
        rule: "windows-upload-secret",
        severity: Severity.HIGH,
        score: 0.9,
        reason: `uploads ${file}`,
      };
  }
  return undefined;
}

/** The verdict on a Windows command given as words, program first; see the module comment. */
export function judgeWindowsCommand(words: readonly string[]): WindowsVerdict | undefined {
  if (words.length === 0) return undefined;
  const program = windowsProgram(words[0]!);
  const args = words.slice(1);
  switch (program) {
    case "reg":
      return registryHiveDump(args);
    case "ntdsutil":
      return domainDatabaseCopy(args);
    case "rundll32":
      return comsvcsMiniDump(args);
    case "vssadmin":
    case "wmic":
      return shadowCopyDeletion(program, args);
    case "set-mppreference":
    case "add-mppreference":
      return defenderPreference(args);
    case "sc":
    case "stop-service":
    case "set-service":
      return guardServiceStopped(program, args);
    case "netsh":
    case "set-netfirewallprofile":
      return firewallOff(program, args);
    case "wevtutil":
    case "clear-eventlog":
      return eventLogCleared(program, args);
    case "net":
    case "net1":
    case "add-localgroupmember":
      return accountChange(program, args);
    case "certutil":
    case "bitsadmin":
      return lolbinFetch(program, args);
    case "invoke-webrequest":
    case "iwr":
    case "invoke-restmethod":
    case "irm":
      return webCmdletUpload(args);
    default:
      return undefined;
  }
}

/**
 * The names under which bash meets the programs above: as Windows spells them, with and
 * without `.exe`, and the cmdlets as a PowerShell tool's text is written (its own parser reads
 * that text as shell, so a cmdlet arrives as a program).
 */
const WINDOWS_PROGRAMS: ReadonlySet<string> = new Set([
  ..."reg ntdsutil rundll32 vssadmin wmic sc netsh wevtutil net net1 certutil bitsadmin"
    .split(" ")
    .flatMap((p) => [p, `${p}.exe`, p.toUpperCase(), `${p.toUpperCase()}.EXE`]),
  ..."Set-MpPreference Add-MpPreference Stop-Service Set-Service Set-NetFirewallProfile Clear-EventLog Add-LocalGroupMember Invoke-WebRequest iwr Invoke-RestMethod irm"
    .split(" ")
    .flatMap((c) => [c, c.toLowerCase()]),
]);

/** The hit for a verdict on `span`. */
export function windowsHit(span: { start: number; end: number }, verdict: WindowsVerdict): Hit {
  return hitOn(span, verdict.rule, verdict.severity, verdict.score, verdict.reason);
}

/**
 * `certutil -urlcache -f URL x.exe && x.exe`, `bitsadmin /transfer j URL C:\\p\\x.exe & start C:\\p\\x.exe`:
 * a file fetched by a Windows tool and then run. Compared as `windowsProgram` names, which
 * read a path the same whether bash kept its backslashes or not.
 */
export function downloadedThenRun(analysis: Analysis): Hit[] {
  const hits: Hit[] = [];
  const fetched = new Map<string, { start: number; end: number; url: string }>();
  for (const inv of analysis.invocations) {
    const program = windowsProgram(inv.name);
    const download =
      program === "certutil" || program === "bitsadmin" ? lolbinDownload(program, inv.args) : undefined;
    if (download?.file !== undefined) {
      fetched.set(windowsProgram(download.file), { start: inv.start, end: inv.end, url: download.url });
      continue;
    }
    if (fetched.size === 0) continue;
    const started =
      program === "start" || program === "start-process" || program === "saps" || program === "cmd"
        ? inv.args.find((a) => fetched.has(windowsProgram(a)))
        : inv.program;
    const from = started === undefined ? undefined : fetched.get(windowsProgram(started));
    if (from !== undefined)
      hits.push(
        hitOn(
          { start: from.start, end: inv.end },
          "windows-download-run",
          Severity.HIGH,
          0.9,
          `downloads ${from.url} and runs it`,
        ),
      );
  }
  return hits;
}

export const windows = ruleModule<{ download: boolean }>({
  name: "windows",
  prepare: () => ({ download: false }),
  commands: [
    {
      programs: [...WINDOWS_PROGRAMS],
      check: (inv, hits, state) => {
        if (!WINDOWS_PROGRAMS.has(inv.name)) return;
        const verdict = judgeWindowsCommand([inv.name, ...inv.args]);
        if (verdict?.rule === "windows-lolbin-download") state.download = true;
        pushHit(hits, verdict === undefined ? undefined : windowsHit(inv, verdict));
      },
    },
  ],
  after: (analysis, hits, state) => {
    if (state.download) hits.push(...downloadedThenRun(analysis));
  },
});
