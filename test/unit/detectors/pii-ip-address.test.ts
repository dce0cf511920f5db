import { describe, expect, it } from "vitest";
import { Severity } from "../../../gen/guard/v1/types_pb.js";
import { findIpAddresses, parseIpv6 } from "../../../src/detectors/pii/ip-address.js";

const positives: readonly [string, string, Severity][] = [
  ["server 8.8.8.8 answered", "8.8.8.8", Severity.MEDIUM],
  ["lan 192.168.1.10,", "192.168.1.10", Severity.LOW],
  ["loopback 127.0.0.1.", "127.0.0.1", Severity.LOW],
  ["route 10.0.0.0/8", "10.0.0.0/8", Severity.LOW],
  ["v6 2a00:1450:4001:81c::200e ok", "2a00:1450:4001:81c::200e", Severity.MEDIUM],
  ["doc 2001:db8::1", "2001:db8::1", Severity.LOW],
  ["[::1]:8080", "::1", Severity.LOW],
  ["zone fe80::1%eth0", "fe80::1%eth0", Severity.LOW],
  ["mapped ::ffff:8.8.4.4", "::ffff:8.8.4.4", Severity.MEDIUM],
  ["prefix 2001:db8::/32.", "2001:db8::/32", Severity.LOW],
  ["default route ::/0", "::/0", Severity.LOW],
];

const negatives: readonly string[] = [
  "256.1.1.1",
  "192.168.1",
  "version 1.2.3",
  "oid 1.3.6.1.4.1",
  "text192.168.1.1",
  "mac aa:bb:cc:dd:ee:ff",
  "time 12:34:56",
  "std::cout << x",
  "MyClass::toString",
  "2001::db8::1",
  "12345:db8::1",
  "fe80::1text",
  "unspecified ::",
  "std::/x",
];

describe("IP addresses", () => {
  it.each(positives)("finds %j", (text, address, severity) => {
    const [d, ...rest] = findIpAddresses(text);
    expect(rest).toEqual([]);
    expect(d?.category).toBe("privacy.pii.ip_address");
    expect(d?.severity).toBe(severity);
    expect(d?.start).toBe(text.indexOf(address));
    expect(d?.end).toBe(text.indexOf(address) + address.length);
  });

  it.each(negatives)("ignores %j", (text) => {
    expect(findIpAddresses(text)).toEqual([]);
  });

  it("expands ::", () => {
    expect(parseIpv6("2001:db8::1")).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6("1:2:3:4:5:6:7")).toBeNull();
  });
});
