// Every sort of the catalogue's search answers the same row: the public columns (db/queries/search/columns.ts),
// each with its stored value, whether the page comes from drizzle's select, the popular order's raw statement or
// the ranked search's. Browse and text search, on PGlite and, with DATABASE_URL, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE_SORTS } from "@agora-mcp/protocol";
import { searchListings } from "@/db/queries/search";
import { fromRaw, publicColumns, type RawListingRow } from "@/db/queries/search/columns";
import { catalogueQuery } from "@/db/queries/search/terms";
import { insertListing } from "@/lib/listings/write";
import { seedSampleCatalogue } from "@/lib/sample-catalogue/seed";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";

const KEYS = Object.keys(publicColumns).sort();
const IMPORTED = "io.github.example/weather-station";

describe.each(drivers())("search sorts on %s", (driver) => {
  let conn: TestConnection;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    await seedSampleCatalogue(conn.db);
    // An imported listing whose registry name is its own, not "<namespace>/<slug>": every sort must return it.
    await insertListing(conn.db, {
      name: "Weather Station",
      description: "Readings from a weather station, imported from the registry.",
      categories: ["Data"],
      price: 0.02,
      verified: true,
      serverUrl: "https://weather-station.example.com/mcp",
      status: "approved",
      source: "mcp-registry",
      registryName: IMPORTED,
      upstreamName: IMPORTED,
    });
  }, 120_000);
  afterAll(async () => conn?.close());

  describe.each([
    ["browse", ""],
    ["text search", "weather"],
  ])("%s", (_, q) => {
    it.each(CATALOGUE_SORTS)("sort %s answers every public column, with its value", async (sort) => {
      const { rows } = await searchListings(
        conn.db,
        catalogueQuery({ q, category: "", price: "all", source: "all", sort }),
        { limit: 100, offset: 0 },
      );
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        const present = Object.entries(row)
          .filter(([, value]) => value !== undefined)
          .map(([key]) => key)
          .sort();
        expect(present).toEqual(KEYS);
        expect(row.createdAt).toBeInstanceOf(Date);
        expect(row.price === null || typeof row.price === "number").toBe(true);
      }
      const imported = rows.find((r) => r.name === "Weather Station");
      expect(imported?.registryName).toBe(IMPORTED);
      expect(imported?.price).toBe(0.02);
    });
  });
});

describe("fromRaw", () => {
  it("refuses a raw row that lacks a public column (a statement that drifted from the list)", () => {
    const raw = {
      id: "x",
      slug: "x",
      name: "x",
      description: "",
      categories: [],
      price: "1.5",
      verified: false,
      server_url: "u",
      website_url: null,
      created_at: "2026-01-01T00:00:00Z",
      updated_at: "2026-01-01T00:00:00Z",
      source: "agora",
      upstream_name: null,
      upstream_url: null,
      upstream_status: null,
      registry_name: null,
    } satisfies RawListingRow;
    expect(fromRaw(raw)).toMatchObject({
      serverUrl: "u",
      price: 1.5,
      registryName: null,
      createdAt: new Date("2026-01-01T00:00:00Z"),
    });
    const { registry_name: _dropped, ...drifted } = raw;
    expect(() => fromRaw(drifted as unknown as RawListingRow)).toThrow("registry_name");
  });
});
