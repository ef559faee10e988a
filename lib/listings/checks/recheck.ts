// 'Re-check': the listing's owner or an admin probes its server now. Each check reaches a host the owner
// picks and stores a row, so it is bounded per person and cooled down per listing.
import type { Db } from "@/db/types";
import type { User } from "@/db/schema";
import { findListingOwner } from "@/db/queries/reviews";
import { isAdmin } from "@/lib/roles";
import { ApiError } from "@/lib/errors";
import type { ProbeOptions } from "@/lib/probe";
import { checkListing } from "./check-listings";
import { enforceLimit, limits } from "@/lib/rate-limit";

type RecheckSummary = {
  reachable: boolean;
  error: string | null;
  errorClass: string | null;
  tools: number;
  verified: boolean;
};

export async function runRecheck(
  db: Db,
  user: User,
  listingId: string,
  probe: ProbeOptions = {},
): Promise<RecheckSummary> {
  const owner = await findListingOwner(db, listingId);
  if (owner === undefined) throw new ApiError(404, "Unknown listing.");
  if (!isAdmin(user) && owner !== user.id)
    throw new ApiError(403, "Only the listing's owner or an admin can re-check it.");
  await enforceLimit(db, limits.rechecksPerUser, user.id);
  await enforceLimit(db, limits.recheckCooldownPerListing, listingId);
  const recorded = await checkListing(db, listingId, probe);
  if (!recorded) throw new ApiError(404, "Unknown listing.");
  const { result } = recorded;
  return {
    reachable: result.reachable,
    error: result.error,
    errorClass: result.errorClass,
    tools: result.tools.length,
    verified: recorded.listing?.verified ?? false,
  };
}
