// The spec's MCP agent shape (§3) for the public JSON API, and its cached JSON answers.
import { createHash } from "node:crypto";
import { NextResponse } from "next/server";
import type { ListingView } from "@/db/queries/listing-view";
import { joinCategories } from "@/lib/categories";
import { probeFacts, type ProbeFacts } from "@/lib/listings/facts";

/** The spec's fields (§3) keep their shapes; what the probe knows follows them (additive). */
export type ApiAgent = {
  id: string;
  name: string;
  description: string;
  categories: string;
  price: number | null;
  verified: boolean;
  createdAt: string;
  website_url: string | null;
} & ProbeFacts;

export function toApiAgent(listing: ListingView): ApiAgent {
  return {
    id: listing.id,
    name: listing.name,
    description: listing.description,
    categories: joinCategories(listing.categories),
    price: listing.price,
    verified: listing.verified,
    createdAt: listing.createdAt,
    website_url: listing.websiteUrl,
    ...probeFacts(listing),
  };
}

/** JSON with a content ETag; answers 304 when the client already holds this version. */
export function cachedJson(request: Request, body: unknown, headers: Record<string, string> = {}): Response {
  const json = JSON.stringify(body);
  const etag = `W/"${createHash("sha1").update(json).digest("base64url")}"`;
  const common = { ETag: etag, "Cache-Control": "public, max-age=15, stale-while-revalidate=60", Vary: "Accept-Encoding", ...headers };
  const held = request.headers.get("if-none-match");
  if (held && held.split(",").some((t) => t.trim() === etag || t.trim() === "*")) {
    return new Response(null, { status: 304, headers: common });
  }
  return new NextResponse(json, { status: 200, headers: { "Content-Type": "application/json; charset=utf-8", ...common } });
}
