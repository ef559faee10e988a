// What Agora's registry answers on its MCP endpoint (`search_servers`, `get_server`): the site builds its
// output schemas on these and the agent client checks each answer against them instead of trusting a cast.
import { z } from "zod";
import type { CataloguePrice, CatalogueSort, CatalogueSource } from "./catalogue.js";

/** A listing as every registry answer names it; answers may carry more (check facts), which readers may ignore. */
export const registryListingSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  categories: z.array(z.string()),
  price: z.number().nullable().describe("USD per call of the cheapest item; null or 0 means free."),
  free: z.boolean(),
  verified: z.boolean(),
  serverUrl: z.string().describe("The server's MCP endpoint (Streamable HTTP)."),
  detailUrl: z.string().describe("The listing's page in the marketplace."),
  websiteUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export type RegistryListing = z.infer<typeof registryListingSchema>;

/** What buyers' signed receipts of the window said: the call delivered, or the buyer was charged and got nothing. */
export const buyerReceiptCountsSchema = z.object({
  delivered: z.number().int().nonnegative(),
  failedCharged: z.number().int().nonnegative(),
});

/**
 * How often a server delivered over 30 days (`delivery30d` in the registry's answers): the registry's own test
 * purchases and its buyers' signed receipts together in the three totals; `buyerReceipts`, when present, says how
 * many of them came from buyers (a receipt is only ever of a payment on chain, so it never fails uncharged).
 */
export const deliveryEvidenceSchema = z.object({
  delivered: z.number().int().nonnegative(),
  failedUncharged: z.number().int().nonnegative(),
  failedCharged: z.number().int().nonnegative(),
  buyerReceipts: buyerReceiptCountsSchema.optional(),
});
export type DeliveryEvidence = z.infer<typeof deliveryEvidenceSchema>;

/** The share of counted purchases (test purchases and buyer receipts) that delivered (0 to 1), or null with no evidence at all. */
export function deliveryRate(evidence: DeliveryEvidence | null | undefined): number | null {
  if (!evidence) return null;
  const total = evidence.delivered + evidence.failedUncharged + evidence.failedCharged;
  return total === 0 ? null : evidence.delivered / total;
}

/** `search_servers`' answer. */
export const registrySearchAnswerSchema = z.object({
  servers: z.array(registryListingSchema),
  total: z.number().int().describe("How many servers match the filters in all, counted up to 1000 (see totalCapped)."),
  totalCapped: z
    .boolean()
    .describe("True when more than total servers match: counting stops at 1000; page on with nextCursor."),
  nextCursor: z.string().nullable().describe("Pass as cursor for the next page; null on the last page."),
});

export type RegistrySearchAnswer = z.infer<typeof registrySearchAnswerSchema>;

export type RegistrySearchInput = {
  query?: string;
  category?: string;
  price?: CataloguePrice;
  source?: CatalogueSource;
  sort?: CatalogueSort;
  limit?: number;
  cursor?: string;
};
