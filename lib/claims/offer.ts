import "server-only";
// Whether the detail page offers "Claim this listing": imported from the MCP Registry, named in a namespace some rule
// can prove, and unclaimed, or held by a name that does not cover its server's host (whose owner may take it over).
// Read per render of the detail page, which the route cache keeps under the catalogue tag (a claim revalidates it).
import { CLAIMABLE_SOURCE, findClaimTarget } from "@/db/queries/claims";
import { getDb } from "@/lib/database";
import { claimRule } from "./claim-listing";
import { namespaceOf } from "./namespace";

export async function getClaimOffer(listingId: string): Promise<boolean> {
  const listing = await findClaimTarget(await getDb(), listingId);
  const namespace = listing && listing.source === CLAIMABLE_SOURCE ? namespaceOf(listing.upstreamName) : null;
  if (!listing || !namespace) return false;
  return !listing.submitterId || claimRule(namespace, listing.serverUrl)?.kind === "host";
}
