import type { Metadata } from "next";
import Link from "next/link";
import { SearchX } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ListingCard } from "@/components/marketplace/listing-card";
import { ListingRow } from "@/components/marketplace/listing-row";
import { MarketplaceControls } from "@/components/marketplace/marketplace-controls";
import { Pagination } from "@/components/marketplace/pagination";
import { browseListings, getCategories } from "@/lib/marketplace/catalogue";
import { site } from "@/lib/site";
import { filtersToSearch, PAGE_SIZE, parsePageQuery } from "@/lib/validations/marketplace";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// Canonical policy: the unfiltered catalogue and its numbered pages are indexable; any filtered or
// re-sorted view is `noindex, follow` with a canonical pointing at /marketplace, so crawlers find every
// listing through plain page links without indexing endless filter combinations.
export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  const { filters, view, page } = parsePageQuery(await searchParams);
  const filtered = Boolean(filters.q || filters.category || filters.price !== "all" || filters.sort !== "popular" || view !== "grid");
  const title = page > 1 && !filtered ? `MCP Server Marketplace — page ${page}` : "MCP Server Marketplace";
  const description = `${site.tagline}. Browse paid and free MCP tool servers that AI agents can discover and pay directly in USDC.`;
  return {
    title,
    description,
    alternates: { canonical: filtered ? "/marketplace" : `/marketplace${filtersToSearch({ page })}` },
    robots: filtered ? { index: false, follow: true } : undefined,
    openGraph: { title: "MCP Server Marketplace", description, url: "/marketplace" },
  };
}

export default async function MarketplacePage({ searchParams }: { searchParams: SearchParams }) {
  const { filters, view, page } = parsePageQuery(await searchParams);
  const [{ items, total }, categories] = await Promise.all([browseListings(filters, page), getCategories()]);
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const first = (page - 1) * PAGE_SIZE + 1;
  const summary =
    total === 0 ? null : (
      <>
        Showing <strong className="font-medium text-foreground">{first}–{first + items.length - 1}</strong> of{" "}
        <strong className="font-medium text-foreground">{total.toLocaleString("en-US")}</strong> {total === 1 ? "server" : "servers"}
      </>
    );

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
      <header className="mb-8">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">MCP Server Marketplace</h1>
        <p className="mt-2 text-lg text-muted-foreground">{site.tagline}</p>
      </header>
      <MarketplaceControls filters={filters} view={view} categories={categories} summary={summary}>
        {items.length === 0 ? (
          <div className="flex flex-col items-center gap-4 rounded-xl border border-dashed bg-muted/30 px-6 py-16 text-center">
            <SearchX className="size-10 text-muted-foreground" aria-hidden="true" />
            <p className="text-lg font-medium">No MCP servers found matching your criteria.</p>
            <Button asChild variant="outline">
              <Link href={`/marketplace${filtersToSearch({ sort: filters.sort, view })}`} scroll={false}>
                Clear all filters
              </Link>
            </Button>
          </div>
        ) : view === "list" ? (
          <ul className="divide-y overflow-hidden rounded-xl border bg-card shadow-xs">
            {items.map((listing) => (
              <ListingRow key={listing.id} listing={listing} />
            ))}
          </ul>
        ) : (
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {items.map((listing) => (
              <ListingCard key={listing.id} listing={listing} />
            ))}
          </div>
        )}
        <Pagination filters={filters} view={view} page={page} pageCount={pageCount} />
      </MarketplaceControls>
    </div>
  );
}
