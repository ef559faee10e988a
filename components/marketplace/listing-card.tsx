import Link from "next/link";
import { TestPurchaseBadge } from "@/components/listings/test-purchase-badge";
import type { Listing, ListingView } from "@/lib/listings/model";
import { CategoryChips, PriceTag, StatusBadges } from "./listing-badges";

export function ListingCard({ listing }: { listing: Listing & Partial<Pick<ListingView, "probe" | "testPurchase">> }) {
  return (
    <article
      data-testid="listing"
      className="listing-card"
    >
      <div className="flex items-start justify-between gap-3">
        <h2 className="text-base leading-snug font-semibold">
          <Link href={`/marketplace/${listing.slug}`} className="listing-card-link">
            {listing.name}
          </Link>
        </h2>
        <div className="flex shrink-0 gap-1.5">
          <StatusBadges listing={listing} />
          <TestPurchaseBadge listing={listing} />
        </div>
      </div>
      <p className="mt-2 line-clamp-3 flex-1 text-sm text-muted-foreground">{listing.description}</p>
      <div className="mt-4 flex items-end justify-between gap-3">
        <CategoryChips categories={listing.categories} />
        <PriceTag price={listing.price} />
      </div>
    </article>
  );
}
