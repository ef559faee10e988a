// Sample catalogue (hand-written) and synthetic catalogues (for benchmarks).
import { sql } from "drizzle-orm";
import { listings } from "@/db/schema";
import { sampleCatalogue } from "./catalogue";
import { SAMPLE_REFERENCE_SERVER_URL, sampleReferenceUrl } from "./probes";
import { sampleServerUrl } from "./identity";
import { toListingRow } from "@/lib/listings/write";
import { rowsOf } from "@/db/rows";
import type { Db } from "@/db/types";

const DAY = 24 * 60 * 60 * 1000;

/**
 * Inserts the hand-written listings (approved, none verified) plus two awaiting review. Skips rows already
 * present. Reference listings point at `referenceServerUrl` (the reference server's default address).
 */
export async function seedSampleCatalogue(
  db: Db,
  now = new Date(),
  referenceServerUrl = SAMPLE_REFERENCE_SERVER_URL,
): Promise<number> {
  const rows = sampleCatalogue.map((s) =>
    toListingRow({
      name: s.name,
      description: s.description,
      categories: s.categories,
      price: s.price,
      serverUrl: s.reference ? sampleReferenceUrl(referenceServerUrl, s.name) : sampleServerUrl(s),
      websiteUrl: s.website ?? null,
      status: "approved",
      createdAt: new Date(now.getTime() - s.ageDays * DAY),
      updatedAt: new Date(now.getTime() - s.ageDays * DAY),
    }),
  );
  rows.push(
    toListingRow({
      name: "Pending Review Example",
      description: "A submitted server that has not been reviewed yet. It must never appear publicly.",
      categories: ["AI"],
      price: 0.02,
      serverUrl: "https://pending.sample.example/mcp",
      status: "pending",
    }),
    toListingRow({
      name: "Rejected Example",
      description: "A submission that was rejected in review. It must never appear publicly.",
      categories: ["Data"],
      price: null,
      serverUrl: "https://rejected.sample.example/mcp",
      status: "rejected",
      rejectionReason: "The server did not answer MCP requests.",
    }),
  );
  const inserted = await db.insert(listings).values(rows).onConflictDoNothing().returning({ id: listings.id });
  return inserted.length;
}

const WORDS = {
  adjective: [
    "Fast",
    "Smart",
    "Secure",
    "Open",
    "Deep",
    "Instant",
    "Global",
    "Private",
    "Tiny",
    "Quantum",
    "Neural",
    "Live",
  ],
  noun: [
    "Scraper",
    "Oracle",
    "Search",
    "Vision",
    "Ledger",
    "Translator",
    "Analyzer",
    "Router",
    "Indexer",
    "Notary",
    "Summarizer",
    "Feed",
  ],
  domain: [
    "Weather",
    "Token",
    "Invoice",
    "Patent",
    "Music",
    "Recipe",
    "Crypto",
    "Legal",
    "Sports",
    "Health",
    "Retail",
    "Energy",
  ],
  category: [
    "AI",
    "Web3",
    "Finance",
    "Data",
    "Search",
    "Images",
    "Dev Tools",
    "Security",
    "Productivity",
    "Marketing",
    "Travel",
    "Audio",
  ],
};
const PRICES = [null, 0, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Deterministic synthetic listings for load tests; inserted in batches. */
export async function seedSynthetic(db: Db, count: number, now = new Date()): Promise<number> {
  const batch = 1000;
  let done = 0;
  for (let start = 0; start < count; start += batch) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + batch); i++) {
      const pick = <T>(list: T[], salt: number) => list[(i * 7919 + salt * 104729) % list.length] as T;
      const name = `${pick(WORDS.adjective, 1)} ${pick(WORDS.domain, 2)} ${pick(WORDS.noun, 3)} ${i}`;
      const cats = [pick(WORDS.category, 4), pick(WORDS.category, 5)];
      rows.push(
        toListingRow({
          name,
          slug: `synthetic-${i}`,
          description: `${name} is a synthetic MonetizedMCP server used for benchmarks. It offers ${pick(WORDS.noun, 6).toLowerCase()} tools for ${pick(WORDS.domain, 7).toLowerCase()} data.`,
          categories: cats,
          price: pick(PRICES, 8),
          verified: i % 5 === 0,
          serverUrl: `https://synthetic-${i}.bench.invalid/mcp`,
          status: i % 50 === 49 ? "pending" : "approved",
          createdAt: new Date(now.getTime() - ((i * 37) % 400) * DAY - i * 1000),
        }),
      );
    }
    const inserted = await db.insert(listings).values(rows).onConflictDoNothing().returning({ id: listings.id });
    done += inserted.length;
  }
  await db.execute(sql`analyze listings`);
  return done;
}

const sqlArray = (list: readonly (string | number | null)[]) =>
  sql.raw(
    `(array[${list.map((v) => (v === null ? "null" : typeof v === "number" ? String(v) : `'${v.replace(/'/g, "''")}'`)).join(", ")}])`,
  );

/**
 * The same listings as seedSynthetic, generated inside the database (generate_series, one INSERT per 100,000
 * rows): a million in minutes rather than hours. The listings indexes are dropped first and rebuilt after, which
 * is several times faster than maintaining trigram indexes row by row; meant for a fresh benchmark database.
 */
export async function seedSyntheticBulk(
  db: Db,
  count: number,
  now = new Date(),
  onProgress?: (done: number) => void,
): Promise<number> {
  const defs = rowsOf<Record<string, string>>(
    await db.execute(
      sql`select indexname, indexdef from pg_indexes where tablename = 'listings' and indexname not in ('listings_pkey', 'listings_slug_key', 'listings_server_url_key')`,
    ),
  );
  for (const d of defs) await db.execute(sql.raw(`drop index if exists "${d.indexname}"`));
  // The vocabulary trigger would look up ~20 words per row; one set-based pass after the inserts does the same.
  await db.execute(sql`alter table listings disable trigger listings_search_words`);
  const pick = (list: readonly unknown[], salt: number) =>
    sql.raw(`((i * 7919 + ${salt} * 104729) % ${list.length}) + 1`);
  const step = 100_000;
  for (let start = 0; start < count; start += step) {
    const end = Math.min(count, start + step) - 1;
    await db.execute(sql`
      insert into listings (slug, name, description, categories, price, verified, server_url, status, search_text, created_at, updated_at)
      select 'synthetic-' || i, name, description, categories, price, i % 5 = 0, 'https://synthetic-' || i || '.bench.invalid/mcp',
             (case when i % 50 = 49 then 'pending' else 'approved' end)::review_status,
             lower(name || chr(10) || description || chr(10) || array_to_string(categories, ', ')), created_at, created_at
      from (
        select i, name,
               name || ' is a synthetic MonetizedMCP server used for benchmarks. It offers ' || lower(${sqlArray(WORDS.noun)}[${pick(WORDS.noun, 6)}]) ||
                 ' tools for ' || lower(${sqlArray(WORDS.domain)}[${pick(WORDS.domain, 7)}]) || ' data.' as description,
               array[${sqlArray(WORDS.category)}[${pick(WORDS.category, 4)}], ${sqlArray(WORDS.category)}[${pick(WORDS.category, 5)}]] as categories,
               (${sqlArray(PRICES)}::numeric[])[${pick(PRICES, 8)}] as price,
               ${now.toISOString()}::timestamptz - make_interval(days => ((i * 37) % 400)::int, secs => i) as created_at
        from (
          select i::bigint as i,
                 ${sqlArray(WORDS.adjective)}[${pick(WORDS.adjective, 1)}] || ' ' || ${sqlArray(WORDS.domain)}[${pick(WORDS.domain, 2)}] || ' ' ||
                 ${sqlArray(WORDS.noun)}[${pick(WORDS.noun, 3)}] || ' ' || i as name
          from generate_series(${start}::bigint, ${end}::bigint) as i
        ) named
      ) generated
      on conflict do nothing`);
    onProgress?.(end + 1);
  }
  await db.execute(sql`alter table listings enable trigger listings_search_words`);
  await db.execute(sql`
    insert into search_words (word)
    select distinct w from listings, regexp_split_to_table(search_text, '[^[:alnum:]_]+') as w
    where length(w) between 3 and 40 and w !~ '^[0-9]+$'
    on conflict do nothing`);
  for (const d of defs) await db.execute(sql.raw(d.indexdef!));
  await db.execute(sql`analyze listings`);
  await db.execute(sql`analyze search_words`);
  return count;
}
