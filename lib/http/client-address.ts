// Who is calling: the client address every rate limit and log counts against.
import { isIP } from "node:net";
import { env } from "@/lib/env";

/** The header server/client-address.mjs sets from the TCP connection (any client-sent copy is dropped first). */
export const CLIENT_ADDRESS_HEADER = "x-agora-client-address";

/**
 * The caller's address (a Request, or a server action's headers): the TCP peer, or, behind
 * TRUSTED_PROXY_HOPS reverse proxies, the address the outermost trusted proxy appended to
 * X-Forwarded-For (counted from the right, so nothing the client writes at the left end counts).
 * "unknown" when the server was started without the preload (instrumentation refuses that outside tests).
 */
export function clientIp(request: { headers: Headers }): string {
  const peer = normalizeIp(request.headers.get(CLIENT_ADDRESS_HEADER));
  const hops = env().TRUSTED_PROXY_HOPS;
  if (hops > 0) {
    const chain = (request.headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    // With N proxies the client's address is the N-th entry from the right; a shorter chain's leftmost
    // entry was still written by a trusted proxy.
    const entry = chain.length > 0 ? normalizeIp(chain[Math.max(0, chain.length - hops)]!) : undefined;
    if (entry) return entry;
  }
  return peer ?? "unknown";
}

/** A bare IP address (IPv4-mapped IPv6 as IPv4), or undefined for anything that is not one. */
export function normalizeIp(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  let ip = value.trim().slice(0, 64);
  if (ip.startsWith("[") && ip.includes("]")) ip = ip.slice(1, ip.indexOf("]"));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) ip = mapped[1]!;
  const version = isIP(ip);
  if (version === 0) return undefined;
  return version === 6 ? ip.toLowerCase() : ip;
}
