// Claiming imported listings: the one-time tokens a domain's owner publishes, and the write that hands a
// namespace's unclaimed imported listings to the account that proved it.
import { and, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { ListingSource } from "@agora-mcp/protocol";
import { claimTokens, listings, type ListingRow } from "../schema";
import type { Db } from "../types";

type ClaimTokenRow = typeof claimTokens.$inferSelect;

export async function insertClaimToken(
  db: Db,
  row: { userId: string; namespace: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
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
export const CLAIMABLE_SOURCE = "mcp-registry" satisfies ListingSource;

/** An imported listing a claim may hand over: its name upstream, its server and its current claimant. */
export type ClaimableRow = Pick<ListingRow, "id" | "serverUrl" | "submitterId"> & { upstreamName: string };

const claimableColumns = {
  id: listings.id,
  upstreamName: sql<string>`${listings.upstreamName}`,
  serverUrl: listings.serverUrl,
  submitterId: listings.submitterId,
};

/**
 * The unclaimed imported listings named in these namespaces (lib/claims keeps those whose namespace covers their
 * server's host).
 */
// An imported listing of a source whose listings can be claimed (it carries its upstream name).
const importedClaimable = and(isNotNull(listings.upstreamName), eq(listings.source, CLAIMABLE_SOURCE));

export async function unclaimedInNamespaces(db: Db, namespaces: string[]): Promise<ClaimableRow[]> {
  if (namespaces.length === 0) return [];
  return db
    .select(claimableColumns)
    .from(listings)
    .where(
      and(
        importedClaimable,
        isNull(listings.submitterId),
        inArray(
          namespaceOf,
          namespaces.map((n) => n.toLowerCase()),
        ),
        asciiNamespace,
      ),
    );
}

/** The imported listings whose server is at `origin` (scheme, host and port), claimed or not. */
export async function importedAtOrigin(db: Db, origin: string): Promise<ClaimableRow[]> {
  return db
    .select(claimableColumns)
    .from(listings)
    .where(
      and(
        importedClaimable,
        sql`(${listings.serverUrl} = ${origin} or left(${listings.serverUrl}, ${origin.length + 1}) in (${`${origin}/`}, ${`${origin}?`}))`,
      ),
    );
}

/**
 * These imported listings become `userId`'s; returns the ids it took. Only unclaimed ones, unless `takeOver` (the
 * owner of a server's host takes its listings from whoever claimed them by a name that does not cover the host).
 */
export async function claimListings(
  db: Db,
  userId: string,
  ids: string[],
  { takeOver = false } = {},
): Promise<string[]> {
  if (ids.length === 0) return [];
  const claimed = await db
    .update(listings)
    .set({ submitterId: userId, claimedAt: sql`now()`, updatedAt: sql`now()` })
    .where(
      and(
        inArray(listings.id, ids),
        eq(listings.source, CLAIMABLE_SOURCE),
        takeOver ? sql`${listings.submitterId} is distinct from ${userId}::uuid` : isNull(listings.submitterId),
      ),
    )
    .returning({ id: listings.id });
  return claimed.map((c) => c.id);
}

export type ClaimTarget = Pick<
  ListingRow,
  "id" | "slug" | "name" | "status" | "source" | "upstreamName" | "serverUrl" | "submitterId" | "claimedAt"
>;

/** A listing this account claimed, as the account page lists it. */
export type ClaimedListing = Pick<ListingRow, "id" | "slug" | "name" | "upstreamName" | "status" | "claimedAt">;

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
      serverUrl: listings.serverUrl,
      submitterId: listings.submitterId,
      claimedAt: listings.claimedAt,
    })
    .from(listings)
    .where(eq(listings.id, listingId));
  return row ?? null;
}

/** The listings this account claimed, newest claim first (the account page). */
export async function listClaimedListings(db: Db, userId: string): Promise<ClaimedListing[]> {
  return db
    .select({
      id: listings.id,
      slug: listings.slug,
      name: listings.name,
      upstreamName: listings.upstreamName,
      status: listings.status,
      claimedAt: listings.claimedAt,
    })
    .from(listings)
    .where(and(eq(listings.submitterId, userId), isNotNull(listings.claimedAt)))
    .orderBy(desc(listings.claimedAt), desc(listings.id));
}
