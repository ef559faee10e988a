// Where a listed MCP server may live. Anyone can read the URL and agents will call it, so in production it
// must be https on a public host; an operator switch (ALLOW_PRIVATE_SERVER_URLS) lifts that for test deployments.
import { isIP } from "node:net";
import { env } from "@/lib/env";

/** One spelling per server: lower-case host, no default port, no fragment, no trailing slash. */
export function normalizeServerUrl(raw: string): string {
  const url = new URL(raw);
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.origin}${path}${url.search}`;
}

export function serverUrlProblem(raw: string): string | null {
  const { NODE_ENV, ALLOW_PRIVATE_SERVER_URLS } = env();
  if (NODE_ENV !== "production" || ALLOW_PRIVATE_SERVER_URLS) return null;
  const url = new URL(raw);
  if (url.protocol !== "https:") return "The MCP server URL must use https.";
  if (isPrivateHost(url.hostname)) return "The MCP server URL must be on a public host.";
  return null;
}

export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "").replace(/^\[|\]$/g, "");
  if (host === "localhost" || /\.(localhost|local|internal|lan|home\.arpa)$/.test(host) || !host.includes(".")) return true;
  if (isIP(host) === 6) return true;
  if (isIP(host) !== 4) return false;
  const [a, b] = host.split(".").map(Number) as [number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224
  );
}
