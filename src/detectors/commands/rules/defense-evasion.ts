import { Severity } from "../../../../gen/guard/v1/types_pb.js";
import { normalizePath } from "../paths.js";
import type { Invocation } from "../shell/analyze.js";
import { ruleModule, Trait } from "./dispatch.js";
import { hitOn, operands, redirectWrites } from "./types.js";

/**
 * Turning security controls off or wiping traces: SELinux and AppArmor, host firewalls,
 * audit and endpoint agents, shell history and system logs. Reading history (`history`) or a
 * firewall's rules (`iptables -L`) is not matched.
 */

const SECURITY_SERVICES =
  /^(auditd|firewalld|apparmor|ufw|iptables|nftables|fail2ban|falcon-sensor|crowdstrike|osqueryd|wazuh-agent|ossec|clamav-daemon|clamd|sysmon|sysmonforlinux|sshguard|aide|selinux|rsyslog|syslog|systemd-journald|mdatp|sentinelone|elastic-agent|auditbeat)(\.service)?$/;

function disables(inv: Invocation): string | undefined {
  const a = inv.args;
  switch (inv.name) {
    case "setenforce":
      return a[0] === "0" || a[0]?.toLowerCase() === "permissive"
        ? "puts SELinux in permissive mode"
        : undefined;
    case "ufw":
      return a.includes("disable") || a.includes("reset") ? "disables the ufw firewall" : undefined;
    case "iptables":
    case "ip6tables":
    case "iptables-legacy":
    case "iptables-nft": {
      if (a.includes("-F") || a.includes("--flush") || a.includes("-X")) return "flushes the firewall rules";
      const policy = a.findIndex((x) => x === "-P" || x === "--policy");
      return policy !== -1 && a[policy + 2] === "ACCEPT" ? "sets the firewall policy to accept" : undefined;
    }
    case "nft":
      return a.includes("flush") && a.includes("ruleset") ? "flushes the nftables ruleset" : undefined;
    case "systemctl":
    case "service": {
      const verb = a.find((x) => x === "stop" || x === "disable" || x === "mask" || x === "kill");
      const unit = a.find((x) => SECURITY_SERVICES.test(x));
      return verb && unit ? `${verb}s ${unit}` : undefined;
    }
    case "auditctl":
      return a.includes("-D") || (a.includes("-e") && a[a.indexOf("-e") + 1] === "0")
        ? "clears or disables audit rules"
        : undefined;
    case "aa-teardown":
      return "unloads all AppArmor profiles";
    case "aa-disable":
    case "aa-complain":
      return "relaxes AppArmor profiles";
    case "spctl":
      return a.includes("--master-disable") ? "disables Gatekeeper" : undefined;
    case "csrutil":
      return a.includes("disable") ? "disables System Integrity Protection" : undefined;
    case "history":
      return a.includes("-c") || (a.includes("-w") && a.includes("/dev/null"))
        ? "clears shell history"
        : undefined;
    case "unset":
      return a.some((x) => x === "HISTFILE") ? "stops recording shell history" : undefined;
    case "set":
      return a.includes("+o") && a.includes("history") ? "stops recording shell history" : undefined;
    case "export":
      return a.some((x) => x === "HISTFILE=/dev/null" || x === "HISTSIZE=0" || x === "HISTFILESIZE=0")
        ? "stops recording shell history"
        : undefined;
    case "journalctl":
      return a.some((x) => /^--vacuum-(time=[0-9]+s|size=[0-9]+[KB]?)$/.test(x))
        ? "purges the system journal"
        : undefined;
    case "sysctl":
      return a.some((x) => /^kernel\.randomize_va_space=0$/.test(x))
        ? "turns off address-space layout randomisation"
        : undefined;
    case "sed":
      // `sed -i 's/SELINUX=enforcing/SELINUX=disabled/' /etc/selinux/config`: off from the next boot.
      return operands(a).some((x) => normalizePath(x) === "/etc/selinux/config") &&
        a.some((x) => /SELINUX=(?:disabled|permissive)/.test(x))
        ? "turns SELinux off from the next boot"
        : undefined;
    case "pkill":
    case "killall":
      return a.some((x) => SECURITY_SERVICES.test(x) || /^(falcon|auditd|osqueryd|wazuh|ossec)/.test(x))
        ? "kills a security agent"
        : undefined;
    default:
      return undefined;
  }
}

function isTraceFile(raw: string): boolean {
  const p = normalizePath(raw);
  return (
    /^~\/\.(bash|zsh|sh|python)_history$/.test(p) ||
    /^\/var\/log\/(auth|secure|syslog|messages|wtmp|btmp|lastlog|audit)/.test(p)
  );
}

function wipesTraces(inv: Invocation): boolean {
  const truncates =
    inv.redirects.length > 0 &&
    redirectWrites(inv).some(isTraceFile) &&
    (inv.name === "" || inv.name === "echo" || inv.name === "cat" || inv.name === ":" || inv.name === "true");
  const removes =
    (inv.name === "rm" || inv.name === "shred" || inv.name === "truncate") &&
    operands(inv.args).some(isTraceFile);
  const links = inv.name === "ln" && inv.args.includes("/dev/null") && operands(inv.args).some(isTraceFile);
  return truncates || removes || links;
}

/** Programs `disables` judges. */
const DISABLERS = [
  "setenforce",
  "ufw",
  "iptables",
  "ip6tables",
  "iptables-legacy",
  "iptables-nft",
  "nft",
  "systemctl",
  "service",
  "auditctl",
  "aa-teardown",
  "aa-disable",
  "aa-complain",
  "spctl",
  "csrutil",
  "history",
  "unset",
  "set",
  "export",
  "journalctl",
  "sysctl",
  "sed",
  "pkill",
  "killall",
];

export const defenseEvasion = ruleModule({
  name: "defense-evasion",
  commands: [
    {
      programs: DISABLERS,
      check(inv, hits) {
        const reason = disables(inv);
        if (reason !== undefined) hits.push(hitOn(inv, "disable-security", Severity.HIGH, 0.85, reason));
      },
    },
    {
      // `HISTFILE=/dev/null cmd`: assignments come before any program.
      programs: [],
      traits: [Trait.assignment],
      check(inv, hits) {
        if (
          inv.assignments.some((a) => a === "HISTFILE=/dev/null" || a === "HISTFILE=" || a === "HISTSIZE=0")
        )
          hits.push(hitOn(inv, "history-off", Severity.HIGH, 0.8, "stops recording shell history"));
      },
    },
    {
      // Truncating redirections are judged whatever the program.
      programs: ["rm", "shred", "truncate", "ln"],
      traits: [Trait.redirect],
      check(inv, hits) {
        if (wipesTraces(inv))
          hits.push(hitOn(inv, "wipe-traces", Severity.HIGH, 0.85, "erases shell history or system logs"));
      },
    },
  ],
});
