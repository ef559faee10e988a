// JSON answers the public read APIs share: a content ETag, a short public cache, 304 when nothing changed.
import { createHash } from "node:crypto";
import { NextResponse } from "next/server";
import { matchesEtag, readCacheControl } from "@/lib/http/cache-headers";

/** JSON with a content ETag; answers 304 when the client already holds this version. Public to shared caches
 * unless the request carries a session cookie (lib/http/cache-headers.ts). */
export function cachedJson(request: Request, body: unknown, headers: Record<string, string> = {}): Response {
  const json = JSON.stringify(body);
  const etag = `W/"${createHash("sha1").update(json).digest("base64url")}"`;
  const common = { ETag: etag, "Cache-Control": readCacheControl(request), Vary: "Accept-Encoding", ...headers };
  if (matchesEtag(request, etag)) {
    return new Response(null, { status: 304, headers: common });
  }
  return new NextResponse(json, {
    status: 200,
    headers: { "Content-Type": "application/json; charset=utf-8", ...common },
  });
}
