// The destination policy of the EMS client's outbound door (lib/ems/destination.ts): which
// addresses are private, and what a URL may be before any DNS. The door itself, over real HTTP:
// tests/ems/outbound.test.ts.
import { describe, expect, it } from "vitest";
import { addressRange, checkDestination, destinationPolicy, refusalForAddresses, type DestinationPolicy } from "@/lib/ems/destination";

const anyPublicHost: DestinationPolicy = { allowedHosts: null, privateOrigins: [], sandboxOrigins: [] };

/** The kind of destination, or the reason it is refused. */
function verdict(url: string, policy: DestinationPolicy = anyPublicHost): string {
  const checked = checkDestination(new URL(url), policy);
  return checked.ok ? checked.kind : checked.refusal.reason;
}

describe("addressRange: public unicast or the range that rules an address out", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["0.0.0.0", "unspecified"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "carrierGradeNat"],
    ["169.254.169.254", "linkLocal"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.10", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fd00::1", "uniqueLocal"],
    ["fe80::1", "linkLocal"],
    ["ff02::1", "multicast"],
    // IPv6 forms that carry an IPv4 address are judged by it.
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:a9fe:a9fe", "linkLocal"],
    ["64:ff9b::7f00:1", "loopback"],
    ["64:ff9b::a00:1", "private"],
    ["2002:7f00:1::1", "loopback"],
    ["2002:a9fe:a9fe::", "linkLocal"],
    // Deprecated IPv4-compatible (::a.b.c.d), local-use NAT64, Teredo, documentation: outside 2000::/3 or special.
    ["::7f00:1", "reserved"],
    ["64:ff9b:1::a00:1", "rfc6052"],
    ["2001::1", "teredo"],
    ["2001:db8::1", "reserved"],
    ["not an address", "invalid"],
  ])("%s is %s", (address, range) => {
    expect(addressRange(address)).toBe(range);
  });

  it.each(["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"])("%s is public", (address) => {
    expect(addressRange(address)).toBe("public");
  });
});

describe("checkDestination: what the URL alone decides", () => {
  it.each([
    // Every way of writing 127.0.0.1 that URL parsing turns into it.
    "https://2130706433/",
    "https://0x7f000001/",
    "https://0177.0.0.1/",
    "https://127.1/",
    "https://127.0.0.1./",
    "https://[::ffff:127.0.0.1]/",
    "https://[::1]/",
    "https://0.0.0.0/",
    "https://100.64.0.1/",
    "https://169.254.169.254/latest/meta-data/",
    "https://10.1.2.3/",
    "https://[fd00::1]/",
    "https://[64:ff9b::7f00:1]/",
    // Names that only ever mean a private network.
    "https://metadata.google.internal/",
    "https://metadata.google.internal./",
    "https://localhost/",
    "https://api.localhost/",
    "https://printer.local/",
    "https://intranet/",
  ])("refuses %s as a private address", (url) => {
    expect(verdict(url)).toBe("private-address");
  });

  it("takes a public host over HTTPS, and refuses plain HTTP and other schemes", () => {
    expect(verdict("https://api.example.com/ems")).toBe("public");
    expect(verdict("https://93.184.215.14:8443/")).toBe("public");
    expect(verdict("http://api.example.com/")).toBe("http-not-allowed");
    expect(verdict("ftp://api.example.com/")).toBe("http-not-allowed");
  });

  it("lets this portal's own /sandbox through while the sandbox is on, and nothing else on its origin", () => {
    const policy = { ...anyPublicHost, sandboxOrigins: ["http://localhost:3000", "http://127.0.0.1:3000"] };
    expect(verdict("http://localhost:3000/sandbox", policy)).toBe("sandbox");
    expect(verdict("http://127.0.0.1:3000/sandbox/api/v1/events?page=2", policy)).toBe("sandbox");
    expect(verdict("http://127.0.0.1:3000/internal-admin", policy)).toBe("sandbox-path-only");
    expect(verdict("http://127.0.0.1:3000/sandboxed", policy)).toBe("sandbox-path-only");
    expect(verdict("http://127.0.0.1:3000/", policy)).toBe("sandbox-path-only");
    // Another port, or HTTPS on loopback, is not this portal.
    expect(verdict("http://127.0.0.1:4999/sandbox", policy)).toBe("http-not-allowed");
    expect(verdict("https://127.0.0.1:3000/sandbox", policy)).toBe("private-address");
  });

  it("lets listed private origins through on scheme, host and port exactly", () => {
    const policy = { ...anyPublicHost, privateOrigins: ["http://127.0.0.1:4010", "https://ems.internal:8443"] };
    expect(verdict("http://127.0.0.1:4010/internal-admin", policy)).toBe("listed");
    expect(verdict("https://ems.internal:8443/api", policy)).toBe("listed");
    expect(verdict("http://127.0.0.1:4011/", policy)).toBe("http-not-allowed");
    expect(verdict("https://127.0.0.1:4010/", policy)).toBe("private-address");
    expect(verdict("https://ems.internal/", policy)).toBe("private-address");
    expect(verdict("http://ems.internal:8443/", policy)).toBe("http-not-allowed");
  });

  it("keeps to EMS_ALLOWED_HOSTS when it is set: exact names, and *.domain for subdomains only", () => {
    const policy = { ...anyPublicHost, allowedHosts: ["api.swoogo.com", "*.example.com"] };
    expect(verdict("https://api.swoogo.com/", policy)).toBe("public");
    expect(verdict("https://eu.api.example.com/", policy)).toBe("public");
    expect(verdict("https://example.com/", policy)).toBe("host-not-allowed");
    expect(verdict("https://swoogo.com/", policy)).toBe("host-not-allowed");
    expect(verdict("https://api.swoogo.com.attacker.net/", policy)).toBe("host-not-allowed");
    expect(verdict("https://attacker-example.com/", policy)).toBe("host-not-allowed");
    const checked = checkDestination(new URL("https://elsewhere.net/"), policy);
    expect(checked.ok ? "" : checked.refusal.message).toBe("This portal connects only to the EMS API hosts its operator allows: api.swoogo.com, *.example.com.");
    // An allowed name is still refused when it resolves privately (refusalForAddresses, below).
  });
});

describe("refusalForAddresses: every address of a public destination must be public", () => {
  it("refuses a name with one private address among public ones, and a name with none", () => {
    expect(refusalForAddresses("public", ["93.184.215.14"])).toBeNull();
    expect(refusalForAddresses("public", ["93.184.215.14", "10.0.0.7"])?.reason).toBe("private-address");
    expect(refusalForAddresses("public", ["::ffff:127.0.0.1"])?.message).toMatch(/^That address is on a private network/);
    expect(refusalForAddresses("public", [])?.reason).toBe("private-address");
  });

  it("leaves listed origins and the sandbox to their own addresses", () => {
    expect(refusalForAddresses("listed", ["10.0.0.7"])).toBeNull();
    expect(refusalForAddresses("sandbox", ["127.0.0.1"])).toBeNull();
  });
});

describe("destinationPolicy: from the environment", () => {
  const production = { NODE_ENV: "production", PORT: "3100" };

  it("has no sandbox origin in production with the sandbox off", () => {
    const policy = destinationPolicy(production);
    expect(policy).toEqual({ allowedHosts: null, privateOrigins: [], sandboxOrigins: [] });
    expect(verdict("http://localhost:3100/sandbox", policy)).toBe("http-not-allowed");
  });

  it("knows this portal's origins (loopback on PORT, and NEXTAUTH_URL) while the sandbox is on", () => {
    // (A production sandbox needs a signing secret of its own: lib/env.ts refuses the public default.)
    const policy = destinationPolicy({ ...production, SANDBOX_ENABLED: "true", SANDBOX_SIGNING_SECRET: "s".repeat(43), NEXTAUTH_URL: "https://portal.example.com/" });
    expect(policy.sandboxOrigins).toEqual(["http://localhost:3100", "http://127.0.0.1:3100", "http://[::1]:3100", "https://portal.example.com"]);
    expect(destinationPolicy({ NODE_ENV: "development" }).sandboxOrigins).toContain("http://localhost:3000");
  });

  it("reads EMS_ALLOWED_HOSTS and EMS_ALLOW_PRIVATE_ORIGINS", () => {
    const policy = destinationPolicy({
      ...production,
      EMS_ALLOWED_HOSTS: "api.swoogo.com, *.Example.COM",
      EMS_ALLOW_PRIVATE_ORIGINS: "http://127.0.0.1:4010,https://EMS.internal:8443/",
    });
    expect(policy.allowedHosts).toEqual(["api.swoogo.com", "*.example.com"]);
    expect(policy.privateOrigins).toEqual(["http://127.0.0.1:4010", "https://ems.internal:8443"]);
  });
});
