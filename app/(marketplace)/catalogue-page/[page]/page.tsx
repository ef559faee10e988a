import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { MarketplaceView } from "@/components/marketplace/marketplace-view";
import { site } from "@/lib/site";
import { getMarketplacePage } from "@/lib/listings/catalogue";
import { BROWSE_SORT, filtersToSearch, type ListingFilters } from "@/lib/listings/search/filters";

// The unfiltered catalogue, page by page (proxy.ts rewrites /marketplace and /marketplace?page=N here).
// Rendered on first request, then served from the full-route cache until the listings tag is
// revalidated by an approval, or at most every five minutes.
export const revalidate = 300;
export const dynamicParams = true;
export function generateStaticParams() {
  return [];
}

type Params = Promise<{ page: string }>;

// Only the canonical spelling (no leading zeros) is a page: /catalogue-page/01 would be rendered and cached again.
function pageNumber(raw: string): number | null {
  return /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : null;
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const page = pageNumber((await params).page) ?? 1;
  const description = `${site.tagline}. Browse paid and free MCP tool servers that AI agents can discover and pay directly in USDC.`;
  return {
    title: page > 1 ? `MCP Server Marketplace — page ${page}` : "MCP Server Marketplace",
    description,
    alternates: { canonical: `/marketplace${filtersToSearch({ page })}` },
    openGraph: {
      title: "MCP Server Marketplace",
      description,
      url: "/marketplace",
      images: [{ url: "/og/marketplace", width: 1200, height: 630, alt: "MCP Server Marketplace" }],
    },
  };
}

export default async function CataloguePage({ params }: { params: Params }) {
  const page = pageNumber((await params).page);
  if (page === null) notFound();
  const filters: ListingFilters = { q: "", category: "", price: "all", sort: BROWSE_SORT };
  return <MarketplaceView filters={filters} view="grid" page={page} data={await getMarketplacePage(filters, page)} />;
}
