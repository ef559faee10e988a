import Link from "next/link";
import { BuyerRating } from "@/components/listings/buyer-rating";
import { SalesLine } from "@/components/listings/sales-line";
import { TestPurchaseBadge } from "@/components/listings/test-purchase-badge";
import type { BuyerReviewFacts, Listing, ListingSales, ListingView } from "@/lib/listings/model";
import { CategoryChips, PriceTag, StatusBadges } from "./listing-badges";

export function ListingCard({
  listing,
}: {
  listing: Listing &
    Partial<ListingSales> & { buyerReviews?: BuyerReviewFacts } & Partial<Pick<ListingView, "probe" | "testPurchase">>;
}) {
  return (
    <article data-testid="listing" className="listing-card">
      {/* The badges (up to four) get their own row above the title, so the title keeps the card's whole width. */}
      <div className="mb-2 flex flex-wrap gap-1.5 empty:hidden" data-testid="card-badges">
        <StatusBadges listing={listing} />
        <TestPurchaseBadge listing={listing} />
      </div>
      <h2 className="min-w-0 text-base leading-snug font-semibold break-words">
        <Link href={`/marketplace/${listing.slug}`} className="listing-card-link">
          {listing.name}
        </Link>
      </h2>
      <p className="mt-2 line-clamp-3 flex-1 text-sm text-muted-foreground">{listing.description}</p>
      <SalesLine sales={listing.sales} />
      <div className="mt-4 flex items-end justify-between gap-3">
        <CategoryChips categories={listing.categories} />
        <div className="flex shrink-0 flex-col items-end gap-1">
          <BuyerRating summary={listing.buyerReviews} />
          <PriceTag price={listing.price} />
        </div>
      </div>
    </article>
  );
}
