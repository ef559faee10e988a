// Migration 0022's backfill: imported registry entries listed before names were stored keep the name they were
// listed under, once — a second listing of one upstream name, or one copying a local listing's name, takes a
// suffix — and every other listing keeps "<namespace>/<slug>" (no stored name).
import fs from "node:fs";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ListingSource } from "@agora-mcp/protocol";
import { listings } from "@/db/schema";
import { insertListing } from "@/lib/listings/write";
import { drivers, openTestDatabase } from "../support/databases";

const backfill = fs
  .readFileSync(new URL("../../db/migrations/0022_registry_names.sql", import.meta.url), "utf8")
  .split("--> statement-breakpoint")
  .at(-1)!;

describe.each(drivers())("migration 0022 on %s", (driver) => {
  it("names every imported registry listing uniquely, without renaming a local one", async () => {
    const conn = await openTestDatabase(driver);
    try {
      const base = { categories: [], status: "approved" as const, description: "d" };
      const imported = (slug: string, upstreamName: string, source: ListingSource = "mcp-registry") =>
        insertListing(conn.db, {
          ...base,
          name: slug,
          slug,
          serverUrl: `https://${slug}.example/mcp`,
          source,
          upstreamName,
        });
      await insertListing(conn.db, {
        ...base,
        name: "Weather Now",
        slug: "weather-now",
        serverUrl: "https://weather-now.example/mcp",
      });
      await imported("copy", "dev.agora-mcp/weather-now");
      await imported("first", "io.github.a/b");
      await imported("second", "io.github.a/b");
      await imported("discovered", "Thing", "x402-discovery");
      await conn.db.execute(sql.raw(backfill));
      const named = Object.fromEntries(
        (await conn.db.select({ slug: listings.slug, name: listings.registryName }).from(listings)).map((r) => [
          r.slug,
          r.name,
        ]),
      );
      expect(named).toEqual({
        "weather-now": null,
        copy: expect.stringMatching(/^dev\.agora-mcp\/weather-now-[0-9a-f]{8}$/),
        first: "io.github.a/b",
        second: expect.stringMatching(/^io\.github\.a\/b-[0-9a-f]{8}$/),
        discovered: null,
      });
    } finally {
      await conn.close();
    }
  });
});
