// The listing as every surface knows it: `Listing` (what the public sees of the row, derived from the schema's
// row) and `ListingView` (with what Agora's checks found), the one view type; lib/listings/from-rows.ts is the one
// mapper. Plain JSON, so pages can cache and serialise them. Components import these types from here, never from
// the database layer.
import type { AcceptedPayment, PricedItem, ProbedTool } from "@agora-mcp/protocol";
import type { DriftRecord } from "@/db/queries/drift";
import type { OwnEdit, PendingEditEntry } from "@/db/queries/listing-edits";
import type { EditInput } from "@/db/queries/listing-write";
import type { PublicListingRow } from "@/db/queries/search/columns";
import type { SalesSummary } from "@/db/queries/sales";
import type { Uptime, UptimeSummary } from "@/db/queries/probes";
import type { DeliveryCounts } from "@/db/queries/test-purchases";
import type { SubmittedListing } from "@/db/queries/submissions";
import type { ListingProbe } from "@/db/schema";
import type { BuyerReviewFacts, BuyerReviewView } from "@/lib/listings/buyer-review-view";
import type { TestPurchaseView } from "@/lib/listings/test-purchase-view";

export type { EditInput, OwnEdit, PendingEditEntry };
export type {
  BuyerReviewFacts,
  BuyerReviewView,
  DeliveryCounts,
  DriftRecord,
  ListingProbe as ListingCheck,
  SalesSummary,
  SubmittedListing,
  Uptime,
  UptimeSummary,
};

/** The public columns of a stored row (db/queries/search/columns.ts lists them), with dates as ISO strings. */
export type Listing = Omit<PublicListingRow, "createdAt" | "updatedAt"> & { createdAt: string; updatedAt: string };

/** What the latest check found. */
export type ProbeSnapshot = {
  checkedAt: string;
  reachable: boolean;
  verifiable: boolean;
  latencyMs: number | null;
  /** The MCP revision the server spoke (2026-07-28, or a 2025 revision after initialize); null when not reached or before this was recorded. */
  protocolVersion: string | null;
  tools: ProbedTool[];
  pricedItems: PricedItem[];
  paymentMethods: AcceptedPayment[];
};

/**
 * `drift`: the latest changes a check found against what was approved, newest first. `testPurchase`: Agora's
 * latest purchase from it (lib/test-purchases), null before the first.
 */
export type ListingView = Listing & {
  probe: ProbeSnapshot | null;
  uptime: UptimeSummary;
  drift: DriftRecord[];
  testPurchase: TestPurchaseView | null;
} & ListingSales & {
    /** Its test purchases of the last 30 days: delivered, failed without a charge, failed after one (all 0 when none). */
    delivery30d: DeliveryCounts;
    /** Reviews from wallets that paid (lib/buyer-reviews): count, average rating and the newest few. */
    buyerReviews: BuyerReviewFacts;
  };

/** What the chain says was bought (lib/sales): sales, buyers and volume over 7 / 30 days and all time. */
export type ListingSales = { sales: SalesSummary };
