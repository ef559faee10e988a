// The sample catalogue claims 'Verified' only where a real probe earned it: its reference listings point at
// a reference server on loopback; with the server up they are verified beside unverified listings, without it none is.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeSampleListings } from "@/lib/sample-catalogue/probes";
import { sampleCatalogue } from "@/lib/sample-catalogue/catalogue";
import { listings } from "@/db/schema";
import { seedSampleCatalogue } from "@/lib/sample-catalogue/seed";
import { startReferenceServer, type ReferenceServer } from "@/examples/monetized-server";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";

const referenceNames = sampleCatalogue.filter((s) => s.reference).map((s) => s.name);

describe.each(drivers())("sample catalogue verification on %s", (driver) => {
  let conn: TestConnection;
  let reference: ReferenceServer;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    reference = await startReferenceServer({ port: 0 });
  });
  afterAll(async () => {
    await reference?.close();
    await conn?.close();
  });

  const verifiedNames = async () =>
    (await conn.db.select({ name: listings.name }).from(listings).where(eq(listings.verified, true)))
      .map((r) => r.name)
      .sort();

  it("verifies nothing when no reference server answers", async () => {
    const closed = await startReferenceServer({ port: 0 });
    await closed.close();
    await seedSampleCatalogue(conn.db, new Date(), closed.url);
    expect(await probeSampleListings(conn.db, { allowPrivateHosts: true, timeoutMs: 2_000 })).toBe(0);
    expect(await verifiedNames()).toEqual([]);
    await conn.db.delete(listings);
  });

  it("verifies the reference listings from a real probe, side by side with unverified ones", async () => {
    expect(referenceNames.length).toBeGreaterThanOrEqual(2);
    await seedSampleCatalogue(conn.db, new Date(), reference.url);
    expect(await verifiedNames()).toEqual([]);
    expect(await probeSampleListings(conn.db, { allowPrivateHosts: true })).toBe(referenceNames.length);
    expect(await verifiedNames()).toEqual([...referenceNames].sort());
    const unverified = await conn.db.select({ id: listings.id }).from(listings).where(eq(listings.verified, false));
    expect(unverified.length).toBeGreaterThan(sampleCatalogue.length / 2);
    // Each reference listing has its own URL on the one server.
    const urls = await conn.db.select({ url: listings.serverUrl }).from(listings).where(eq(listings.verified, true));
    expect(new Set(urls.map((u) => u.url)).size).toBe(referenceNames.length);
    expect(urls.every((u) => u.url.startsWith(reference.url))).toBe(true);
  });
});
