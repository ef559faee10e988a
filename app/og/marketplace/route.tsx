import { ImageResponse } from "next/og";
import { OgCard } from "@/components/marketplace/og-card";
import { site } from "@/lib/site";

// A stable URL for the marketplace's Open Graph image, shared by the cached and the filtered routes.
export const dynamic = "force-static";

export function GET() {
  return new ImageResponse(
    <OgCard
      eyebrow="Marketplace"
      title="MCP Server Marketplace"
      subtitle={site.tagline}
      footer="Paid MCP tools for AI agents · USDC on Base"
    />,
    { width: 1200, height: 630 },
  );
}
