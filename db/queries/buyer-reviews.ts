// Buyer reviews: stored once per sale (the unique sale key decides a race), read per listing for the
// surfaces, hidden by admins (recorded in listing_reviews with who and why), answered once by the owner,
// revoked by their reviewer.
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { buyerReviews, listingProbes, listingReviews, listings, type BuyerReviewRow, type ListingRow } from "../schema";
import { rowFromJson, rowJson } from "../json-rows";
import { rowsOf } from "../rows";
import type { Db } from "../types";
import type { ListingFact } from "./facts-statement";
import { violatedUniqueConstraint } from "../unique-violation";

type NewBuyerReview = Omit<
  typeof buyerReviews.$inferInsert,
  | "id"
  | "createdAt"
  | "revokedAt"
  | "revokeSignature"
  | "hiddenAt"
  | "hiddenBy"
  | "hiddenReason"
  | "response"
  | "respondedAt"
>;

/** Stores a review; `duplicate` when the sale already has one (a concurrent duplicate loses here). */
export async function insertBuyerReview(
  db: Db,
  review: NewBuyerReview,
): Promise<{ ok: true; review: BuyerReviewRow } | { ok: false; reason: "duplicate" }> {
  try {
    const [row] = await db.insert(buyerReviews).values(review).returning();
    return { ok: true, review: row! };
  } catch (error) {
    if (violatedUniqueConstraint(error) !== null) return { ok: false, reason: "duplicate" };
    throw error;
  }
}

export async function findBuyerReviewBySale(
  db: Db,
  chainId: number,
  txHash: string,
  logIndex?: number,
): Promise<BuyerReviewRow[]> {
  return db
    .select()
    .from(buyerReviews)
    .where(
      and(
        eq(buyerReviews.chainId, chainId),
        eq(buyerReviews.txHash, txHash.toLowerCase()),
        logIndex === undefined ? undefined : eq(buyerReviews.logIndex, logIndex),
      ),
    );
}

/** Marks a review revoked (once); false when it was already revoked. */
export async function revokeBuyerReview(db: Db, id: string, signature: string): Promise<boolean> {
  const rows = await db
    .update(buyerReviews)
    .set({ revokedAt: sql`now()`, revokeSignature: signature })
    .where(and(eq(buyerReviews.id, id), isNull(buyerReviews.revokedAt)))
    .returning({ id: buyerReviews.id });
  return rows.length === 1;
}

/** Hides a review and records the decision (who, why) in the moderation history, in one transaction. */
export async function hideBuyerReview(
  db: Db,
  id: string,
  adminId: string,
  reason: string,
): Promise<"hidden" | "already" | "missing"> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(buyerReviews)
      .set({ hiddenAt: sql`now()`, hiddenBy: adminId, hiddenReason: reason })
      .where(and(eq(buyerReviews.id, id), isNull(buyerReviews.hiddenAt)))
      .returning({ listingId: buyerReviews.listingId });
    if (!row)
      return (await tx.select({ id: buyerReviews.id }).from(buyerReviews).where(eq(buyerReviews.id, id))).length
        ? "already"
        : "missing";
    await tx.insert(listingReviews).values({
      listingId: row.listingId,
      reviewerId: adminId,
      decision: "hid a buyer review",
      reason,
      buyerReviewId: id,
    });
    return "hidden";
  });
}

/** The owner's one answer; `taken` when the review already has one, `missing` when it is not the owner's listing's. */
export async function answerBuyerReview(
  db: Db,
  id: string,
  ownerId: string,
  text: string,
): Promise<"answered" | "taken" | "missing"> {
  const owned = sql`${buyerReviews.listingId} in (select ${listings.id} from ${listings} where ${listings.submitterId} = ${ownerId})`;
  const rows = await db
    .update(buyerReviews)
    .set({ response: text, respondedAt: sql`now()` })
    .where(and(eq(buyerReviews.id, id), isNull(buyerReviews.response), owned))
    .returning({ id: buyerReviews.id });
  if (rows.length) return "answered";
  const [exists] = await db
    .select({ id: buyerReviews.id })
    .from(buyerReviews)
    .where(and(eq(buyerReviews.id, id), owned));
  return exists ? "taken" : "missing";
}

/** Shown publicly: neither revoked nor hidden. */
const visible = and(isNull(buyerReviews.revokedAt), isNull(buyerReviews.hiddenAt));

/** A listing's visible reviews, newest first (bounded). */
export async function visibleBuyerReviews(db: Db, listingId: string, limit = 100): Promise<BuyerReviewRow[]> {
  return db
    .select()
    .from(buyerReviews)
    .where(and(eq(buyerReviews.listingId, listingId), visible))
    .orderBy(desc(buyerReviews.createdAt), desc(buyerReviews.id))
    .limit(limit);
}

export type BuyerReviewSummary = { count: number; average: number | null };

/** A listing's visible reviews: count, average rating (two decimals) and the newest `perListing` (absent: none). */
export function buyerReviewsFact(perListing = 5): ListingFact<BuyerReviewSummary & { latest: BuyerReviewRow[] }> {
  const shown = sql`r.revoked_at is null and r.hidden_at is null`;
  return {
    select: (
      listingId,
    ) => sql`(select case when count(*) > 0 then jsonb_build_object('count', count(*), 'average', round(avg(r.rating), 2)::text,
        'latest', (select jsonb_agg(x.row order by x.created_at desc, x.id desc)
          from (select ${rowJson(buyerReviews, "r")} as row, r.created_at, r.id from ${buyerReviews} r
                where r.listing_id = ${listingId} and ${shown} order by r.created_at desc, r.id desc limit ${perListing}) x)) end
      from ${buyerReviews} r where r.listing_id = ${listingId} and ${shown})`,
    decode: (json) => {
      const r = json as { count: number; average: string | null; latest: Record<string, unknown>[] | null };
      return {
        count: Number(r.count),
        average: r.average === null ? null : Number(r.average),
        latest: (r.latest ?? []).map((row) => rowFromJson(buyerReviews, row)),
      };
    },
  };
}

/** Reviews awaiting an owner's answer or an admin's eye: the latest visible reviews of the given listings, or of all (admins). */
export async function recentBuyerReviews(db: Db, scope: { ownerId: string } | { all: true }, limit = 100) {
  return db
    .select({ review: buyerReviews, listingName: listings.name, listingSlug: listings.slug })
    .from(buyerReviews)
    .innerJoin(listings, eq(listings.id, buyerReviews.listingId))
    .where(and(visible, "ownerId" in scope ? eq(listings.submitterId, scope.ownerId) : undefined))
    .orderBy(desc(buyerReviews.createdAt), desc(buyerReviews.id))
    .limit(limit);
}

/**
 * Payee wallets the listing's checks found for a payment method in the probe history kept (about a month),
 * so a sale to the wallet a provider used before a change can still be reviewed.
 */
export async function listingPayees(
  db: Db,
  listingId: string,
  paymentMethod: string,
  days = 31,
  now = new Date(),
): Promise<string[]> {
  const since = new Date(now.getTime() - days * 86_400_000);
  const rows = rowsOf<{ wallet: string }>(
    await db.execute(sql`
      select distinct lower(m->>'walletAddress') as wallet
      from ${listingProbes}, jsonb_array_elements(${listingProbes.paymentMethods}) as m
      where ${listingProbes.listingId} = ${listingId} and ${listingProbes.checkedAt} > ${since.toISOString()}::timestamptz
        and not ${listingProbes.termsHeld} and upper(m->>'paymentMethod') = ${paymentMethod}`),
  );
  return rows.map((r) => r.wallet).filter((w) => /^0x[0-9a-f]{40}$/.test(w));
}

/** An approved listing's id, server URL and owner by id or slug; null otherwise. */
export async function findReviewableListing(
  db: Db,
  key: string,
): Promise<Pick<ListingRow, "id" | "slug" | "serverUrl" | "submitterId"> | null> {
  const byId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key);
  const [row] = await db
    .select({ id: listings.id, slug: listings.slug, serverUrl: listings.serverUrl, submitterId: listings.submitterId })
    .from(listings)
    .where(and(eq(listings.status, "approved"), byId ? eq(listings.id, key.toLowerCase()) : eq(listings.slug, key)));
  return row ?? null;
}
