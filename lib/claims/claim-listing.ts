// Claiming an imported listing by its namespace: which rule applies, a token for a domain's owner to publish,
// and the check of what the domain published. A proven namespace hands over every unclaimed imported listing in
// it whose server's host it covers, in one transaction with the token's single use. A name that does not cover its
// server's host (io.github.someone/… or com.other/… pointing at a host outside github.io or that domain) proves
// nothing about the server: only the host can, with the token in the claim file on the server's own origin, and its
// owner then takes the listings there over from whoever held them.
import {
  CLAIMABLE_SOURCE,
  consumeClaimToken,
  findClaimTarget,
  findClaimTokens,
  listClaimedListings,
  type ClaimedListing,
  type ClaimTarget,
} from "@/db/queries/claims";
import type { Db } from "@/db/types";
import { digest } from "@/lib/secrets";
import { ApiError } from "@/lib/errors";
import { isListingId } from "@/lib/listings/keys";
import { enforceLimit, limits } from "@/lib/rate-limit";
import { claimCoveredListings, takeOverHostListings } from "./covered";
import {
  hostWellKnownUrl,
  readPublished,
  readWellKnownAt,
  type ClaimMethod,
  type DomainProofOptions,
} from "./domain-proof";
import { coversHost, hostOf, namespaceOf, type Namespace } from "./namespace";
import { issueClaimToken, type IssuedClaimToken } from "./tokens";

/** A claim by a server's host: `namespace` (what its tokens are bound to) is the server's origin. */
type HostRule = { kind: "host"; namespace: string; origin: string; host: string };
/** What proves a listing's owner: its name's namespace when that covers the server's host, else the host. */
type ClaimRule = Namespace | HostRule;

export type { ClaimedListing };

type Claimable = { listing: ClaimTarget; namespace: ClaimRule };

/** The rule for a listing whose name has a namespace: that namespace where it covers the host, the host otherwise. */
export function claimRule(namespace: Namespace, serverUrl: string): ClaimRule | null {
  const host = hostOf(serverUrl);
  if (coversHost(namespace, host)) return namespace;
  if (!host) return null;
  const origin = new URL(serverUrl).origin;
  return { kind: "host", namespace: origin, origin, host };
}

/** The listing and the rule that proves its owner; a precise refusal when it cannot be claimed. */
async function claimableListing(db: Db, userId: string, listingId: string): Promise<Claimable> {
  const listing = isListingId(listingId) ? await findClaimTarget(db, listingId) : null;
  if (!listing) throw new ApiError(404, "There is no listing with that id.");
  if (listing.source === "agora" || !listing.upstreamName)
    throw new ApiError(
      400,
      "This listing was submitted on Agora: only listings imported from a registry can be claimed.",
    );
  if (listing.source !== CLAIMABLE_SOURCE) {
    throw new ApiError(
      400,
      "This listing was found in an x402 discovery list, which does not prove who publishes it: only listings imported from the MCP Registry can be claimed.",
    );
  }
  if (listing.submitterId === userId) throw new ApiError(409, "This listing is already yours.");
  const namespace = namespaceOf(listing.upstreamName);
  if (!namespace)
    throw new ApiError(
      400,
      `${listing.upstreamName} is neither an io.github name nor a reverse-DNS name, so no rule can prove who publishes it.`,
    );
  const rule = claimRule(namespace, listing.serverUrl);
  if (!rule) throw new ApiError(400, "This listing's server address cannot be read, so no rule can prove who runs it.");
  // Whoever holds a listing by a name that does not speak for its host holds it until the host's owner proves the host.
  if (listing.submitterId && rule.kind !== "host")
    throw new ApiError(409, "This listing has already been claimed by its publisher.");
  return { listing, namespace: rule };
}

async function domainClaim(db: Db, userId: string, listingId: string) {
  const claim = await claimableListing(db, userId, listingId);
  const rule = claim.namespace;
  if (rule.kind === "github")
    throw new ApiError(400, `${rule.namespace} names are claimed by signing in with GitHub, not with a token.`);
  return { ...claim, namespace: rule };
}

/** Where the token is published for a rule: the domain (namespace claims) or the server's host. */
const provenAt = (rule: Namespace | HostRule) =>
  rule.kind === "host" ? rule.host : rule.kind === "domain" ? rule.domain : rule.account;

/** A fresh token for the listing's domain namespace (or its server's host), shown once. */
export async function startDomainClaim(
  db: Db,
  userId: string,
  listingId: string,
): Promise<IssuedClaimToken & { namespace: string; domain: string }> {
  const { namespace } = await domainClaim(db, userId, listingId);
  return {
    ...(await issueClaimToken(db, userId, namespace.namespace)),
    namespace: namespace.namespace,
    domain: provenAt(namespace),
  };
}

type ClaimOutcome = { namespace: string; claimed: number };

/**
 * Reads the token the domain publishes (by `method`) and, when it is a live token Agora gave this account for this
 * namespace, uses it up and claims the namespace's listings. Every refusal names what was wrong.
 */
export async function verifyDomainClaim(
  db: Db,
  userId: string,
  listingId: string,
  method: ClaimMethod,
  options: DomainProofOptions = {},
): Promise<ClaimOutcome> {
  const { namespace } = await domainClaim(db, userId, listingId);
  if (namespace.kind === "host" && method !== "well-known") {
    throw new ApiError(
      400,
      `${namespace.host} proves it runs this server with the claim file on the server's own origin (${hostWellKnownUrl(namespace.origin, namespace.host)}), not with a DNS record.`,
    );
  }
  await enforceLimit(db, limits.claimChecksPerUser, userId);
  const published =
    namespace.kind === "host"
      ? await readWellKnownAt(hostWellKnownUrl(namespace.origin, namespace.host, options), namespace.host, options)
      : await readPublished(method, namespace.domain, options);
  if (!published.ok) throw new ApiError(403, published.message);

  const rows = await findClaimTokens(db, published.tokens.map(digest));
  const mine = rows.filter((r) => r.userId === userId && r.namespace === namespace.namespace);
  const now = Date.now();
  const live = mine.find((r) => !r.usedAt && r.expiresAt.getTime() > now);
  if (!live) {
    if (mine.some((r) => r.usedAt))
      throw new ApiError(
        403,
        `The token published at ${published.where} has already been used. Get a new token and publish it.`,
      );
    if (mine.length > 0)
      throw new ApiError(403, `The token published at ${published.where} has expired. Get a new token and publish it.`);
    throw new ApiError(
      403,
      `The token published at ${published.where} is not one Agora gave this account for ${namespace.namespace}.`,
    );
  }

  const claimed = await db.transaction(async (tx) => {
    if (!(await consumeClaimToken(tx, live.id)))
      throw new ApiError(
        403,
        `The token published at ${published.where} has already been used. Get a new token and publish it.`,
      );
    const ids =
      namespace.kind === "host"
        ? await takeOverHostListings(tx, userId, namespace.origin)
        : await claimCoveredListings(tx, userId, [namespace.namespace]);
    // Nothing left to claim (someone else proved the namespace meanwhile): the token stays unused.
    if (ids.length === 0) throw new ApiError(409, "This listing has already been claimed by its publisher.");
    return ids.length;
  });
  return { namespace: namespace.namespace, claimed };
}

type ClaimPage = { listing: ClaimTarget; namespace: ClaimRule | null; state: "open" | "mine" | "taken" };

/** What the claim page shows for this listing and person; null when the listing is not one imported from the MCP Registry. */
export async function claimPage(db: Db, userId: string, listingId: string): Promise<ClaimPage | null> {
  const listing = isListingId(listingId) ? await findClaimTarget(db, listingId) : null;
  if (!listing || listing.source !== CLAIMABLE_SOURCE || !listing.upstreamName) return null;
  const namespace = namespaceOf(listing.upstreamName);
  const rule = namespace && claimRule(namespace, listing.serverUrl);
  // A listing held by a name that does not speak for its host stays open to the host's owner.
  const state =
    listing.submitterId === userId ? "mine" : listing.submitterId && rule?.kind !== "host" ? "taken" : "open";
  return { listing, namespace: rule, state };
}

/** The listings this account claimed (the account page). */
export function claimedListings(db: Db, userId: string) {
  return listClaimedListings(db, userId);
}
