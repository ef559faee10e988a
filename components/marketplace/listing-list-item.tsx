import Link from "next/link";
import type { Listing, ListingSales, ListingView } from "@/lib/listings/model";
import { SalesLine } from "@/components/listings/sales-line";
import { TestPurchaseBadge } from "@/components/listings/test-purchase-badge";
import { formatListedDate } from "@/lib/listings/format";
import { CategoryChips, PriceTag, StatusBadges } from "./listing-badges";

export function ListingListItem({
  listing,
}: {
  listing: Listing & Partial<ListingSales> & Partial<Pick<ListingView, "probe" | "testPurchase">>;
}) {
  return (
    <li
      data-testid="listing"
      className="relative flex flex-col gap-3 px-4 py-4 transition hover:bg-accent/40 sm:flex-row sm:items-center sm:gap-6 sm:px-5"
    >
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="font-semibold">
            <Link
              href={`/marketplace/${listing.slug}`}
              className="after:absolute after:inset-0 focus-visible:outline-none focus-visible:after:ring-[3px] focus-visible:after:ring-ring/50"
            >
              {listing.name}
            </Link>
          </h2>
          <StatusBadges listing={listing} />
          <TestPurchaseBadge listing={listing} />
        </div>
        <p className="mt-1 line-clamp-2 text-sm text-muted-foreground">{listing.description}</p>
        <SalesLine sales={listing.sales} />
      </div>
      <div className="flex items-center justify-between gap-4 sm:w-72 sm:justify-end">
        <CategoryChips categories={listing.categories} max={2} />
        <div className="text-right">
          <PriceTag price={listing.price} />
          <p className="hidden text-xs text-muted-foreground sm:block">Listed {formatListedDate(listing.createdAt)}</p>
        </div>
      </div>
    </li>
  );
}
