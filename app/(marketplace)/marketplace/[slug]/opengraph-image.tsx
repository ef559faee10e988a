import { ImageResponse } from "next/og";
import { OgCard } from "@/components/marketplace/og-card";
import { getListing } from "@/lib/listings/catalogue";
import { formatPrice } from "@/lib/listings/format";

export const alt = "MCP server on Agora";
export const size = { width: 1200, height: 630 };
export const contentType = "image/png";

export default async function Image({ params }: { params: Promise<{ slug: string }> }) {
  const listing = await getListing((await params).slug);
  if (!listing) return new ImageResponse(<OgCard eyebrow="Marketplace" title="MCP server not found" subtitle="" footer="" />, size);
  const footer = [formatPrice(listing.price) + (listing.price ? " per call" : ""), listing.verified ? "Verified" : null, listing.categories.join(" · ")].filter(Boolean).join("  ·  ");
  return new ImageResponse(<OgCard eyebrow="MCP server" title={listing.name} subtitle={listing.description} footer={footer} />, size);
}
