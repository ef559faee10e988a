// A listing's average buyer rating and review count (cards and the detail page), and one review's stars.
import { Star } from "lucide-react";
import type { BuyerReviewFacts } from "@/lib/listings/model";

export function Stars({ rating }: { rating: number }) {
  return (
    <span className="inline-flex items-center gap-0.5" role="img" aria-label={`${rating} out of 5 stars`}>
      {[1, 2, 3, 4, 5].map((i) => (
        <Star
          key={i}
          aria-hidden
          className={`size-3.5 ${i <= rating ? "fill-amber-400 text-amber-400" : "text-muted-foreground/40"}`}
        />
      ))}
    </span>
  );
}

/** "★ 4.5 (2 reviews)"; nothing before the first review. */
export function BuyerRating({ summary }: { summary: Pick<BuyerReviewFacts, "count" | "average"> | undefined }) {
  if (!summary || summary.count === 0 || summary.average === null) return null;
  const reviews = `${summary.count} ${summary.count === 1 ? "review" : "reviews"}`;
  return (
    <span
      className="inline-flex items-center gap-1 text-xs text-muted-foreground"
      data-testid="buyer-rating"
      title={`Average of ${reviews} from wallets that paid`}
    >
      <Star aria-hidden className="size-3.5 fill-amber-400 text-amber-400" />
      <span className="font-medium text-foreground">{summary.average.toFixed(1)}</span>
      <span>({reviews})</span>
    </span>
  );
}
