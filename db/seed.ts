// Sample catalogue (hand-written) and synthetic catalogues (for benchmarks).
import { sql } from "drizzle-orm";
import { listings } from "./schema";
import { sampleCatalogue } from "./sample-catalogue";
import { SAMPLE_REFERENCE_SERVER_URL, sampleReferenceUrl } from "./sample-probes";
import { toListingRow } from "./queries/listing-write";
import type { Db } from "./types";

const DAY = 24 * 60 * 60 * 1000;

/**
 * Inserts the hand-written listings (approved, none verified) plus two awaiting review. Skips rows already
 * present. Reference listings point at `referenceServerUrl` (the reference server's default address).
 */
export async function seedSampleCatalogue(db: Db, now = new Date(), referenceServerUrl = SAMPLE_REFERENCE_SERVER_URL): Promise<number> {
  const rows = sampleCatalogue.map((s) =>
    toListingRow({
      name: s.name,
      description: s.description,
      categories: s.categories,
      price: s.price,
      serverUrl: s.reference ? sampleReferenceUrl(referenceServerUrl, s.name) : `https://${s.host}/mcp`,
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
      serverUrl: "https://pending.example.com/mcp",
      status: "pending",
    }),
    toListingRow({
      name: "Rejected Example",
      description: "A submission that was rejected in review. It must never appear publicly.",
      categories: ["Data"],
      price: null,
      serverUrl: "https://rejected.example.com/mcp",
      status: "rejected",
      rejectionReason: "The server did not answer MCP requests.",
    }),
  );
  const inserted = await db.insert(listings).values(rows).onConflictDoNothing().returning({ id: listings.id });
  return inserted.length;
}

const WORDS = {
  adjective: ["Fast", "Smart", "Secure", "Open", "Deep", "Instant", "Global", "Private", "Tiny", "Quantum", "Neural", "Live"],
  noun: ["Scraper", "Oracle", "Search", "Vision", "Ledger", "Translator", "Analyzer", "Router", "Indexer", "Notary", "Summarizer", "Feed"],
  domain: ["Weather", "Token", "Invoice", "Patent", "Music", "Recipe", "Crypto", "Legal", "Sports", "Health", "Retail", "Energy"],
  category: ["AI", "Web3", "Finance", "Data", "Search", "Images", "Dev Tools", "Security", "Productivity", "Marketing", "Travel", "Audio"],
};
const PRICES = [null, 0, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Deterministic synthetic listings for load tests; inserted in batches. */
export async function seedSynthetic(db: Db, count: number, now = new Date()): Promise<number> {
  const batch = 1000;
  let done = 0;
  for (let start = 0; start < count; start += batch) {
    const rows = [];
    for (let i = start; i < Math.min(count, start + batch); i++) {
      const pick = <T,>(list: T[], salt: number) => list[(i * 7919 + salt * 104729) % list.length] as T;
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
