import "server-only";
// Whether the detail page offers "Claim this listing": imported from the MCP Registry, named in a namespace some rule
// can prove, and unclaimed, or held by a name that does not cover its server's host (whose owner may take it over).
// Cached with the catalogue (a claim revalidates it).
import { unstable_cache } from "next/cache";
import { CLAIMABLE_SOURCE, findClaimTarget } from "@/db/queries/claims";
import { getDb } from "@/lib/database";
import { CATALOGUE_TAG } from "@/lib/listings/catalogue";
import { claimRule } from "./claim-listing";
import { namespaceOf } from "./namespace";

export const getClaimOffer = unstable_cache(
  async (listingId: string): Promise<boolean> => {
    const listing = await findClaimTarget(await getDb(), listingId);
    const namespace = listing && listing.source === CLAIMABLE_SOURCE ? namespaceOf(listing.upstreamName) : null;
    if (!listing || !namespace) return false;
    return !listing.submitterId || claimRule(namespace, listing.serverUrl)?.kind === "host";
  },
  ["marketplace-claim-offer"],
  { tags: [CATALOGUE_TAG], revalidate: 300 },
);
