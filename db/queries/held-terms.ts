// A listed server's change that waits for review (db/queries/drift.ts marks it held: a price rise past the review
// factor, another payee) goes where an owner's edit goes: a pending edit beside the approved listing, with the check
// that found it as the edit's check. A reviewer approves it on the review queue like any edit (which applies the
// check's terms) or rejects it; meanwhile every surface keeps the approved terms.
import { eq, sql } from "drizzle-orm";
import type { ProbeResult } from "../probe-result";
import { listingEdits, listings, type EditCheck } from "../schema";
import type { Db } from "../types";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** What a buyer would pay and to whom, as text: two checks offer the same when these are equal. */
function offerOf(check: Pick<EditCheck, "pricedItems" | "paymentMethods">): string {
  const prices = check.pricedItems.map((i) => `${i.name}=${i.amount} ${i.currency}`).sort();
  const payees = check.paymentMethods.map((m) => `${m.paymentMethod}→${m.walletAddress.toLowerCase()}`).sort();
  return JSON.stringify([prices, payees]);
}

/**
 * Queues the held change of `listingId` for review, inside the check's transaction. An owner's pending edit of the
 * same server takes the check as its own (a new offer bumps its revision: a reviewer approves only the offer the
 * page showed); one that moves the listing to another server is left alone (its own check decides). Otherwise a
 * pending edit of the listing as it is, with this check, replaces any rejected one.
 */
export async function holdTermsForReview(tx: Tx, listingId: string, result: ProbeResult): Promise<void> {
  const check: EditCheck = { ...result, checkedAt: result.checkedAt.toISOString() };
  const [listing] = await tx.select().from(listings).where(eq(listings.id, listingId));
  if (!listing) return;
  const [edit] = await tx.select().from(listingEdits).where(eq(listingEdits.listingId, listingId)).for("update");
  if (edit?.status === "pending") {
    if (edit.serverUrl !== result.url) return;
    const sameOffer = edit.check !== null && offerOf(edit.check) === offerOf(check);
    await tx
      .update(listingEdits)
      .set({ check, revision: sameOffer ? edit.revision : edit.revision + 1 })
      .where(eq(listingEdits.listingId, listingId));
    return;
  }
  const fields = {
    name: listing.name,
    description: listing.description,
    categories: listing.categories,
    serverUrl: listing.serverUrl,
    websiteUrl: listing.websiteUrl,
  };
  await tx
    .insert(listingEdits)
    .values({ listingId, ...fields, revision: listing.revision + 1, status: "pending", check })
    .onConflictDoUpdate({
      target: listingEdits.listingId,
      set: {
        ...fields,
        revision: sql`greatest(${listingEdits.revision} + 1, ${listing.revision + 1})`,
        status: "pending",
        rejectionReason: null,
        check,
        submittedAt: sql`now()`,
      },
    });
}
