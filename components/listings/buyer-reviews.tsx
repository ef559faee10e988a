// Buyer reviews on a listing's detail page: the average, then each review with its proof of purchase
// (amount and date from the chain, the transaction on the explorer). Review text and owners' answers are
// rendered as text nodes only: markup and markdown links show as typed, never as HTML or links.
import { TransactionLink } from "@/components/chain/transaction-link";
import { formatUsd } from "@agora-mcp/protocol";
import { formatListedDate } from "@/lib/listings/format";
import type { BuyerReviewFacts, BuyerReviewView } from "@/lib/listings/model";
import { BuyerRating, Stars } from "./buyer-rating";

function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

function BuyerReview({ review }: { review: BuyerReviewView }) {
  return (
    <li id={`review-${review.id}`} data-testid="buyer-review" className="rounded-lg border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Stars rating={review.rating} />
        <span className="font-mono text-xs text-muted-foreground" title={review.reviewer}>
          {shortAddress(review.reviewer)}
        </span>
      </div>
      <p className="mt-1 text-xs text-muted-foreground" data-testid="verified-purchase">
        Verified purchase · {formatUsd(review.amount)} ·{" "}
        <time dateTime={review.paidAt}>{formatListedDate(review.paidAt)}</time>
        {(review.explorerUrl || review.localChain) && (
          <>
            {" · "}
            <TransactionLink place={review} />
          </>
        )}
      </p>
      {review.text && (
        <p className="mt-2 text-sm leading-6 break-words whitespace-pre-line" data-testid="buyer-review-text">
          {review.text}
        </p>
      )}
      {review.response && (
        <div className="mt-3 border-l-2 pl-3 text-sm" data-testid="owner-answer">
          <p className="text-xs font-medium text-muted-foreground">Answer from the provider</p>
          <p className="mt-1 break-words whitespace-pre-line">{review.response.text}</p>
        </div>
      )}
    </li>
  );
}

export function BuyerReviews({ summary, reviews }: { summary: BuyerReviewFacts; reviews: BuyerReviewView[] }) {
  return (
    <section aria-labelledby="buyer-reviews-heading" data-testid="buyer-reviews">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="buyer-reviews-heading" className="text-lg font-semibold">
          Reviews from buyers
        </h2>
        <BuyerRating summary={summary} />
      </div>
      {reviews.length === 0 ? (
        <p className="mt-3 text-sm text-muted-foreground">
          No reviews yet. Only a wallet that paid this server can review it, signed with that wallet (the Agora
          client&apos;s <code>review</code> tool does it after a purchase).
        </p>
      ) : (
        <ul className="mt-3 space-y-3">
          {reviews.map((review) => (
            <BuyerReview key={review.id} review={review} />
          ))}
        </ul>
      )}
    </section>
  );
}
