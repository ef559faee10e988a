// Where a listed MCP server may live. Anyone can read the URL and agents will call it, so in production it
// must be https on a public host; an operator switch (ALLOW_PRIVATE_SERVER_URLS) lifts that for test deployments.
import { isIP } from "node:net";
import { env } from "@/lib/env";
import { hostnameRefusal, refusalReason } from "@/lib/ssrf/address-policy";

/** One spelling per server: lower-case host, no default port, no fragment, no trailing slash. */
export function normalizeServerUrl(raw: string): string {
  const url = new URL(raw);
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.origin}${path}${url.search}`;
}

/**
 * The spellings one server is stored under: the normalised one (submissions), and the same with a trailing slash,
 * as a registry's URL may give it and ingestion keeps it (`https://host/`, `https://host/mcp/`): an imported
 * listing is found again by the URL its registry lists, so both spellings exist and a lookup must try both.
 */
export function serverUrlSpellings(raw: string): [string, string] {
  const normal = normalizeServerUrl(raw);
  const url = new URL(normal);
  return [normal, `${url.origin}${url.pathname.replace(/\/?$/, "/")}${url.search}`];
}

export function serverUrlProblem(raw: string): string | null {
  const { NODE_ENV, ALLOW_PRIVATE_SERVER_URLS } = env();
  if (NODE_ENV !== "production" || ALLOW_PRIVATE_SERVER_URLS) return null;
  const url = new URL(raw);
  if (url.protocol !== "https:") return "The MCP server URL must use https.";
  if (isPrivateHost(url.hostname)) return "The MCP server URL must be on a public host.";
  return null;
}

/**
 * A host agents could not reach from the internet, by the same rule the probe applies before it connects
 * (lib/ssrf/address-policy.ts): a local or unqualified name, or an address that is not global unicast.
 */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/\.$/, "")
    .replace(/^\[|\]$/g, "");
  const policy = { allowPrivateHosts: false };
  return isIP(host) ? refusalReason(host, policy) !== null : hostnameRefusal(host, policy) !== null;
}
