// Buyer reviews to act on: an admin sees every listing's (to hide one), an owner their listings' (to answer
// each once). Review text is rendered as text only.
import Link from "next/link";
import { formatUsd } from "@agora-mcp/protocol";
import type { DeskReview } from "@/lib/buyer-reviews/feedback";
import { formatListedDate } from "@/lib/listings/format";
import { Stars } from "./buyer-rating";
import { BuyerReviewActions } from "./buyer-review-actions";

export function BuyerReviewDesk({ reviews, mode }: { reviews: DeskReview[]; mode: "admin" | "owner" }) {
  return (
    <section aria-labelledby="buyer-review-desk" className="grid gap-4" data-testid="buyer-review-desk">
      <h2 id="buyer-review-desk" className="text-xl font-semibold">
        {mode === "admin" ? "Buyer reviews" : "Reviews of your servers"}
      </h2>
      {reviews.length === 0 ? (
        <p className="text-sm text-muted-foreground">No buyer reviews yet.</p>
      ) : (
        <ul className="space-y-4">
          {reviews.map((review) => (
            <li key={review.id} className="rounded-xl border bg-card p-4" data-testid="desk-review">
              <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
                <Link
                  href={`/marketplace/${review.listingSlug}#review-${review.id}`}
                  className="font-medium break-words text-primary underline-offset-4 hover:underline"
                >
                  {review.listingName}
                </Link>
                <Stars rating={review.rating} />
              </div>
              <p className="mt-1 text-xs break-all text-muted-foreground">
                {review.reviewer} · {formatUsd(review.amount)} · {formatListedDate(review.paidAt)}
              </p>
              <p className="mt-2 text-sm break-words whitespace-pre-line">{review.text}</p>
              {review.response ? (
                <p className="mt-2 border-l-2 pl-3 text-sm break-words whitespace-pre-line text-muted-foreground">
                  {review.response.text}
                </p>
              ) : null}
              {(mode === "admin" || !review.response) && <BuyerReviewActions reviewId={review.id} mode={mode} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
