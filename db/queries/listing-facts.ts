// What the checks know about a page of listings, loaded beside the rows in one statement whatever the page's size
// (db/queries/facts-statement.ts): the latest check, the 30-day record, the recent drift, the buyer reviews and Agora's own evidence (sales, test
// purchase) of each. Every surface reads listings this way, so a search or a lookup goes down to the database once and
// comes back with everything it shows; discovery, which pages tools rather than listings, reads the evidence alone.
import type { BuyerReviewRow, ListingProbe, TestPurchase } from "../schema";
import type { Db } from "../types";
import { buyerReviewsFact, type BuyerReviewSummary } from "./buyer-reviews";
import { recentDriftFact, type DriftRecord } from "./drift";
import { readListingFacts } from "./facts-statement";
import { findPublicListing } from "./listings";
import { searchListings } from "./search";
import type { PublicListingRow } from "./search/columns";
import type { CatalogueQuery } from "./search/terms";
import { latestProbeFact, uptimeFact, type UptimeSummary } from "./probes";
import { salesSummaryFact, type SalesSummary } from "./sales";
import { deliveryCountsFact, latestTestPurchaseFact, type DeliveryCounts } from "./test-purchases";

/** The record window of `uptime`. */
const UPTIME_DAYS = 30;

/** The window of `delivery`. */
const DELIVERY_DAYS = 30;

/** What the surfaces read of the latest check. */
export type LatestProbeRow = Pick<
  ListingProbe,
  | "listingId"
  | "checkedAt"
  | "reachable"
  | "verifiable"
  | "latencyMs"
  | "protocolVersion"
  | "tools"
  | "pricedItems"
  | "paymentMethods"
>;

/** A listing row with what the checks know about it; `probe` and `uptime` are absent before the first check. */
export type ListingRecord = {
  row: PublicListingRow;
  probe?: LatestProbeRow;
  uptime?: UptimeSummary;
  drift: DriftRecord[];
  sales?: SalesSummary;
  /** Visible buyer reviews: count, average and the newest few (absent before the first). */
  buyerReviews?: BuyerReviewSummary & { latest: BuyerReviewRow[] };
  testPurchase?: TestPurchase;
  /** Its test purchases of the last `DELIVERY_DAYS` days by what came of them (absent when there were none). */
  delivery?: DeliveryCounts;
};

/**
 * Agora's own evidence about a listing: its sales read from the chain, its latest test purchase and its buyers'
 * rating (count and average of the visible reviews, without the reviews); each absent when there is none yet.
 */
export type ListingEvidence = Pick<ListingRecord, "sales" | "testPurchase" | "delivery"> & {
  buyerRating?: BuyerReviewSummary;
};

/** The evidence of each listing in `listingIds`, in one statement however many there are. */
export async function listingEvidence(
  db: Db,
  listingIds: string[],
  now = new Date(),
): Promise<Map<string, ListingEvidence>> {
  return readListingFacts(db, listingIds, {
    sales: salesSummaryFact(now),
    testPurchase: latestTestPurchaseFact,
    buyerRating: buyerReviewsFact(0),
    delivery: deliveryCountsFact(DELIVERY_DAYS),
  });
}

/** The rows in the given order, each with its facts. */
export async function withListingFacts(db: Db, rows: PublicListingRow[], now = new Date()): Promise<ListingRecord[]> {
  if (rows.length === 0) return [];
  const facts = await readListingFacts(
    db,
    rows.map((r) => r.id),
    {
      probe: latestProbeFact,
      uptime: uptimeFact(UPTIME_DAYS, now),
      drift: recentDriftFact(),
      sales: salesSummaryFact(now),
      testPurchase: latestTestPurchaseFact,
      buyerReviews: buyerReviewsFact(),
      delivery: deliveryCountsFact(DELIVERY_DAYS),
    },
  );
  return rows.map((row) => {
    const f = facts.get(row.id);
    return {
      row,
      probe: f?.probe,
      uptime: f?.uptime,
      drift: f?.drift ?? [],
      sales: f?.sales,
      buyerReviews: f?.buyerReviews,
      testPurchase: f?.testPurchase,
      delivery: f?.delivery,
    };
  });
}

/** A page of the catalogue's search (db/queries/search searchListings) with the facts of each listing. */
export async function searchListingRecords(
  db: Db,
  query: CatalogueQuery,
  page: { limit: number; offset: number },
  options: { exactBrowseCount?: boolean } = {},
): Promise<{ records: ListingRecord[]; total: number; capped: boolean }> {
  const { rows, ...counts } = await searchListings(db, query, page, options);
  return { ...counts, records: await withListingFacts(db, rows) };
}

/** One approved listing by slug or id with its facts; null for unknown, pending and rejected ones. */
export async function findListingRecord(db: Db, slugOrId: string, now = new Date()): Promise<ListingRecord | null> {
  const row = await findPublicListing(db, slugOrId);
  return row ? (await withListingFacts(db, [row], now))[0]! : null;
}
