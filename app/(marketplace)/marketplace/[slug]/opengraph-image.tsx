import { createHash } from "node:crypto";
import { notFound } from "next/navigation";
import { ImageResponse } from "next/og";
import { OgCard } from "@/components/marketplace/og-card";
import { PUBLIC_CACHE } from "@/lib/http/cache-headers";
import { getListing } from "@/lib/listings/catalogue";
import { formatPrice } from "@/lib/listings/format";
import { isListingId } from "@/lib/listings/keys";

export const alt = "MCP server on Agora";
export const size = { width: 1200, height: 630 };
export const contentType = "image/png";

// Kept in the route cache like the detail page (rendered on first request, again after an approval revalidates the
// listings tag or five minutes pass): a render takes over a second of CPU, so each request used to cost one. The
// route cache never stores a 404 (lib/cache/route-cache-handler.mjs), so invented slugs take no entry.
export const revalidate = 300;
export function generateStaticParams() {
  return [];
}

export default async function Image({ params }: { params: Promise<{ slug: string }> }) {
  const key = (await params).slug;
  // Unknown listings are a 404 before anything is drawn; an id names no image (the page only redirects it).
  if (isListingId(key)) notFound();
  const listing = await getListing(key);
  if (!listing) notFound();
  const footer = [
    formatPrice(listing.price) + (listing.price ? " per call" : ""),
    listing.verified ? "Verified" : null,
    listing.categories.join(" · "),
  ]
    .filter(Boolean)
    .join("  ·  ");
  const png = Buffer.from(
    await new ImageResponse(
      <OgCard eyebrow="MCP server" title={listing.name} subtitle={listing.description} footer={footer} />,
      size,
    ).arrayBuffer(),
  );
  // The stored entry keeps these headers: shared caches may keep the image as they keep the page, and revalidate by
  // its ETag (the image's own digest, so it changes only when the picture does).
  const etag = `"og-${createHash("sha1").update(png).digest("base64url")}"`;
  return new Response(png, { headers: { "Content-Type": contentType, "Cache-Control": PUBLIC_CACHE, ETag: etag } });
}
