// Request parsing shared by route handlers: content type, size cap, JSON, schema.
import type { z } from "zod";
import { isIP } from "node:net";
import { env } from "./env";
import { ApiError, validationError } from "./errors";

export const MAX_JSON_BYTES = 16 * 1024;

/** Refuses anything but a JSON body with 415. */
export function requireJsonContentType(request: Request): void {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new ApiError(415, "Content-Type must be application/json.");
}

/** Reads the raw body, refusing with 413 past `maxBytes` whether or not Content-Length says so. */
export async function readBody(request: Request, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new ApiError(413, `Request body must be at most ${maxBytes / 1024} KB.`);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge();

  // The header can lie or be absent (chunked); count the bytes as they arrive.
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}

/** Reads a JSON body no larger than `maxBytes`, then validates it with `schema`. */
export async function readJson<T extends z.ZodType>(request: Request, schema: T, maxBytes = MAX_JSON_BYTES): Promise<z.infer<T>> {
  requireJsonContentType(request);
  const body = await readBody(request, maxBytes);
  let data: unknown;
  try {
    data = JSON.parse(body.toString("utf8"));
  } catch {
    throw new ApiError(400, "Request body is not valid JSON.", { code: "invalid_json" });
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

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
