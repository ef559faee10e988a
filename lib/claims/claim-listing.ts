// Claiming an imported listing by its namespace: which rule applies, a token for a domain's owner to publish,
// and the check of what the domain published. A proven namespace hands over every unclaimed imported listing in
// it, in one transaction with the token's single use.
import { CLAIMABLE_SOURCE, claimNamespaces, consumeClaimToken, findClaimTarget, findClaimTokens, listClaimedListings, type ClaimTarget } from "@/db/queries/claims";
import type { Db } from "@/db/types";
import { digest } from "@/lib/auth/secrets";
import { ApiError } from "@/lib/errors";
import { isListingId } from "@/lib/listings/keys";
import { enforceLimit, limits } from "@/lib/rate-limit";
import { readPublished, type ClaimMethod, type DomainProofOptions } from "./domain-proof";
import { namespaceOf, type Namespace } from "./namespace";
import { issueClaimToken, type IssuedClaimToken } from "./tokens";

export type Claimable = { listing: ClaimTarget; namespace: Namespace };

/** The listing and the rule that proves its namespace; a precise refusal when it cannot be claimed. */
export async function claimableListing(db: Db, userId: string, listingId: string): Promise<Claimable> {
  const listing = isListingId(listingId) ? await findClaimTarget(db, listingId) : null;
  if (!listing) throw new ApiError(404, "There is no listing with that id.");
  if (listing.source === "agora" || !listing.upstreamName) throw new ApiError(400, "This listing was submitted on Agora: only listings imported from a registry can be claimed.");
  if (listing.source !== CLAIMABLE_SOURCE) {
    throw new ApiError(400, "This listing was found in an x402 discovery list, which does not prove who publishes it: only listings imported from the MCP Registry can be claimed.");
  }
  if (listing.submitterId === userId) throw new ApiError(409, "This listing is already yours.");
  if (listing.submitterId) throw new ApiError(409, "This listing has already been claimed by its publisher.");
  const namespace = namespaceOf(listing.upstreamName);
  if (!namespace) throw new ApiError(400, `${listing.upstreamName} is neither an io.github name nor a reverse-DNS name, so no rule can prove who publishes it.`);
  return { listing, namespace };
}

async function domainClaim(db: Db, userId: string, listingId: string) {
  const claim = await claimableListing(db, userId, listingId);
  if (claim.namespace.kind !== "domain") throw new ApiError(400, `${claim.namespace.namespace} names are claimed by signing in with GitHub, not with a token.`);
  return { ...claim, namespace: claim.namespace };
}

/** A fresh token for the listing's domain namespace, shown once. */
export async function startDomainClaim(db: Db, userId: string, listingId: string): Promise<IssuedClaimToken & { namespace: string; domain: string }> {
  const { namespace } = await domainClaim(db, userId, listingId);
  return { ...(await issueClaimToken(db, userId, namespace.namespace)), namespace: namespace.namespace, domain: namespace.domain };
}

export type ClaimOutcome = { namespace: string; claimed: number };

/**
 * Reads the token the domain publishes (by `method`) and, when it is a live token Agora gave this account for this
 * namespace, uses it up and claims the namespace's listings. Every refusal names what was wrong.
 */
export async function verifyDomainClaim(db: Db, userId: string, listingId: string, method: ClaimMethod, options: DomainProofOptions = {}): Promise<ClaimOutcome> {
  const { namespace } = await domainClaim(db, userId, listingId);
  await enforceLimit(db, limits.claimChecksPerUser, userId);
  const published = await readPublished(method, namespace.domain, options);
  if (!published.ok) throw new ApiError(403, published.message);

  const rows = await findClaimTokens(db, published.tokens.map(digest));
  const mine = rows.filter((r) => r.userId === userId && r.namespace === namespace.namespace);
  const now = Date.now();
  const live = mine.find((r) => !r.usedAt && r.expiresAt.getTime() > now);
  if (!live) {
    if (mine.some((r) => r.usedAt)) throw new ApiError(403, `The token published at ${published.where} has already been used. Get a new token and publish it.`);
    if (mine.length > 0) throw new ApiError(403, `The token published at ${published.where} has expired. Get a new token and publish it.`);
    throw new ApiError(403, `The token published at ${published.where} is not one Agora gave this account for ${namespace.namespace}.`);
  }

  const claimed = await db.transaction(async (tx) => {
    if (!(await consumeClaimToken(tx, live.id))) throw new ApiError(403, `The token published at ${published.where} has already been used. Get a new token and publish it.`);
    const ids = await claimNamespaces(tx, userId, [namespace.namespace]);
    // Nothing left to claim (someone else proved the namespace meanwhile): the token stays unused.
    if (ids.length === 0) throw new ApiError(409, "This listing has already been claimed by its publisher.");
    return ids.length;
  });
  return { namespace: namespace.namespace, claimed };
}

export type ClaimPage = { listing: ClaimTarget; namespace: Namespace | null; state: "open" | "mine" | "taken" };

/** What the claim page shows for this listing and person; null when the listing is not one imported from the MCP Registry. */
export async function claimPage(db: Db, userId: string, listingId: string): Promise<ClaimPage | null> {
  const listing = isListingId(listingId) ? await findClaimTarget(db, listingId) : null;
  if (!listing || listing.source !== CLAIMABLE_SOURCE || !listing.upstreamName) return null;
  const state = listing.submitterId === userId ? "mine" : listing.submitterId ? "taken" : "open";
  return { listing, namespace: namespaceOf(listing.upstreamName), state };
}

/** The listings this account claimed (the account page). */
export function claimedListings(db: Db, userId: string) {
  return listClaimedListings(db, userId);
}
