// The listing as every surface knows it: `Listing` (what the public sees of the row) and `ListingView` (with
// what Agora's checks found). Plain JSON, so pages can cache and serialise them. Components import these
// types from here, never from the database layer.
import type { AcceptedPayment, PricedItem, ProbedTool } from "@agora-mcp/protocol";
import type { DriftRecord } from "@/db/queries/drift";
import type { Uptime, UptimeSummary } from "@/db/queries/probes";
import type { SubmittedListing } from "@/db/queries/submissions";
import type { ListingProbe } from "@/db/schema";

export type { DriftRecord, ListingProbe as ListingCheck, SubmittedListing, Uptime, UptimeSummary };

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
};

/** What the latest check found. */
export type ProbeSnapshot = {
  checkedAt: string;
  reachable: boolean;
  verifiable: boolean;
  latencyMs: number | null;
  tools: ProbedTool[];
  pricedItems: PricedItem[];
  paymentMethods: AcceptedPayment[];
};

/** `drift`: the latest changes a check found against what was approved, newest first. */
export type ListingView = Listing & { probe: ProbeSnapshot | null; uptime: UptimeSummary; drift: DriftRecord[] };
