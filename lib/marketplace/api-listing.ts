// The spec's MCP agent shape (§3) for the public JSON API.
import { createHash } from "node:crypto";
import { NextResponse } from "next/server";
import type { PublicListing } from "@/db/queries/listings";
import { joinCategories } from "@/lib/categories";

export type ApiAgent = {
  id: string;
  name: string;
  description: string;
  categories: string;
  price: number | null;
  verified: boolean;
  createdAt: string;
  website_url: string | null;
};

type AgentSource = Pick<PublicListing, "id" | "name" | "description" | "categories" | "price" | "verified" | "websiteUrl"> & { createdAt: string | Date };

/** The spec's agent (§3) from a public listing or a freshly saved row. */
export function toApiAgent(listing: AgentSource): ApiAgent {
  return {
    id: listing.id,
    name: listing.name,
    description: listing.description,
    categories: joinCategories(listing.categories),
    price: listing.price,
    verified: listing.verified,
    createdAt: new Date(listing.createdAt).toISOString(),
    website_url: listing.websiteUrl,
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
