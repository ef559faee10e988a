import type { Metadata } from "next";
import { forbidden, redirect } from "next/navigation";
import { ReviewActions } from "@/components/admin/review-actions";
import { ProbeEvidence } from "@/components/admin/probe-evidence";
import { PendingEditEntry } from "@/components/admin/pending-edit-entry";
import { BuyerReviewDesk } from "@/components/listings/buyer-review-desk";
import { reviewDesk } from "@/lib/buyer-reviews/feedback";
import { TestPurchaseWalletPanel } from "@/components/listings/test-purchase-wallet-panel";
import { undeliveredListings, walletStatus } from "@/lib/test-purchases/owner";
import { CategoryChips } from "@/components/marketplace/listing-badges";
import { getDb } from "@/lib/database";
import { loadReviewQueue } from "@/lib/listings/review-queue";
import { isAdmin } from "@/lib/auth/admin";
import { currentUser } from "@/lib/auth/current-user";
import { formatDayTime } from "@/lib/dates";

export const metadata: Metadata = { title: "Review queue", robots: { index: false } };

export default async function ReviewQueuePage() {
  const user = await currentUser();
  if (!user) redirect("/login");
  if (!isAdmin(user)) forbidden();
  const db = await getDb();
  const [{ queue, edits, decisions, checks, drift }, buyerReviews, wallet, undelivered] = await Promise.all([
    loadReviewQueue(db),
    reviewDesk(db, { all: true }),
    walletStatus(db),
    undeliveredListings(db),
  ]);

  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Review queue</h1>
      <p className="mt-2 text-muted-foreground">
        {queue.length === 0
          ? edits.length === 0
            ? "Nothing is waiting for review."
            : "No new servers are waiting for review."
          : `${queue.length} ${queue.length === 1 ? "server is" : "servers are"} waiting for review, oldest first.`}
      </p>

      <TestPurchaseWalletPanel wallet={wallet} undelivered={undelivered} />

      {edits.length > 0 && (
        <section className="mt-8" aria-labelledby="pending-edits">
          <h2 id="pending-edits" className="text-xl font-semibold">
            Edits of listed servers
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">
            {edits.length === 1 ? "1 owner's edit is" : `${edits.length} owners' edits are`} waiting for review, oldest
            first. Each listing stays in the marketplace as approved until you decide.
          </p>
          <ul className="mt-4 space-y-6" aria-label="Pending edits">
            {edits.map((edit) => (
              <PendingEditEntry key={`${edit.listingId}@${edit.revision}`} edit={edit} />
            ))}
          </ul>
        </section>
      )}

      <ul className="mt-8 space-y-6" aria-label="Pending servers">
        {queue.map((listing) => (
          <li
            key={`${listing.id}@${listing.revision}`}
            className="rounded-xl border bg-card p-5 shadow-xs"
            data-testid="queue-entry"
          >
            <div className="flex flex-col gap-1 sm:flex-row sm:items-baseline sm:justify-between">
              <h2 className="text-lg font-semibold break-words">{listing.name}</h2>
              <p className="text-xs text-muted-foreground">
                Submitted {formatDayTime(listing.createdAt)}
                {listing.revision > 1 && ` · edited (version ${listing.revision})`}
              </p>
            </div>
            <p className="mt-1 text-sm text-muted-foreground">
              by{" "}
              {listing.submitter
                ? [
                    listing.submitter.name,
                    listing.submitter.email &&
                      (listing.submitter.emailConfirmed
                        ? listing.submitter.email
                        : `${listing.submitter.email} (email not confirmed)`),
                    listing.submitter.githubLogin && `@${listing.submitter.githubLogin}`,
                  ]
                    .filter(Boolean)
                    .join(" · ")
                : "no account on record (seeded or deleted)"}
            </p>
            <p className="mt-3 text-sm whitespace-pre-line">{listing.description}</p>
            <div className="mt-3 flex flex-wrap items-center gap-3 text-sm">
              <CategoryChips categories={listing.categories} max={5} />
              <code className="font-mono text-xs break-all">{listing.serverUrl}</code>
              {listing.websiteUrl && (
                <span className="text-xs break-all text-muted-foreground">{listing.websiteUrl}</span>
              )}
            </div>
            <div className="mt-4 rounded-lg border bg-muted/30 p-4">
              <h3 className="mb-2 text-sm font-semibold">Latest check</h3>
              <ProbeEvidence probe={checks.get(listing.id)} drift={drift.get(listing.id)} />
            </div>
            <div className="mt-4">
              <ReviewActions listingId={listing.id} name={listing.name} revision={listing.revision} />
            </div>
          </li>
        ))}
      </ul>

      <div className="mt-14">
        <BuyerReviewDesk reviews={buyerReviews} mode="admin" />
      </div>

      <section className="mt-14" aria-labelledby="history">
        <h2 id="history" className="text-xl font-semibold">
          Decision history
        </h2>
        {decisions.length === 0 ? (
          <p className="mt-2 text-sm text-muted-foreground">No decisions yet.</p>
        ) : (
          <ul className="mt-4 divide-y rounded-lg border text-sm">
            {decisions.map((d) => (
              <li
                key={`${d.listingId}-${d.createdAt.toISOString()}`}
                className="flex flex-col gap-1 p-3 sm:flex-row sm:justify-between"
              >
                <span>
                  <strong>{d.listingName}</strong> — {d.decision} by {d.reviewer ?? "a deleted account"}
                  {d.reason ? `: “${d.reason}”` : ""}
                </span>
                <time className="text-muted-foreground" dateTime={d.createdAt.toISOString()}>
                  {formatDayTime(d.createdAt)}
                </time>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
