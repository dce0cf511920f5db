/** Whether a command argument names another host, the test both the upload checks and their dispatch traits use. */

const IPV4 = /(^|[^0-9.])[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}([^0-9.]|$)/;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * Whether `arg` has three dots with a digit on each side, as an IPv4 address does: most words
 * with a dot end a sentence or name a file. It jumps from dot to dot rather than reading every
 * character, since some words are long (a JSON document in quotes) and have few dots.
 */
function mayHoldIpv4(arg: string): boolean {
  let flanked = 0;
  for (let k = arg.indexOf("."); k !== -1; k = arg.indexOf(".", k + 1)) {
    if (isDigit(arg.charCodeAt(k - 1)) && isDigit(arg.charCodeAt(k + 1)) && ++flanked === 3) return true;
  }
  return false;
}

function isRemoteAddress(arg: string): boolean {
  return mayHoldIpv4(arg) && IPV4.test(arg) && !arg.startsWith("127.") && !arg.startsWith("0.0.0.0");
}

/** An argument naming somewhere off the host: a URL, `user@host:path`, an IPv4 address. */
export function isRemote(arg: string): boolean {
  const colon = arg.indexOf(":");
  // Every form but a bare IPv4 address has a colon; most words have neither a colon nor a dot.
  if (colon === -1) return arg.includes(".") && isRemoteAddress(arg);
  if (
    /^(https?|ftps?|tftp|gopher|scp|sftp|rsync|smb|dict|telnet|tcp|udp|tcp-connect|openssl-connect|ssl):/i.test(
      arg,
    )
  )
    return true;
  if (/^[A-Za-z0-9._-]{1,64}@[A-Za-z0-9.-]{1,253}:/.test(arg)) return true;
  const host = colon > 0 ? arg.slice(0, colon) : "";
  if (host.includes(".") && /^[A-Za-z0-9.-]{1,253}$/.test(host) && arg[colon + 1] !== "/") return true;
  return isRemoteAddress(arg);
}
