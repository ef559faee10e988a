// DNS-rebinding protection. A web page on a hostile domain can point that domain's DNS at 127.0.0.1 and then
// call a provider's loopback server from the person's browser; the browser sends the hostile name as `Host`
// and its own origin as `Origin`. So a request that arrives on a loopback address must name one of the
// server's own host names, and a browser's Origin must be one of them too (or be allowed by name): the same
// rule as the MCP SDK's hostHeaderValidation (host names compared without their port), for node:http.
import type http from "node:http";
import { z } from "zod";

/** The SDK's localhost list: what a loopback server answers to unless told more. */
export const LOOPBACK_HOSTNAMES = ["localhost", "127.0.0.1", "[::1]"] as const;

export type HostCheckMode = "auto" | boolean;

export type HostCheck = {
  /** "auto": only requests that arrived on a loopback address are checked. */
  mode: HostCheckMode;
  hostnames: ReadonlySet<string>;
  origins: ReadonlySet<string>;
};

const hostname = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$|^\[[0-9a-f:.]+\]$/, {
    message: "allowedHosts takes host names without scheme or port (example.com, 10.0.0.5, [::1])",
  });

const origin = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === "http:" || url.protocol === "https:") &&
        url.pathname === "/" &&
        !url.search &&
        !url.hash &&
        !url.username
      );
    } catch {
      return false;
    }
  }, "allowedOrigins takes origins such as https://app.example.com (scheme, host, optional port; no path)")
  .transform((value) => new URL(value).origin);

export const hostCheckOptions = z.object({
  dnsRebindingProtection: z.union([z.literal("auto"), z.boolean()]).default("auto"),
  allowedHosts: z.array(hostname).max(100).default([]),
  allowedOrigins: z.array(origin).max(100).default([]),
});

export function resolveHostCheck(input: z.input<typeof hostCheckOptions>, publicUrl?: string): HostCheck {
  const result = hostCheckOptions.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new Error(`${issue.path.join(".")}: ${issue.message}`);
  }
  const parsed = result.data;
  const hostnames = new Set<string>([...LOOPBACK_HOSTNAMES, ...parsed.allowedHosts]);
  if (publicUrl) hostnames.add(new URL(publicUrl).hostname.toLowerCase());
  return { mode: parsed.dnsRebindingProtection, hostnames, origins: new Set(parsed.allowedOrigins) };
}

/** The connection's local address as a Host header's host name spells it (127.0.0.2, [::1]). */
function localHostname(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const plain = address.startsWith("::ffff:") ? address.slice(7) : address;
  return plain.includes(":") ? `[${plain}]` : plain;
}

function isLoopback(hostname: string | undefined): boolean {
  return hostname !== undefined && (hostname.startsWith("127.") || hostname === "[::1]");
}

function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Why the request is refused (a fixed sentence, never the header's value), or undefined when it may pass. */
export function rebindingRefusal(req: http.IncomingMessage, check: HostCheck): string | undefined {
  const local = localHostname(req.socket.localAddress);
  if (check.mode === false || (check.mode === "auto" && !isLoopback(local))) return undefined;
  const host = req.headers.host;
  const name = host ? hostnameOf(host) : undefined;
  // The address the connection arrived on, written as an IP, is always fine: rebinding needs a domain name.
  if (!name || (!check.hostnames.has(name) && name !== local)) {
    return "Forbidden: the Host header names a host this server does not answer to (DNS-rebinding protection; the provider can allow it with allowedHosts).";
  }
  const from = req.headers.origin;
  if (from === undefined) return undefined;
  let allowed = check.origins.has(from);
  if (!allowed) {
    try {
      const originHost = new URL(from).hostname.toLowerCase();
      allowed = check.hostnames.has(originHost) || originHost === local;
    } catch {
      allowed = false;
    }
  }
  return allowed
    ? undefined
    : "Forbidden: requests from this Origin are not accepted (DNS-rebinding protection; the provider can allow it with allowedOrigins).";
}
