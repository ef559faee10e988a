// Bad input for detail pages: a crawler asking for 10,000 listings that do not exist, slugs in mixed
// case or percent-encoded, ids in any case. The page's lookup (lib/listings/lookup.ts, behind getListing) answers each
// with one indexed read in bounded time, finds nothing it should not, and answers the same on PostgreSQL and PGlite.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { rowsOf } from "@/db/rows";
import { findListingSlug, findListingView } from "@/lib/listings/lookup";
import { seedSampleCatalogue } from "@/lib/sample-catalogue/seed";
import { drivers, openTestDatabase, type Driver, type TestConnection } from "../support/databases";

// Generous for a loaded 2-core machine: 10,000 indexed misses; a scan per miss would be far past it on any catalogue.
const BOUND_MS = 60_000;

const KEYS = (id: string): [string, string][] => [
  ["the slug", "weather-now"],
  ["mixed case", "Weather-Now"],
  ["upper case", "WEATHER-NOW"],
  ["percent-encoded (not decoded by the lookup)", "weather%2Dnow"],
  ["with a query string", "weather-now?utm_source=x"],
  ["with a trailing slash", "weather-now/"],
  ["the id", id],
  ["the id in upper case", id.toUpperCase()],
  ["a NUL", "weather\u0000now"],
  ["a lone surrogate", "weather\ud800"],
  ["201 characters", "w".repeat(201)],
];

describe("detail pages with bad input", () => {
  const conns = new Map<Driver, TestConnection>();
  const answers = new Map<Driver, Map<string, string | null>>();

  beforeAll(async () => {
    for (const driver of drivers()) {
      const conn = await openTestDatabase(driver);
      await seedSampleCatalogue(conn.db);
      conns.set(driver, conn);
      answers.set(driver, new Map());
    }
  }, 240_000);
  afterAll(async () => {
    for (const conn of conns.values()) await conn.close();
  });

  describe.each(drivers())("on %s", (driver) => {
    it("10,000 listings that do not exist: nothing found, in bounded time", async () => {
      const { db } = conns.get(driver)!;
      const started = performance.now();
      let found = 0;
      for (let i = 0; i < 10_000; i++) if (await findListingView(db, `no-such-listing-${i}`)) found++;
      expect(found).toBe(0);
      expect(performance.now() - started).toBeLessThan(BOUND_MS);
    }, 120_000);

    it("each spelling of a key finds the listing only as its slug (ids only redirect)", async () => {
      const { db } = conns.get(driver)!;
      // Ids differ between the two databases; what each spelling finds must not.
      const id = rowsOf<{ id: string }>(
        await db.execute(sql`select id::text as id from listings where slug = 'weather-now'`),
      )[0]!.id;
      for (const [label, key] of KEYS(id)) {
        const view = await findListingView(db, key);
        answers.get(driver)!.set(label, view?.slug ?? null);
      }
      const seen = Object.fromEntries(answers.get(driver)!);
      expect(seen["the slug"]).toBe("weather-now");
      for (const label of [
        "mixed case",
        "upper case",
        "percent-encoded (not decoded by the lookup)",
        "with a query string",
        "with a trailing slash",
        "a NUL",
        "a lone surrogate",
        "201 characters",
      ]) {
        expect(seen[label], label).toBeNull();
      }
      // The page redirects an id (in any case) to the slug's address: one page per listing.
      expect(await findListingSlug(db, id)).toBe("weather-now");
      expect(await findListingSlug(db, id.toUpperCase())).toBe("weather-now");
      expect(await findListingSlug(db, "00000000-0000-4000-8000-000000000000")).toBeNull();
    });
  });

  it("the same answers on every database", () => {
    const [first, ...rest] = [...answers.values()].map((m) => Object.fromEntries(m));
    for (const other of rest) expect(other).toEqual(first);
  });
});
