import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { MarketplaceView } from "@/components/marketplace/marketplace-view";
import { getMarketplacePage } from "@/lib/listings/catalogue";
import { site } from "@/lib/site";
import { BROWSE_SORT, filtersToSearch } from "@/lib/listings/search/filters";
import { parsePageQuery } from "@/lib/validations/marketplace";
import { forwardedCatalogueVersion } from "@/lib/listings/search/version-header";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// Canonical policy: the unfiltered catalogue and its numbered pages are indexable; any filtered or
// re-sorted view is `noindex, follow` with a canonical pointing at /marketplace, so crawlers find every
// listing through plain page links without indexing endless filter combinations.
export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const { filters, view, page } = parsePageQuery(await searchParams);
  const filtered = Boolean(
    filters.q || filters.category || filters.price !== "all" || filters.sort !== BROWSE_SORT || view !== "grid",
  );
  const title = page > 1 && !filtered ? `MCP Server Marketplace — page ${page}` : "MCP Server Marketplace";
  const description = `${site.tagline}. Browse paid and free MCP tool servers that AI agents can discover and pay directly in USDC.`;
  return {
    title,
    description,
    alternates: { canonical: filtered ? "/marketplace" : `/marketplace${filtersToSearch({ page })}` },
    robots: filtered ? { index: false, follow: true } : undefined,
    openGraph: {
      title: "MCP Server Marketplace",
      description,
      url: "/marketplace",
      images: [{ url: "/og/marketplace", width: 1200, height: 630, alt: "MCP Server Marketplace" }],
    },
  };
}

// Filtered views render per request; the plain catalogue pages are rewritten by proxy.ts to the
// cached /catalogue-page/[page] route.
export default async function MarketplacePage({ searchParams }: { searchParams: SearchParams }) {
  const { filters, view, page, unstorable } = parsePageQuery(await searchParams);
  if (unstorable) notFound();
  // The catalogue version proxy.ts read for this request's ETag: the search's cache key uses it instead of a second read.
  const version = forwardedCatalogueVersion(await headers());
  return (
    <MarketplaceView
      filters={filters}
      view={view}
      page={page}
      data={await getMarketplacePage(filters, page, version)}
    />
  );
}
