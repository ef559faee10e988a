// Turns a user-supplied URL into one checked address to connect to: parse, refuse, resolve, refuse again.
import dns from "node:dns";
import net from "node:net";
import { hostnameRefusal, refusalReason, type AddressPolicy } from "./address-policy";
import { SafeFetchError } from "./errors";

export type ResolvedAddress = { address: string; family: number };
/** Resolves a host name to every address it has (tests inject answers, e.g. to simulate DNS rebinding). */
export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

// Names reserved never to be a real host (RFC 2606, RFC 6761): the sample catalogue and examples use them, and
// asking a DNS server about them would only send a query off the machine for an answer known in advance.
const NEVER_RESOLVES = /(^|\.)(example|invalid|test)\.?$/i;

export const systemLookup: Lookup = (hostname) => {
  if (NEVER_RESOLVES.test(hostname))
    return Promise.reject(Object.assign(new Error(`${hostname} is a reserved name`), { code: "ENOTFOUND" }));
  return dns.promises.lookup(hostname, { all: true, verbatim: true });
};

export type CheckedTarget = {
  url: URL;
  /** The URL's host without IPv6 brackets: what undici asks the connector for, and the TLS server name. */
  hostname: string;
  /** The checked address every connection for this request goes to. */
  address: string;
  family: 4 | 6;
};

type ResolvePolicy = AddressPolicy & { lookup?: Lookup };

/**
 * Parses the URL with the WHATWG parser — which also turns decimal, octal, hex and short IPv4 forms
 * (2130706433, 0x7f.1, 0177.0.0.1, 127.1) into the dotted address they mean — and returns the address
 * to connect to. Every address the name resolves to must be allowed, so a DNS answer that mixes a
 * public and an internal address is refused rather than raced.
 */
export async function resolveTarget(input: string | URL, policy: ResolvePolicy): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new SafeFetchError("invalid_url", `Not a valid URL: ${String(input).slice(0, 200)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SafeFetchError("invalid_url", `Only http and https URLs are allowed, not ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new SafeFetchError("invalid_url", "URLs with credentials are not allowed");
  }
  const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const literal = net.isIP(hostname);
  if (literal) {
    refuseAddress(hostname, hostname, policy);
    return { url, hostname, address: hostname, family: literal as 4 | 6 };
  }
  const nameProblem = hostnameRefusal(hostname, policy);
  if (nameProblem) throw new SafeFetchError("blocked_address", `Refused ${hostname}: ${nameProblem}`);
  let answers: ResolvedAddress[];
  try {
    answers = await (policy.lookup ?? systemLookup)(hostname);
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new SafeFetchError("dns_failure", `Could not resolve ${hostname}${code ? ` (${code})` : ""}`);
  }
  if (answers.length === 0) throw new SafeFetchError("dns_failure", `${hostname} has no addresses`);
  for (const answer of answers) refuseAddress(answer.address, hostname, policy);
  const first = answers[0]!;
  return { url, hostname, address: first.address.replace(/%.*$/, ""), family: net.isIPv6(first.address) ? 6 : 4 };
}

/** Throws when the policy refuses the address; `host` names what the caller asked for. */
export function refuseAddress(address: string, host: string, policy: AddressPolicy): void {
  const reason = refusalReason(address, policy);
  if (reason === null) return;
  const via = host === address ? "" : ` (${host})`;
  throw new SafeFetchError("blocked_address", `Refused ${address}${via}: ${reason} address`);
}
