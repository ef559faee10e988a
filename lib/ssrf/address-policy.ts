// Which IP addresses a user-supplied URL may reach: globally routable unicast only, never the
// machine itself, its networks or a cloud's metadata service.
import net from "node:net";

export type AddressKind =
  | "cloud-metadata"
  | "unspecified"
  | "loopback"
  | "private"
  | "shared"
  | "unique-local"
  | "link-local"
  | "broadcast"
  | "multicast"
  | "reserved"
  | "benchmarking"
  | "documentation"
  | "ietf-protocol"
  | "invalid";

/** The kinds PROBE_ALLOW_PRIVATE_HOSTS lifts; everything else stays blocked even in development. */
const PRIVATE_KINDS: ReadonlySet<AddressKind> = new Set(["loopback", "private", "shared", "unique-local"]);

type Rule = readonly [kind: AddressKind, network: string, prefix: number];

// First match wins, so the narrow cloud-metadata entries come before the ranges that contain them.
const IPV4_RULES: Rule[] = [
  ["cloud-metadata", "169.254.169.254", 32], // AWS, GCP, Azure, OCI, DigitalOcean
  ["cloud-metadata", "169.254.170.2", 32], // AWS ECS task metadata
  ["cloud-metadata", "168.63.129.16", 32], // Azure WireServer (a public-range address)
  ["cloud-metadata", "100.100.100.200", 32], // Alibaba Cloud
  ["unspecified", "0.0.0.0", 8], // "this network"; 0.0.0.0 reaches the local host on Linux
  ["loopback", "127.0.0.0", 8],
  ["private", "10.0.0.0", 8],
  ["private", "172.16.0.0", 12],
  ["private", "192.168.0.0", 16],
  ["shared", "100.64.0.0", 10], // carrier-grade NAT
  ["link-local", "169.254.0.0", 16],
  ["ietf-protocol", "192.0.0.0", 24],
  ["documentation", "192.0.2.0", 24],
  ["documentation", "198.51.100.0", 24],
  ["documentation", "203.0.113.0", 24],
  ["benchmarking", "198.18.0.0", 15],
  ["reserved", "192.88.99.0", 24], // former 6to4 relay anycast
  ["multicast", "224.0.0.0", 4],
  ["broadcast", "255.255.255.255", 32],
  ["reserved", "240.0.0.0", 4],
];

const IPV6_RULES: Rule[] = [
  ["cloud-metadata", "fd00:ec2::254", 128], // AWS metadata over IPv6
  ["unspecified", "::", 128],
  ["loopback", "::1", 128],
  ["reserved", "::", 96], // deprecated IPv4-compatible addresses
  ["reserved", "64:ff9b:1::", 48], // local-use NAT64
  ["reserved", "100::", 64], // discard-only
  ["benchmarking", "2001:2::", 48],
  ["documentation", "2001:db8::", 32],
  ["ietf-protocol", "2001::", 23], // Teredo, ORCHID and other protocol assignments
  ["documentation", "3fff::", 20],
  ["reserved", "5f00::", 16], // SRv6 SIDs
  ["unique-local", "fc00::", 7],
  ["link-local", "fe80::", 10],
  ["reserved", "fec0::", 10], // deprecated site-local
  ["multicast", "ff00::", 8],
];

// One BlockList per rule keeps the kind of the match; node's BlockList also matches IPv4-mapped IPv6 forms.
function compile(rules: Rule[], family: "ipv4" | "ipv6") {
  return rules.map(([kind, network, prefix]) => {
    const list = new net.BlockList();
    list.addSubnet(network, prefix, family);
    return { kind, list };
  });
}

const ipv4Rules = compile(IPV4_RULES, "ipv4");
const ipv6Rules = compile(IPV6_RULES, "ipv6");
const globalUnicast = new net.BlockList();
globalUnicast.addSubnet("2000::", 3, "ipv6");

/** The eight 16-bit groups of an IPv6 address (dotted IPv4 tails included), or null. */
function ipv6Groups(address: string): number[] | null {
  if (net.isIPv6(address) === false) return null;
  let text = address.toLowerCase();
  const lastColon = text.lastIndexOf(":");
  const tail = text.slice(lastColon + 1);
  if (tail.includes(".")) {
    const [a, b, c, d] = tail.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", rest] = text.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = rest ? rest.split(":") : [];
  const zeros = rest === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  const groups = [...left, ...zeros, ...right].map((g) => parseInt(g, 16));
  return groups.length === 8 ? groups : null;
}

function ipv4From(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

/**
 * The IPv4 address an IPv6 address carries and would be delivered to: IPv4-mapped (::ffff:a.b.c.d),
 * NAT64 well-known prefix (64:ff9b::/96) and 6to4 (2002:aabb:ccdd::/48). Null for any other address.
 */
export function embeddedIPv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const upperZero = g.slice(0, 5).every((x) => x === 0);
  if (upperZero && g[5] === 0xffff) return ipv4From(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return ipv4From(g[6]!, g[7]!);
  if (g[0] === 0x2002) return ipv4From(g[1]!, g[2]!);
  return null;
}

/** Why an address may not be reached, or null when it is globally routable unicast. */
export function classifyAddress(input: string): AddressKind | null {
  // A zone id (fe80::1%eth0) only ever appears on link-local addresses; classify the address itself.
  const address = input.replace(/%.*$/, "");
  if (net.isIPv4(address)) return ipv4Rules.find((r) => r.list.check(address, "ipv4"))?.kind ?? null;
  if (!net.isIPv6(address)) return "invalid";
  const v4 = embeddedIPv4(address);
  if (v4 !== null) return classifyAddress(v4);
  const match = ipv6Rules.find((r) => r.list.check(address, "ipv6"));
  if (match) return match.kind;
  // Outside 2000::/3 nothing is allocated for global unicast.
  return globalUnicast.check(address, "ipv6") ? null : "reserved";
}

export type AddressPolicy = { allowPrivateHosts: boolean };

/** The reason an address is refused under the policy, or null when it may be reached. */
export function refusalReason(address: string, policy: AddressPolicy): AddressKind | null {
  const kind = classifyAddress(address);
  if (kind === null) return null;
  if (policy.allowPrivateHosts && PRIVATE_KINDS.has(kind)) return null;
  return kind;
}

const METADATA_NAMES = new Set(["metadata.google.internal", "metadata.goog", "metadata", "instance-data"]);
const LOCAL_SUFFIXES = [".localhost", ".local", ".internal", ".home.arpa", ".localdomain"];

/**
 * Why a host name may not be looked up, or null. Addresses are checked after resolution anyway;
 * this stops names that /etc/hosts or a search domain would turn into an internal host.
 */
export function hostnameRefusal(hostname: string, policy: AddressPolicy): string | null {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (METADATA_NAMES.has(name) || name.endsWith(".metadata.google.internal")) return "a cloud metadata host name";
  if (policy.allowPrivateHosts) return null;
  if (name === "localhost" || LOCAL_SUFFIXES.some((s) => name.endsWith(s))) return "a local host name";
  if (!name.includes(".")) return "not a fully qualified domain name";
  return null;
}
