import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { rowsOf } from "@/db/rows";
import { listings } from "@/db/schema";
import { seedSampleCatalogue, seedSynthetic } from "@/lib/sample-catalogue/seed";
import { sampleCatalogue } from "@/lib/sample-catalogue/catalogue";
import { migratePglite, migratePostgres } from "@/db/migrate";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";

describe.each(drivers())("database on %s", (driver) => {
  let conn: TestConnection;
  beforeAll(async () => {
    conn = await openTestDatabase(driver);
  });
  afterAll(async () => conn?.close());

  it("applies migrations idempotently", async () => {
    // A second run is a no-op rather than an error.
    if (conn.url) {
      await expect(migratePostgres(conn.url)).resolves.toBeUndefined();
    } else {
      const client = (conn.db as unknown as { $client: import("@electric-sql/pglite").PGlite }).$client;
      await expect(migratePglite(client)).resolves.toBeUndefined();
    }
  });

  it("seeds the sample catalogue once, with approved, pending and rejected listings", async () => {
    const first = await seedSampleCatalogue(conn.db);
    expect(first).toBe(sampleCatalogue.length + 2);
    expect(await seedSampleCatalogue(conn.db)).toBe(0);
    const approved = await conn.db.select().from(listings).where(eq(listings.status, "approved"));
    expect(approved).toHaveLength(sampleCatalogue.length);
    expect(new Set(approved.flatMap((l) => l.categories)).size).toBeGreaterThanOrEqual(7);
    expect(approved.some((l) => !l.price)).toBe(true);
    // No badge without a probe behind it: the seed itself verifies nothing (see sample-catalogue.test.ts).
    expect(approved.filter((l) => l.verified)).toEqual([]);
    const recent = approved.filter((l) => Date.now() - l.createdAt.getTime() < 30 * 86_400_000);
    expect(recent.length).toBeGreaterThan(3);
    const scraper = approved.find((l) => l.slug === "ai-powered-web-scraper");
    expect(scraper?.searchText).toContain("ai-powered web scraper");
    expect(scraper?.price).toBe(0.02);
  });

  it("generates synthetic listings for benchmarks", async () => {
    const inserted = await seedSynthetic(conn.db, 1500);
    expect(inserted).toBe(1500);
    const [row] = await conn.db.select({ n: sql<number>`count(*)::int` }).from(listings).where(sql`${listings.slug} like 'synthetic-%'`);
    expect(row?.n).toBe(1500);
  });

  it("uses the trigram extension for substring search", async () => {
    const result = await conn.db.execute(sql`select similarity('scraper', 'web scraper') > 0 as ok`);
    const rows = rowsOf<{ ok: boolean }>(result);
    expect(rows[0]?.ok).toBe(true);
  });
});
