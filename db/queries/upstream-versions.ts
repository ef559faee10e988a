// Every version of an upstream entry ingestion has seen, so /v0.1/servers/{name}/versions lists them all, as the
// registry it came from did. Written once per (source, name, version): a version seen again writes nothing.
import { desc, sql } from "drizzle-orm";
import { ingestedServers, upstreamVersions, type UpstreamServerJson } from "../schema";
import type { Db } from "../types";

type UpstreamVersion = {
  sourceKey: string;
  upstreamName: string;
  version: string;
  publishedAt: Date | null;
  server: UpstreamServerJson;
};

/** Rows per statement (a page of 1,000 entries, all versions of one name, stays far inside the parameter limit). */
const BATCH = 500;

export async function recordUpstreamVersions(db: Db, versions: UpstreamVersion[]): Promise<void> {
  for (let start = 0; start < versions.length; start += BATCH) {
    const batch = versions.slice(start, start + BATCH);
    await db.insert(upstreamVersions).values(batch).onConflictDoNothing();
  }
}

/** The most versions …/versions lists (the newest first): a name with thousands of versions answers in bounded size. */
const MAX_LISTED_VERSIONS = 1000;

/** The versions seen of the upstream entries a listing was imported from, newest published first. */
export async function versionsOfListing(
  db: Db,
  listingId: string,
  limit = MAX_LISTED_VERSIONS,
): Promise<UpstreamVersion[]> {
  return db
    .select({
      sourceKey: upstreamVersions.sourceKey,
      upstreamName: upstreamVersions.upstreamName,
      version: upstreamVersions.version,
      publishedAt: upstreamVersions.publishedAt,
      server: upstreamVersions.server,
    })
    .from(upstreamVersions)
    .where(
      sql`(${upstreamVersions.sourceKey}, ${upstreamVersions.upstreamName}) in (select ${ingestedServers.sourceKey}, ${ingestedServers.upstreamName} from ${ingestedServers} where ${ingestedServers.listingId} = ${listingId})`,
    )
    .orderBy(
      sql`${upstreamVersions.publishedAt} desc nulls last`,
      desc(upstreamVersions.firstSeenAt),
      upstreamVersions.version,
    )
    .limit(limit);
}
