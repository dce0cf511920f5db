import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { boundSubject, type Detection } from "../detector.js";
import { type Candidates, findCandidates, type NumberRun } from "./candidates.js";
import { codeAt, isAsciiLetter, isDigit, isHexDigit, isWordChar } from "./chars.js";

/**
 * IPv4 and IPv6 addresses, with an optional CIDR prefix (and IPv6 zone id). Both public
 * and non-public addresses are reported, because an internal address still maps a
 * network; non-public ones (private, loopback, link-local, CGNAT, multicast, documentation,
 * unspecified) rank low and public ones medium. Two forms are deliberately left out: the
 * bare unspecified address `::` (it carries no information and collides with `::` in code)
 * and dotted runs of more than four numbers (`1.3.6.1.4.1`, OIDs and versions).
 */

const DECIMAL_PART = /^\d+$/;
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;

/** The regular expressions of this scanner, for the regex safety test. */
export const ipPatterns: readonly RegExp[] = [DECIMAL_PART, HEX_GROUP];

/** Parses a dotted quad; null unless four decimal octets 0-255 without leading zeros. */
export function parseIpv4(value: string): number[] | null {
  const parts = value.split(".");
  if (parts.length !== 4) return null;
  const octets: number[] = [];
  for (const p of parts) {
    if (p.length === 0 || p.length > 3 || !DECIMAL_PART.test(p)) return null;
    if (p.length > 1 && p.startsWith("0")) return null;
    const n = Number(p);
    if (n > 255) return null;
    octets.push(n);
  }
  return octets;
}

/** True for RFC 1918, loopback, link-local, CGNAT, multicast, reserved and documentation. */
export function isNonPublicIpv4(o: readonly number[]): boolean {
  const [a = 0, b = 0, c = 0] = o;
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    a >= 224 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  );
}

/** Parses an IPv6 address into eight 16-bit groups (an embedded IPv4 tail counts as two). */
export function parseIpv6(value: string): number[] | null {
  const halves = value.split("::");
  if (halves.length > 2) return null;
  const parseSide = (side: string, allowV4: boolean): number[] | null => {
    if (side.length === 0) return [];
    const parts = side.split(":");
    const groups: number[] = [];
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i] ?? "";
      if (allowV4 && i === parts.length - 1 && p.includes(".")) {
        const v4 = parseIpv4(p);
        if (!v4) return null;
        groups.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
        continue;
      }
      if (!HEX_GROUP.test(p)) return null;
      groups.push(Number.parseInt(p, 16));
    }
    return groups;
  };
  if (halves.length === 1) {
    const groups = parseSide(value, true);
    return groups && groups.length === 8 ? groups : null;
  }
  const head = parseSide(halves[0] ?? "", false);
  const tail = parseSide(halves[1] ?? "", true);
  if (!head || !tail || head.length + tail.length > 7) return null;
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/** Loopback, unspecified, link-local, unique-local, multicast, documentation, or mapped non-public v4. */
export function isNonPublicIpv6(g: readonly number[]): boolean {
  const first = g[0] ?? 0;
  const mapped = g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0);
  if (mapped) {
    const hi = g[6] ?? 0;
    const lo = g[7] ?? 0;
    if (hi === 0) return true;
    return isNonPublicIpv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  }
  return (
    (first & 0xffc0) === 0xfe80 ||
    (first & 0xfe00) === 0xfc00 ||
    (first & 0xff00) === 0xff00 ||
    (first === 0x2001 && g[1] === 0x0db8)
  );
}

function detection(text: string, start: number, end: number, nonPublic: boolean): Detection {
  return {
    category: "privacy.pii.ip_address",
    severity: nonPublic ? Severity.LOW : Severity.MEDIUM,
    start,
    end,
    score: nonPublic ? 0.6 : 0.85,
    subject: boundSubject(text.slice(start, end)),
    placeholderKind: "IP_ADDRESS",
    reason: nonPublic ? "non-public IP address" : "public IP address",
  };
}

/** Extends `end` over a `/prefix` length of at most `max`. */
function withPrefix(text: string, end: number, max: number): number {
  if (codeAt(text, end) !== 0x2f) return end;
  let i = end + 1;
  while (i < text.length && i - end <= 3 && isDigit(text.charCodeAt(i))) i++;
  if (i === end + 1 || Number(text.slice(end + 1, i)) > max || isWordChar(codeAt(text, i))) return end;
  return i;
}

function isV6Char(c: number): boolean {
  return isHexDigit(c) || c === 0x3a || c === 0x2e;
}

/** IPv6 candidates: maximal runs of hex digits, ':' and '.', holding at least two colons. */
function findIpv6(text: string, found: Detection[]): Uint8Array | null {
  let claimed: Uint8Array | null = null;
  let i = text.indexOf(":");
  while (i !== -1) {
    let start = i;
    while (start > 0 && isV6Char(text.charCodeAt(start - 1))) start--;
    // Count colons on the way: most colons in text (`key: value`, `10:30:00`) have too few
    // to be an address, and are dismissed before any substring is taken.
    let colons = 0;
    let doubleColon = false;
    let end = start;
    while (end < text.length) {
      const c = text.charCodeAt(end);
      if (c === 0x3a) {
        colons++;
        if (codeAt(text, end - 1) === 0x3a) doubleColon = true;
      } else if (!isV6Char(c)) break;
      end++;
    }
    let valueEnd = end;
    while (valueEnd > start && text.charCodeAt(valueEnd - 1) === 0x2e) valueEnd--;
    // Eight groups take seven colons (six before an IPv4 tail) unless `::` stands for some.
    const enoughColons = doubleColon || colons >= 6;
    const glued = isWordChar(codeAt(text, start - 1)) || isAsciiLetter(codeAt(text, end));
    // The longest textual IPv6 address (with an embedded IPv4 tail) is 45 characters.
    if (enoughColons && !glued && valueEnd - start <= 45) {
      const value = text.slice(start, valueEnd);
      const groups = value !== "::" ? parseIpv6(value) : null;
      const bareUnspecified = value === "::" && codeAt(text, end) === 0x2f;
      if (groups || bareUnspecified) {
        let stop = valueEnd;
        if (codeAt(text, stop) === 0x25) {
          // Zone id: fe80::1%eth0
          let z = stop + 1;
          while (z < text.length && z - stop <= 16 && isWordChar(text.charCodeAt(z))) z++;
          if (z > stop + 1) stop = z;
        }
        stop = withPrefix(text, stop, 128);
        found.push(detection(text, start, stop, groups ? isNonPublicIpv6(groups) : true));
        claimed ??= new Uint8Array(text.length);
        claimed.fill(1, start, stop);
      }
    }
    i = text.indexOf(":", end);
  }
  return claimed;
}

/**
 * IPv4 candidates: maximal runs of digits and dots with three dots, inside the number runs
 * that hold at least four digits and three dots, and not inside an accepted IPv6 address.
 */
function findIpv4(
  text: string,
  runs: readonly NumberRun[],
  found: Detection[],
  claimed: Uint8Array | null,
): void {
  for (const run of runs) {
    if (run.digits < 4 || run.dots < 3) continue;
    let i = run.start;
    while (i < run.end) {
      if (!isDigit(text.charCodeAt(i)) || claimed?.[i] === 1) {
        i++;
        continue;
      }
      let end = i;
      let dots = 0;
      for (; end < text.length; end++) {
        const c = text.charCodeAt(end);
        if (c === 0x2e) dots++;
        else if (!isDigit(c)) break;
      }
      let valueEnd = end;
      while (valueEnd > i && text.charCodeAt(valueEnd - 1) === 0x2e) {
        valueEnd--;
        dots--;
      }
      const glued =
        isWordChar(codeAt(text, i - 1)) || codeAt(text, i - 1) === 0x2e || isWordChar(codeAt(text, end));
      const octets = glued || dots !== 3 ? null : parseIpv4(text.slice(i, valueEnd));
      if (octets) {
        const stop = withPrefix(text, valueEnd, 32);
        found.push(detection(text, i, stop, isNonPublicIpv4(octets)));
      }
      i = end;
    }
  }
}

export function findIpAddresses(text: string, candidates: Candidates = findCandidates(text)): Detection[] {
  const found: Detection[] = [];
  const claimed = findIpv6(text, found);
  findIpv4(text, candidates.runs, found, claimed);
  return found.sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
}
