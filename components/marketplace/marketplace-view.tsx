import Link from "next/link";
import { notFound } from "next/navigation";
import { SearchX } from "lucide-react";
import { Button } from "@/components/ui/button";
import { ListingCard } from "@/components/marketplace/listing-card";
import { ListingListItem } from "@/components/marketplace/listing-list-item";
import { MarketplaceControls } from "@/components/marketplace/marketplace-controls";
import { Pagination } from "@/components/marketplace/pagination";
import type { MarketplacePage } from "@/lib/listings/catalogue";
import { defaultSort, filtersToSearch, PAGE_SIZE, type ListingFilters, type View } from "@/lib/listings/search/filters";
import { site } from "@/lib/site";

/** The marketplace screen for one filter state and the page of listings its page loaded. */
export function MarketplaceView({
  filters,
  view,
  page,
  data,
}: {
  filters: ListingFilters;
  view: View;
  page: number;
  data: MarketplacePage;
}) {
  const { items, total, capped, categories } = data;
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const filtered = Boolean(
    filters.q ||
    filters.category ||
    (filters.price && filters.price !== "all") ||
    (filters.source && filters.source !== "all"),
  );
  // A page past the last is not a page: 404 (and the cache handler never stores a 404).
  if (page > pageCount) notFound();
  const first = (page - 1) * PAGE_SIZE + 1;
  const summary =
    total === 0 ? null : (
      <>
        Showing{" "}
        <strong className="font-medium text-foreground">
          {first}–{first + items.length - 1}
        </strong>{" "}
        of{" "}
        <strong className="font-medium text-foreground">
          {total.toLocaleString("en-US")}
          {capped ? "+" : ""}
        </strong>{" "}
        {total === 1 && !capped ? "server" : "servers"}
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
            {filtered ? (
              <>
                <p className="text-lg font-medium">No MCP servers found matching your criteria.</p>
                <Button asChild variant="outline">
                  <Link
                    href={`/marketplace${filtersToSearch({ sort: filters.sort === defaultSort(filters.q) ? undefined : filters.sort, view })}`}
                    scroll={false}
                  >
                    Clear all filters
                  </Link>
                </Button>
              </>
            ) : (
              // Nothing is filtered: the catalogue itself is empty, and there is nothing to clear.
              <>
                <p className="text-lg font-medium">No MCP servers are listed yet.</p>
                <Button asChild variant="outline">
                  <Link href="/submit">Submit your server</Link>
                </Button>
              </>
            )}
          </div>
        ) : view === "list" ? (
          <ul className="divide-y overflow-hidden rounded-xl border bg-card shadow-xs">
            {items.map((listing) => (
              <ListingListItem key={listing.id} listing={listing} />
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
