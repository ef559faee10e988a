// The one mapper from stored rows to the listing model (lib/listings/model.ts). Every surface reads listings
// through db/queries/listing-facts.ts (rows with their checks, uptime and drift) and shapes them here.
import type { ListingEvidence, ListingRecord, LatestProbeRow } from "@/db/queries/listing-facts";
import type { PublicListingRow } from "@/db/queries/search/columns";
import { NO_PROBES, VERIFIED_WINDOW_MS } from "@/db/queries/probes";
import { NO_SALES } from "@/db/queries/sales";
import { NO_BUYER_REVIEWS, toBuyerReviewView } from "@/lib/listings/buyer-review-view";
import { toTestPurchaseView } from "@/lib/listings/test-purchase-view";
import type { Listing, ListingSales, ListingView, ProbeSnapshot } from "./model";
import type { TestPurchaseView } from "@/lib/listings/test-purchase-view";
import type { DeliveryCounts } from "@/db/queries/test-purchases";

const NO_DELIVERIES: DeliveryCounts = { delivered: 0, failedUncharged: 0, failedCharged: 0 };

function toListing(row: PublicListingRow): Listing {
  return {
    ...row,
    price: row.price === null ? null : Number(row.price),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

function toSnapshot(probe: LatestProbeRow): ProbeSnapshot {
  return {
    checkedAt: new Date(probe.checkedAt).toISOString(),
    reachable: probe.reachable,
    verifiable: probe.verifiable,
    latencyMs: probe.latencyMs,
    protocolVersion: probe.protocolVersion ?? null,
    tools: probe.tools ?? [],
    pricedItems: probe.pricedItems ?? [],
    paymentMethods: probe.paymentMethods ?? [],
  };
}

/**
 * Verified is claimed only with a check behind it: the listing's flag (approval, kept by the checks) and a
 * verifiable latest check from the last 24 hours. A flag no check earned reads as unverified.
 */
function verifiedByProbe(flag: boolean, probe: ProbeSnapshot | null, now = new Date()): boolean {
  return (
    flag &&
    probe !== null &&
    probe.verifiable &&
    now.getTime() - new Date(probe.checkedAt).getTime() < VERIFIED_WINDOW_MS
  );
}

/** A listing's sales and latest test purchase as every surface shows them (listing views and discovery entries alike). */
export function toEvidenceView(
  evidence: ListingEvidence | undefined,
): ListingSales & { testPurchase: TestPurchaseView | null } {
  return {
    sales: evidence?.sales ?? NO_SALES,
    testPurchase: evidence?.testPurchase ? toTestPurchaseView(evidence.testPurchase) : null,
  };
}

export function toListingView(record: ListingRecord, now = new Date()): ListingView {
  const probe = record.probe ? toSnapshot(record.probe) : null;
  const listing = toListing(record.row);
  const reviews = record.buyerReviews;
  const buyerReviews = reviews
    ? { count: reviews.count, average: reviews.average, latest: reviews.latest.map(toBuyerReviewView) }
    : NO_BUYER_REVIEWS;
  const evidence = toEvidenceView(record);
  // Took the money and delivered nothing: not Verified, whatever the checks say, until a test purchase delivers.
  const verified = verifiedByProbe(listing.verified, probe, now) && evidence.testPurchase?.outcome !== "not-delivered";
  const delivery30d = record.delivery ?? NO_DELIVERIES;
  return {
    ...listing,
    verified,
    probe,
    uptime: record.uptime ?? NO_PROBES,
    drift: record.drift,
    buyerReviews,
    delivery30d,
    ...evidence,
  };
}

/** A listing no check has reached yet (a submission just saved). */
export function unprobedView(row: PublicListingRow): ListingView {
  return toListingView({ row, drift: [] });
}
