import { sql } from "drizzle-orm";
import { rowsOf } from "../rows";
import type { Db } from "../types";

/** Counts `weight` hits (default one) in a fixed window, atomically across app instances; returns the count and window end. */
export async function countHit(
  db: Db,
  key: string,
  windowSeconds: number,
  weight = 1,
): Promise<{ count: number; resetAt: Date }> {
  const result = await db.execute<{ count: number; reset_at: string | Date }>(sql`
    insert into rate_limits (key, count, reset_at)
    values (${key}, ${weight}::int, now() + make_interval(secs => ${windowSeconds}))
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= now() then ${weight}::int else rate_limits.count + ${weight}::int end,
      reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
    returning count, reset_at`);
  const rows = rowsOf<{ count: number; reset_at: string | Date }>(result);
  const row = rows[0]!;
  return { count: Number(row.count), resetAt: new Date(row.reset_at) };
}

/** The hits counted so far in the current window, without counting one. */
export async function peekHits(db: Db, key: string): Promise<{ count: number; resetAt: Date } | undefined> {
  const result = await db.execute<{ count: number; reset_at: string | Date }>(sql`
    select count, reset_at from rate_limits where key = ${key} and reset_at > now()`);
  const rows = rowsOf<{ count: number; reset_at: string | Date }>(result);
  const row = rows[0];
  return row ? { count: Number(row.count), resetAt: new Date(row.reset_at) } : undefined;
}

/** Deletes rows whose window ended, at most `batch` at a time; returns how many went. */
export async function purgeExpiredLimits(db: Db, batch = 5000): Promise<number> {
  const result = await db.execute<{ key: string }>(sql`
    delete from rate_limits where key in (
      select key from rate_limits where reset_at <= now() order by reset_at limit ${batch}
    ) returning key`);
  const rows = rowsOf(result);
  return rows.length;
}
