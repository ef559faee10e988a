// Cache tags revalidated by any app instance: recorded, and announced on a PostgreSQL channel so the other
// instances drop what they cached under them at once (lib/cache/shared-tags.ts).
import { gt, sql } from "drizzle-orm";
import { rowsOf } from "../rows";
import { cacheTags } from "../schema";
import type { Db } from "../types";

export const CACHE_TAG_CHANNEL = "agora_cache_tags";

export type TagRevalidation = { from: string; tags: string[]; expireSeconds?: number };

/** Records the tags and notifies every listening instance, in one transaction (the notice goes out on commit). */
export async function announceTagRevalidation(db: Db, revalidation: TagRevalidation): Promise<void> {
  if (revalidation.tags.length === 0) return;
  await db.transaction(async (tx) => {
    await tx
      .insert(cacheTags)
      .values(revalidation.tags.map((tag) => ({ tag })))
      .onConflictDoUpdate({ target: cacheTags.tag, set: { revalidatedAt: sql`now()` } });
    await tx.execute(sql`select pg_notify(${CACHE_TAG_CHANNEL}, ${JSON.stringify(revalidation)})`);
  });
}

/** Tags revalidated after `since` (the database's clock), for an instance that was not listening then. */
export async function tagsRevalidatedSince(db: Db, since: Date): Promise<{ tag: string; revalidatedAt: Date }[]> {
  return db.select().from(cacheTags).where(gt(cacheTags.revalidatedAt, since));
}

/** The database's clock, so an instance's catch-up never depends on its own. */
export async function databaseNow(db: Db): Promise<Date> {
  const [row] = rowsOf<{ now: string | Date }>(await db.execute(sql`select now() as now`));
  return new Date(row!.now);
}
