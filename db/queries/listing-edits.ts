// Pending edits: an owner's edit of an approved listing waits here for review while the approved version stays in
// the catalogue (every public reader reads `listings` alone, so nothing here is served before a reviewer approves).
import { and, asc, eq, sql } from "drizzle-orm";
import type { ProbeResult } from "../probe-result";
import {
  listingEdits,
  listingProbes,
  listingReviews,
  listings,
  users,
  type ApprovedTerms,
  type EditCheck,
  type ListingRow,
  type ListingEdit,
  type ListingProbe,
} from "../schema";
import type { Db } from "../types";
import { violatedUniqueConstraint } from "../unique-violation";
import { termsOf } from "./drift";
import { buildSearchText, ownerEditedFields, updateListingForReview, type EditInput } from "./listing-write";

/** What an owner's edit became: a pending edit beside the approved listing, or the (unapproved) listing resubmitted. */
export type SavedEdit =
  | { kind: "pending-edit"; listingId: string; edit: ListingEdit }
  | { kind: "resubmitted"; listingId: string; listing: ListingRow };

/**
 * Stores an owner's edit. An approved listing keeps being served as approved and the edit waits beside it (a second
 * edit replaces the first, with a higher revision, and clears its check and any rejection); a listing that is not
 * approved is itself the submission, so it is updated and stays (or goes back) in review. Null when `ownerId` does
 * not own the listing. The listing row is locked while deciding, so a review decision cannot slip in between.
 */
export async function saveOwnerEdit(
  db: Db,
  listingId: string,
  ownerId: string,
  input: EditInput,
): Promise<SavedEdit | null> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ status: listings.status, revision: listings.revision })
      .from(listings)
      .where(and(eq(listings.id, listingId), eq(listings.submitterId, ownerId)))
      .for("update");
    if (!current) return null;
    if (current.status !== "approved") {
      // The listing is under review (or rejected) itself: an older pending edit has nothing left to apply to.
      await tx.delete(listingEdits).where(eq(listingEdits.listingId, listingId));
      const listing = await updateListingForReview(tx, listingId, ownerId, input);
      return listing ? { kind: "resubmitted", listingId, listing } : null;
    }
    const [edit] = await tx
      .insert(listingEdits)
      .values({ listingId, ...input, revision: current.revision + 1 })
      .onConflictDoUpdate({
        target: listingEdits.listingId,
        set: {
          name: input.name,
          description: input.description,
          categories: input.categories,
          serverUrl: input.serverUrl,
          websiteUrl: input.websiteUrl,
          paidTools: input.paidTools,
          paidToolsConsentedAt: input.paidToolsConsentedAt,
          // A reviewer who opened the queue before this edit can no longer approve the replaced one.
          revision: sql`greatest(${listingEdits.revision} + 1, ${current.revision + 1})`,
          status: "pending",
          rejectionReason: null,
          check: null,
          submittedAt: sql`now()`,
        },
      })
      .returning();
    return { kind: "pending-edit", listingId, edit: edit! };
  });
}

/** The pending edit of a listing, if any (the one its check probes, with the tools it names as paid). */
export async function findPendingEdit(
  db: Db,
  listingId: string,
): Promise<Pick<ListingEdit, "serverUrl" | "revision" | "paidTools"> | null> {
  const [row] = await db
    .select({ serverUrl: listingEdits.serverUrl, revision: listingEdits.revision, paidTools: listingEdits.paidTools })
    .from(listingEdits)
    .where(and(eq(listingEdits.listingId, listingId), eq(listingEdits.status, "pending")));
  return row ?? null;
}

/** Keeps a check of an edit's server with that edit; false when the edit was replaced or decided meanwhile. */
export async function recordEditCheck(
  db: Db,
  listingId: string,
  revision: number,
  result: ProbeResult,
): Promise<boolean> {
  const check: EditCheck = { ...result, checkedAt: result.checkedAt.toISOString() };
  const updated = await db
    .update(listingEdits)
    .set({ check })
    .where(
      and(
        eq(listingEdits.listingId, listingId),
        eq(listingEdits.revision, revision),
        eq(listingEdits.status, "pending"),
        eq(listingEdits.serverUrl, result.url),
      ),
    )
    .returning({ listingId: listingEdits.listingId });
  return updated.length > 0;
}

type EditDecision = { decision: "approved" | "rejected"; reason: string | null; revision: number };

type EditDecisionOutcome =
  { ok: true; listing: ListingRow } | { ok: false; reason: "not_pending" | "edited" | "unprobed" | "taken" };

/**
 * A reviewer's decision on a pending edit, at the revision the review page showed, in one transaction. Approving
 * applies the edit to the listing (its text, server, the terms its own check read, the next revision), keeps when
 * the listing was approved (it never left the catalogue: who named a wallet first must not move) and deletes the
 * edit; rejecting keeps the edit with the reason for its owner and leaves the listing as it was. Either is recorded
 * in the decision history. A server URL another listing took meanwhile refuses the approval and changes nothing.
 */
export async function decideListingEdit(
  db: Db,
  listingId: string,
  reviewerId: string,
  { decision, reason, revision }: EditDecision,
): Promise<EditDecisionOutcome> {
  try {
    return await db.transaction(async (tx): Promise<EditDecisionOutcome> => {
      const [edit] = await tx.select().from(listingEdits).where(eq(listingEdits.listingId, listingId)).for("update");
      if (!edit || edit.status !== "pending") return { ok: false, reason: "not_pending" };
      if (edit.revision !== revision) return { ok: false, reason: "edited" };
      if (decision === "rejected") {
        await tx
          .update(listingEdits)
          .set({ status: "rejected", rejectionReason: reason })
          .where(eq(listingEdits.listingId, listingId));
        await tx.insert(listingReviews).values({ listingId, reviewerId, decision: "rejected an edit", reason });
        const [listing] = await tx.select().from(listings).where(eq(listings.id, listingId));
        return { ok: true, listing: listing! };
      }
      // Terms come only from a check of this very edit's server (never the listing's old one).
      const check = edit.check;
      if (!check?.reachable || check.url !== edit.serverUrl) return { ok: false, reason: "unprobed" };
      const [before] = await tx
        .select({ terms: listings.approvedTerms, serverUrl: listings.serverUrl })
        .from(listings)
        .where(eq(listings.id, listingId))
        .for("update");
      if (!before) return { ok: false, reason: "not_pending" };
      const sameServer = before.serverUrl === edit.serverUrl;
      const input = editInputOf(edit);
      const [listing] = await tx
        .update(listings)
        .set({
          ...input,
          searchText: buildSearchText(edit.name, edit.description, edit.categories),
          editedFields: ownerEditedFields(input),
          revision: edit.revision,
          approvedTerms: termsOf(check, before.terms),
          // Approved all along: the first approval's time stands.
          approvedAt: sql`coalesce(${listings.approvedAt}, now())`,
          // The approved check's price at once (a held price rise is what was approved). Another server: its badge
          // waits for the check that follows the approval.
          ...(sameServer
            ? check.pricesRead
              ? { price: sql`${check.lowestPrice}::numeric` }
              : {}
            : { verified: false, price: check.pricesRead ? sql`${check.lowestPrice}::numeric` : sql`null` }),
          updatedAt: sql`now()`,
        })
        .where(eq(listings.id, listingId))
        .returning();
      // The edit's check joins the listing's history as a check of the revision it approved, and the terms held for
      // review until now are the approved ones (their checks serve again).
      await tx.insert(listingProbes).values(editCheckRow(listingId, edit.revision, check));
      await tx
        .update(listingProbes)
        .set({ termsHeld: false })
        .where(and(eq(listingProbes.listingId, listingId), eq(listingProbes.termsHeld, true)));
      await tx.delete(listingEdits).where(eq(listingEdits.listingId, listingId));
      await tx.insert(listingReviews).values({ listingId, reviewerId, decision: "approved an edit", reason: null });
      return { ok: true, listing: listing! };
    });
  } catch (error) {
    if (violatedUniqueConstraint(error) === "listings_server_url_key") return { ok: false, reason: "taken" };
    throw error;
  }
}

export type PendingEditEntry = {
  listingId: string;
  slug: string;
  revision: number;
  submittedAt: Date;
  check: EditCheck | null;
  /** The listing's approved terms, which a check of the same server may have found changed (a held change). */
  approvedTerms: ApprovedTerms | null;
  current: EditInput;
  proposed: EditInput;
  submitter: { name: string | null; email: string | null; emailConfirmed: boolean; githubLogin: string | null } | null;
};

/** Edits waiting for review, oldest first, each with the approved version it would replace (the review page's diff). */
export async function listPendingEdits(db: Db): Promise<PendingEditEntry[]> {
  const rows = await db
    .select({
      edit: listingEdits,
      listing: listings,
      submitterId: users.id,
      submitterName: users.name,
      submitterEmail: users.email,
      submitterEmailVerifiedAt: users.emailVerifiedAt,
      submitterLogin: users.githubLogin,
    })
    .from(listingEdits)
    .innerJoin(listings, eq(listings.id, listingEdits.listingId))
    .leftJoin(users, eq(users.id, listings.submitterId))
    .where(eq(listingEdits.status, "pending"))
    .orderBy(asc(listingEdits.submittedAt), asc(listingEdits.listingId))
    .limit(200);
  return rows.map((r) => ({
    listingId: r.listing.id,
    slug: r.listing.slug,
    revision: r.edit.revision,
    submittedAt: r.edit.submittedAt,
    check: r.edit.check,
    approvedTerms: r.listing.approvedTerms,
    current: editInputOf(r.listing),
    proposed: editInputOf(r.edit),
    submitter: r.submitterId
      ? {
          name: r.submitterName,
          email: r.submitterEmail,
          emailConfirmed: r.submitterEmailVerifiedAt !== null,
          githubLogin: r.submitterLogin,
        }
      : null,
  }));
}

export type OwnEdit = {
  status: "pending" | "rejected";
  rejectionReason: string | null;
  submittedAt: Date;
  current: EditInput;
  proposed: EditInput;
  /** The approved terms and the edit's check: a change of the server's terms held for review shows as their difference. */
  approvedTerms: ApprovedTerms | null;
  check: EditCheck | null;
};

/** The owner's pending or rejected edits, keyed by listing id (/account and the edit page). */
export async function ownEdits(db: Db, submitterId: string, listingId?: string): Promise<Map<string, OwnEdit>> {
  const rows = await db
    .select({ edit: listingEdits, listing: listings })
    .from(listingEdits)
    .innerJoin(listings, eq(listings.id, listingEdits.listingId))
    .where(and(eq(listings.submitterId, submitterId), listingId ? eq(listings.id, listingId) : undefined));
  return new Map(
    rows.map(({ edit, listing }) => [
      listing.id,
      {
        status: edit.status === "rejected" ? "rejected" : "pending",
        rejectionReason: edit.rejectionReason,
        submittedAt: edit.submittedAt,
        current: editInputOf(listing),
        proposed: editInputOf(edit),
        approvedTerms: listing.approvedTerms,
        check: edit.check,
      },
    ]),
  );
}

function editInputOf(row: EditInput): EditInput {
  return {
    name: row.name,
    description: row.description,
    categories: row.categories,
    serverUrl: row.serverUrl,
    websiteUrl: row.websiteUrl,
    paidTools: row.paidTools,
    paidToolsConsentedAt: row.paidToolsConsentedAt,
  };
}

/** An edit's check as a row of the listing's check history (what approval inserts; the review queue shows it so). */
export function editCheckRow(listingId: string, revision: number, check: EditCheck): Omit<ListingProbe, "id"> {
  return {
    listingId,
    checkedAt: new Date(check.checkedAt),
    serverUrl: check.url,
    revision,
    reachable: check.reachable,
    protocolVersion: check.protocolVersion,
    serverName: check.serverName,
    serverVersion: check.serverVersion,
    tools: check.tools,
    pricedItems: check.pricedItems,
    paymentMethods: check.paymentMethods,
    latencyMs: check.latencyMs,
    error: check.error,
    errorClass: check.errorClass,
    httpStatus: check.httpStatus,
    quirks: check.quirks,
    verifiable: check.verifiable,
    termsHeld: false,
  };
}
