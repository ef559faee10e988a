import { ImageResponse } from "next/og";
import { OgCard } from "@/components/marketplace/og-card";
import { site } from "@/lib/site";

export const alt = "MCP Server Marketplace";
export const size = { width: 1200, height: 630 };
export const contentType = "image/png";

export default function Image() {
  return new ImageResponse(<OgCard eyebrow="Marketplace" title="MCP Server Marketplace" subtitle={site.tagline} footer="Paid MCP tools for AI agents · USDC on Base" />, size);
}
