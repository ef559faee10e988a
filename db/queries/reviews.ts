// The moderation queue: pending listings with their submitter, and every decision as history.
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { listingReviews, listings, users, type ListingRow } from "../schema";
import type { Db } from "../types";
import { approvedTermsOfRevision } from "./drift";

type QueueEntry = Pick<
  ListingRow,
  "id" | "name" | "description" | "categories" | "serverUrl" | "websiteUrl" | "status" | "revision" | "createdAt"
> & {
  submitter: { name: string | null; email: string | null; emailConfirmed: boolean; githubLogin: string | null } | null;
};

export async function listReviewQueue(db: Db, status: ListingRow["status"] = "pending"): Promise<QueueEntry[]> {
  const rows = await db
    .select({
      id: listings.id,
      name: listings.name,
      description: listings.description,
      categories: listings.categories,
      serverUrl: listings.serverUrl,
      websiteUrl: listings.websiteUrl,
      status: listings.status,
      revision: listings.revision,
      createdAt: listings.createdAt,
      submitterName: users.name,
      submitterEmail: users.email,
      submitterEmailVerifiedAt: users.emailVerifiedAt,
      submitterLogin: users.githubLogin,
      submitterId: users.id,
    })
    .from(listings)
    .leftJoin(users, eq(users.id, listings.submitterId))
    .where(eq(listings.status, status))
    .orderBy(asc(listings.createdAt), asc(listings.id))
    .limit(200);
  return rows.map(
    ({ submitterName, submitterEmail, submitterEmailVerifiedAt, submitterLogin, submitterId, ...rest }) => ({
      ...rest,
      // An unconfirmed address is only what the person typed: the reviewer sees it marked as such.
      submitter: submitterId
        ? {
            name: submitterName,
            email: submitterEmail,
            emailConfirmed: submitterEmailVerifiedAt !== null,
            githubLogin: submitterLogin,
          }
        : null,
    }),
  );
}

export type Decision = { decision: "approved" | "rejected"; reason: string | null; revision: number };

type DecisionOutcome = { ok: true; listing: ListingRow } | { ok: false; reason: "not_pending" | "edited" | "unprobed" };

/**
 * Records a decision and applies it to the listing in one transaction. Only a pending listing can be
 * decided (a second reviewer's click on a stale page is refused), and only at the revision the reviewer
 * saw: an owner's edit after the page was opened bumps the revision and the decision is refused.
 */
export async function decideListing(
  db: Db,
  listingId: string,
  reviewerId: string,
  { decision, reason, revision }: Decision,
): Promise<DecisionOutcome> {
  return db.transaction(async (tx) => {
    // An approval records the terms a probe of this very revision read; without one there is nothing to approve.
    const [before] = await tx
      .select({ terms: listings.approvedTerms })
      .from(listings)
      .where(eq(listings.id, listingId));
    const terms =
      decision === "approved" ? await approvedTermsOfRevision(tx, listingId, revision, before?.terms ?? null) : null;
    if (decision === "approved" && !terms) {
      const [current] = await tx
        .select({ status: listings.status, revision: listings.revision })
        .from(listings)
        .where(eq(listings.id, listingId));
      if (current?.status !== "pending") return { ok: false, reason: "not_pending" };
      return { ok: false, reason: current.revision === revision ? "unprobed" : "edited" };
    }
    const [listing] = await tx
      .update(listings)
      .set({
        status: decision,
        rejectionReason: decision === "rejected" ? reason : null,
        // Verified needs approval; a fresh probe sets it again after an approval.
        verified: false,
        // Later probes are compared with what the reviewer saw (drift); a rejection keeps no terms.
        approvedTerms: terms,
        // Who named a wallet first is decided among approved listings by when they were approved.
        approvedAt: decision === "approved" ? sql`now()` : null,
        updatedAt: sql`now()`,
      })
      .where(and(eq(listings.id, listingId), eq(listings.status, "pending"), eq(listings.revision, revision)))
      .returning();
    if (!listing) {
      const [current] = await tx.select({ status: listings.status }).from(listings).where(eq(listings.id, listingId));
      return { ok: false, reason: current?.status === "pending" ? "edited" : "not_pending" };
    }
    await tx.insert(listingReviews).values({ listingId, reviewerId, decision, reason });
    return { ok: true, listing };
  });
}

export async function findListingOwner(db: Db, listingId: string): Promise<string | null | undefined> {
  const [row] = await db.select({ submitterId: listings.submitterId }).from(listings).where(eq(listings.id, listingId));
  return row ? row.submitterId : undefined;
}

/** The latest decisions across all listings, newest first (the review page's history). */
export async function recentDecisions(db: Db, limit = 20) {
  return db
    .select({
      listingId: listingReviews.listingId,
      listingName: listings.name,
      decision: listingReviews.decision,
      reason: listingReviews.reason,
      createdAt: listingReviews.createdAt,
      reviewer: sql<string | null>`coalesce(${users.name}, ${users.githubLogin}, ${users.email})`,
    })
    .from(listingReviews)
    .innerJoin(listings, eq(listings.id, listingReviews.listingId))
    .leftJoin(users, eq(users.id, listingReviews.reviewerId))
    .orderBy(desc(listingReviews.createdAt))
    .limit(limit);
}
