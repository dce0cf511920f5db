/** Whether a command argument names another host, the test both the upload checks and their dispatch traits use. */

const IPV4 = /(^|[^0-9.])[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}([^0-9.]|$)/;

/** Whether `arg` has the three dots and four digits an IPv4 address needs: most words with a dot end a sentence. */
function mayHoldIpv4(arg: string): boolean {
  let dots = 0;
  let digits = 0;
  for (let k = 0; k < arg.length; k++) {
    const c = arg.charCodeAt(k);
    if (c === 0x2e) dots++;
    else if (c >= 0x30 && c <= 0x39) digits++;
  }
  return dots >= 3 && digits >= 4;
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
