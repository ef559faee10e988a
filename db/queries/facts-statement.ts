// Facts about listings (latest check, uptime, drift, sales, test purchase, reviews), each a scalar subquery of the
// listing's id, read for a page of listings in ONE statement. Every surface shows a page of listings with its facts;
// as separate queries that was seven statements a page, and on a loaded two-core machine a statement's round
// trip (the write, the database process waking, the answer) costs as much as a small query itself
// (bench/RESULTS.md). Each fact keeps its one home in its own module (probes.ts, sales.ts, …).
import { sql, type SQL } from "drizzle-orm";
import { rowsOf } from "../rows";
import type { Db } from "../types";

/** One fact: a subquery returning jsonb (or null) for the listing whose id is `listingId`, and how to read it. */
export type ListingFact<T> = {
  select: (listingId: SQL) => SQL;
  /** The fact from the subquery's JSON; undefined when the listing has none (a null subquery never reaches it). */
  decode: (json: unknown) => T | undefined;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type FactValues<F extends Record<string, ListingFact<unknown>>> = {
  [K in keyof F]: F[K] extends ListingFact<infer T> ? T | undefined : never;
};

/** The facts of each listing in `listingIds`, keyed by listing id (every id present, each fact undefined when absent). */
export async function readListingFacts<F extends Record<string, ListingFact<unknown>>>(
  db: Db,
  listingIds: string[],
  facts: F,
): Promise<Map<string, FactValues<F>>> {
  const ids = [...new Set(listingIds)];
  // The ids travel as one array literal: anything but a uuid would be a malformed literal, or worse.
  if (ids.some((v) => !UUID.test(v))) throw new Error("readListingFacts: listing ids must be uuids");
  const out = new Map<string, FactValues<F>>();
  if (ids.length === 0) return out;
  const names = Object.keys(facts);
  const id = sql.raw("i.id");
  // jsonb as text: both drivers hand back the same string, parsed here once.
  const columns = names.map((name, n) => sql`(${facts[name]!.select(id)})::text as ${sql.identifier(`f${n}`)}`);
  const result = await db.execute(
    sql`select i.id::text as id, ${sql.join(columns, sql`, `)} from unnest(${`{${ids.join(",")}}`}::uuid[]) as i(id)`,
  );
  for (const row of rowsOf<Record<string, string | null>>(result)) {
    const values: Record<string, unknown> = {};
    names.forEach((name, n) => {
      const text = row[`f${n}`];
      values[name] = text === null || text === undefined ? undefined : facts[name]!.decode(JSON.parse(text));
    });
    out.set(row.id!, values as FactValues<F>);
  }
  return out;
}
