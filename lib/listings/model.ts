// The listing as every surface knows it: `Listing` (what the public sees of the row) and `ListingView` (with
// what Agora's checks found). Plain JSON, so pages can cache and serialise them. Components import these
// types from here, never from the database layer.
import type { AcceptedPayment, PricedItem, ProbedTool } from "@agora-mcp/protocol";
import type { DriftRecord } from "@/db/queries/drift";
import type { EditInput, OwnEdit, PendingEditEntry } from "@/db/queries/listing-edits";
import type { SalesSummary } from "@/db/queries/sales";
import type { Uptime, UptimeSummary } from "@/db/queries/probes";
import type { SubmittedListing } from "@/db/queries/submissions";
import type { ListingProbe } from "@/db/schema";
import type { BuyerReviewFacts, BuyerReviewView } from "@/lib/buyer-reviews/view";
import type { TestPurchaseView } from "@/lib/test-purchases/view";

export type { EditInput, OwnEdit, PendingEditEntry };
export type { BuyerReviewFacts, BuyerReviewView, DriftRecord, ListingProbe as ListingCheck, SalesSummary, SubmittedListing, Uptime, UptimeSummary };

export type Listing = {
  id: string;
  slug: string;
  name: string;
  description: string;
  categories: string[];
  price: number | null;
  verified: boolean;
  serverUrl: string;
  websiteUrl: string | null;
  createdAt: string;
  updatedAt: string;
  /** Where it came from: 'agora' (submitted here), 'mcp-registry' or 'x402-discovery' (found by ingestion). */
  source: string;
  /** An imported listing's name, entry and status upstream ('active', 'deprecated'); null for one submitted here. */
  upstreamName: string | null;
  upstreamUrl: string | null;
  upstreamStatus: string | null;
  /** The name the registry API lists it under, stored for an imported registry entry; null: "<namespace>/<slug>". */
  registryName: string | null;
};

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
export type ListingView = Listing & { probe: ProbeSnapshot | null; uptime: UptimeSummary; drift: DriftRecord[]; testPurchase: TestPurchaseView | null } & ListingSales & {
  /** Reviews from wallets that paid (lib/buyer-reviews): count, average rating and the newest few. */
  buyerReviews: BuyerReviewFacts;
};

/** What the chain says was bought (lib/sales): sales, buyers and volume over 7 / 30 days and all time. */
export type ListingSales = { sales: SalesSummary };
