import Link from "next/link";
import type { PublicListing } from "@/db/queries/listings";
import { CategoryChips, PriceTag, StatusBadges } from "./listing-badges";

export function ListingCard({ listing }: { listing: PublicListing }) {
  return (
    <article
      data-testid="listing"
      className="group relative flex h-full flex-col rounded-xl border bg-card p-5 shadow-xs transition hover:-translate-y-0.5 hover:border-primary/40 hover:shadow-md"
    >
      <div className="flex items-start justify-between gap-3">
        <h2 className="text-base leading-snug font-semibold">
          <Link href={`/marketplace/${listing.slug}`} className="after:absolute after:inset-0 focus-visible:outline-none after:rounded-xl focus-visible:after:ring-[3px] focus-visible:after:ring-ring/50">
            {listing.name}
          </Link>
        </h2>
        <div className="flex shrink-0 gap-1.5">
          <StatusBadges listing={listing} />
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
