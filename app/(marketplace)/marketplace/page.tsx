import type { Metadata } from "next";
import { site } from "@/lib/site";

export const metadata: Metadata = { title: "MCP Server Marketplace", description: site.tagline };

export default function MarketplacePage() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">MCP Server Marketplace</h1>
      <p className="mt-2 text-muted-foreground">{site.tagline}</p>
    </div>
  );
}
