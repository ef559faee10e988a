import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { rowsOf } from "@/db/rows";
import { listings } from "@/db/schema";
import { seedSampleCatalogue, seedSynthetic } from "@/lib/sample-catalogue/seed";
import { sampleCatalogue } from "@/lib/sample-catalogue/catalogue";
import { migratePglite, migratePostgres } from "@/db/migrate";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { openPglite, pgliteStartParams } from "@/db/connect";

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
    const [row] = await conn.db
      .select({ n: sql<number>`count(*)::int` })
      .from(listings)
      .where(sql`${listings.slug} like 'synthetic-%'`);
    expect(row?.n).toBe(1500);
  });

  it("uses the trigram extension for substring search", async () => {
    const result = await conn.db.execute(sql`select similarity('scraper', 'web scraper') > 0 as ok`);
    const rows = rowsOf<{ ok: boolean }>(result);
    expect(rows[0]?.ok).toBe(true);
  });
});

// The embedded database's buffer cache is resident in the app's own process from the first second (bench/memory.ts).
describe("PGlite's memory bound", () => {
  it("opens with a 16 MB buffer cache by default and the size it is given otherwise, keeping PGlite's own parameters", async () => {
    expect(pgliteStartParams(["--single", "-F"], {})).toEqual(["--single", "-F", "-c", "shared_buffers=16MB"]);
    expect(() => pgliteStartParams([], { sharedBuffersMb: 0 })).toThrow(/sharedBuffersMb/);
    for (const [options, expected] of [
      [{}, "16MB"],
      [{ sharedBuffersMb: 8 }, "8MB"],
    ] as const) {
      const conn = await openPglite(null, options);
      try {
        const show = async (name: string) =>
          Object.values(rowsOf<Record<string, string>>(await conn.db.execute(sql.raw(`show ${name}`)))[0]!)[0];
        expect(await show("shared_buffers")).toBe(expected);
        // PGlite's defaults still apply (startParams replaces them, so db/connect.ts repeats them).
        expect(await show("search_path")).toBe("public");
        expect(await show("max_parallel_workers_per_gather")).toBe("0");
      } finally {
        await conn.close();
      }
    }
  });
});
