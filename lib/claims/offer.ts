import "server-only";
// Whether the detail page offers "Claim this listing": imported from the MCP Registry, unclaimed, and named in a
// namespace some rule can prove. Cached with the catalogue (a claim revalidates it).
import { unstable_cache } from "next/cache";
import { CLAIMABLE_SOURCE, findClaimTarget } from "@/db/queries/claims";
import { getDb } from "@/lib/database";
import { CATALOGUE_TAG } from "@/lib/listings/catalogue";
import { namespaceOf } from "./namespace";

export const getClaimOffer = unstable_cache(
  async (listingId: string): Promise<boolean> => {
    const listing = await findClaimTarget(await getDb(), listingId);
    return Boolean(listing && listing.source === CLAIMABLE_SOURCE && !listing.submitterId && namespaceOf(listing.upstreamName));
  },
  ["marketplace-claim-offer"],
  { tags: [CATALOGUE_TAG], revalidate: 300 },
);
