// Claiming imported listings: the one-time tokens a domain's owner publishes, and the write that hands a
// namespace's unclaimed imported listings to the account that proved it.
import { and, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { claimTokens, listings } from "../schema";
import type { Db } from "../types";

export type ClaimTokenRow = typeof claimTokens.$inferSelect;

export async function insertClaimToken(db: Db, row: { userId: string; namespace: string; tokenHash: string; expiresAt: Date }): Promise<void> {
  await db.insert(claimTokens).values(row);
}

/** The stored token with one of these digests, whoever it was given to (the caller says why it does not fit). */
export async function findClaimTokens(db: Db, tokenHashes: string[]): Promise<ClaimTokenRow[]> {
  if (tokenHashes.length === 0) return [];
  return db.select().from(claimTokens).where(inArray(claimTokens.tokenHash, tokenHashes));
}

/** Marks the token used, atomically: of two concurrent uses only one gets true. */
export async function consumeClaimToken(db: Db, id: string): Promise<boolean> {
  const used = await db
    .update(claimTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(claimTokens.id, id), isNull(claimTokens.usedAt), sql`${claimTokens.expiresAt} > now()`))
    .returning({ id: claimTokens.id });
  return used.length > 0;
}

const namespaceOf = sql`lower(split_part(${listings.upstreamName}, '/', 1))`;
// lower() folds some non-ASCII lookalikes to ASCII (U+212A KELVIN SIGN to "k"); only plain ASCII namespaces match.
const asciiNamespace = sql`split_part(${listings.upstreamName}, '/', 1) ~ '^[A-Za-z0-9.-]+$'`;

/**
 * The only source whose names mean who publishes: the MCP Registry checked the namespace when the entry was
 * published. A discovery list's name is whatever whoever listed the resource wrote, so it proves nothing.
 */
export const CLAIMABLE_SOURCE = "mcp-registry";

/** Every unclaimed imported listing in these namespaces becomes `userId`'s; returns the ids it took. */
export async function claimNamespaces(db: Db, userId: string, namespaces: string[]): Promise<string[]> {
  if (namespaces.length === 0) return [];
  const claimed = await db
    .update(listings)
    .set({ submitterId: userId, claimedAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        isNotNull(listings.upstreamName),
        eq(listings.source, CLAIMABLE_SOURCE),
        isNull(listings.submitterId),
        inArray(
          namespaceOf,
          namespaces.map((n) => n.toLowerCase()),
        ),
        asciiNamespace,
      ),
    )
    .returning({ id: listings.id });
  return claimed.map((c) => c.id);
}

export type ClaimTarget = {
  id: string;
  slug: string;
  name: string;
  status: string;
  source: string;
  upstreamName: string | null;
  submitterId: string | null;
  claimedAt: Date | null;
};

/** A listing as the claim page needs it (any status: a hidden listing is still somebody's). */
export async function findClaimTarget(db: Db, listingId: string): Promise<ClaimTarget | null> {
  const [row] = await db
    .select({
      id: listings.id,
      slug: listings.slug,
      name: listings.name,
      status: listings.status,
      source: listings.source,
      upstreamName: listings.upstreamName,
      submitterId: listings.submitterId,
      claimedAt: listings.claimedAt,
    })
    .from(listings)
    .where(eq(listings.id, listingId));
  return row ?? null;
}

/** The listings this account claimed, newest claim first (the account page). */
export async function listClaimedListings(db: Db, userId: string) {
  return db
    .select({ id: listings.id, slug: listings.slug, name: listings.name, upstreamName: listings.upstreamName, status: listings.status, claimedAt: listings.claimedAt })
    .from(listings)
    .where(and(eq(listings.submitterId, userId), isNotNull(listings.claimedAt)))
    .orderBy(desc(listings.claimedAt), desc(listings.id));
}
