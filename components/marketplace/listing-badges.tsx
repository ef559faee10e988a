import { BadgeCheck, Sparkles } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import { formatPrice, isFree, isNew } from "@/lib/listings/format";
import type { Listing } from "@/lib/listings/model";

export function PriceTag({ price, className = "text-sm" }: { price: number | null; className?: string }) {
  return (
    <span
      data-testid="price"
      className={cn("font-semibold", isFree(price) ? "text-emerald-700" : "text-foreground", className)}
    >
      {formatPrice(price)}
      {!isFree(price) && <span className="font-normal text-muted-foreground"> / call</span>}
    </span>
  );
}

export function StatusBadges({ listing }: { listing: Pick<Listing, "verified" | "createdAt"> }) {
  return (
    <>
      {listing.verified && (
        <Badge variant="success" title="Approved, and its latest automatic check passed">
          <BadgeCheck /> Verified
        </Badge>
      )}
      {isNew(listing.createdAt) && (
        <Badge variant="new" title="Listed within the last 30 days">
          <Sparkles /> New
        </Badge>
      )}
    </>
  );
}

export function CategoryChips({ categories, max = 3 }: { categories: string[]; max?: number }) {
  const shown = categories.slice(0, max);
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Categories">
      {shown.map((c) => (
        <li key={c}>
          <span className="category-chip">{c}</span>
        </li>
      ))}
      {categories.length > max && <li className="text-xs text-muted-foreground">+{categories.length - max}</li>}
    </ul>
  );
}
