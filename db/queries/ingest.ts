// Ingestion's store: each source's progress and the remote servers the sources list (candidates).
import { and, asc, eq, lte, ne, sql } from "drizzle-orm";
import { ingestedServers, ingestSources, listings } from "../schema";
import type { Db } from "../types";

export type SourceState = typeof ingestSources.$inferSelect;
export type Candidate = typeof ingestedServers.$inferSelect;
export type CandidateInput = Omit<typeof ingestedServers.$inferInsert, "lastCheckedAt" | "nextCheckAt" | "outcome" | "listingId">;

export async function sourceState(db: Db, key: string): Promise<SourceState> {
  await db.insert(ingestSources).values({ key }).onConflictDoNothing();
  const [row] = await db.select().from(ingestSources).where(eq(ingestSources.key, key));
  return row!;
}

/** Marks a run started (or resumed) and remembers the page it is on, so a crash resumes there. */
export async function saveProgress(db: Db, key: string, progress: { cursor: string | null; runStartedAt?: Date }): Promise<void> {
  await db.update(ingestSources).set(progress).where(eq(ingestSources.key, key));
}

export async function finishRun(db: Db, key: string, run: { highWaterMark: Date | null; counts: Record<string, number>; errors: string[]; completed: boolean }) {
  await db
    .update(ingestSources)
    .set({
      ...(run.completed ? { cursor: null, runStartedAt: null, highWaterMark: run.highWaterMark } : {}),
      lastRunAt: sql`now()`,
      lastCounts: run.counts,
      lastErrors: run.errors.slice(0, 20),
    })
    .where(eq(ingestSources.key, key));
}

const COMPARED = ["sourceKey", "upstreamName", "version", "title", "description", "repositoryUrl", "websiteUrl", "status"] as const;

/**
 * Inserts or updates a candidate, writing only when something upstream changed: a second run over the same
 * pages writes nothing. A changed entry is due for a check again.
 */
export async function upsertCandidate(db: Db, input: CandidateInput): Promise<"inserted" | "updated" | "unchanged"> {
  const [current] = await db.select().from(ingestedServers).where(eq(ingestedServers.remoteUrl, input.remoteUrl));
  if (!current) {
    const inserted = await db.insert(ingestedServers).values(input).onConflictDoNothing().returning({ url: ingestedServers.remoteUrl });
    return inserted.length ? "inserted" : "unchanged";
  }
  if (COMPARED.every((k) => (current[k] ?? null) === (input[k] ?? null))) return "unchanged";
  await db
    .update(ingestedServers)
    .set({ ...input, nextCheckAt: sql`now()` })
    .where(eq(ingestedServers.remoteUrl, input.remoteUrl));
  return "updated";
}

/** Candidates due for a check, never-checked first; deleted ones are never checked. */
export async function dueCandidates(db: Db, now: Date, limit: number): Promise<Candidate[]> {
  return db
    .select()
    .from(ingestedServers)
    .where(and(lte(ingestedServers.nextCheckAt, now), ne(ingestedServers.status, "deleted")))
    .orderBy(sql`${ingestedServers.lastCheckedAt} asc nulls first`, asc(ingestedServers.remoteUrl))
    .limit(limit);
}

export async function recordCandidateCheck(db: Db, remoteUrl: string, check: { outcome: string; nextCheckAt: Date; listingId?: string | null }) {
  await db
    .update(ingestedServers)
    .set({ outcome: check.outcome, lastCheckedAt: sql`now()`, nextCheckAt: check.nextCheckAt, ...(check.listingId !== undefined ? { listingId: check.listingId } : {}) })
    .where(eq(ingestedServers.remoteUrl, remoteUrl));
}

/** A listing already at this server URL (submitted here, or imported before). */
export async function listingAtUrl(db: Db, serverUrl: string): Promise<{ id: string; revision: number } | null> {
  const [row] = await db.select({ id: listings.id, revision: listings.revision }).from(listings).where(eq(listings.serverUrl, serverUrl));
  return row ?? null;
}

/** An upstream entry was deleted: its imported listing leaves every surface (kept, so its history stays). */
export async function hideImportedListing(db: Db, remoteUrl: string): Promise<boolean> {
  const hidden = await db
    .update(listings)
    .set({ status: "rejected", rejectionReason: "Deleted from the MCP Registry.", verified: false, updatedAt: sql`now()` })
    .where(and(eq(listings.serverUrl, remoteUrl), ne(listings.source, "agora"), ne(listings.status, "rejected")))
    .returning({ id: listings.id });
  return hidden.length > 0;
}

/** Where a listing came from: submitted here, or found upstream (its name and entry there). */
export async function listingProvenance(db: Db, listingId: string): Promise<{ source: string; upstreamName: string | null; upstreamUrl: string | null } | null> {
  const [row] = await db.select({ source: listings.source, upstreamName: listings.upstreamName, upstreamUrl: listings.upstreamUrl }).from(listings).where(eq(listings.id, listingId));
  return row ?? null;
}
