// Many cheap imported listings must not use up the test-purchase budget before the listings someone
// answers for. The due list puts submitted (reviewed) and claimed listings first, whatever the imports cost. On PGlite,
// and on PostgreSQL when DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listTestPurchaseTargets } from "@/db/queries/test-purchases";
import { listingProbes, users } from "@/db/schema";
import { insertListing } from "@/lib/listings/write";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";

describe.each(drivers())("test-purchase targets (%s)", (driver) => {
  let conn: TestConnection;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    const [publisher] = await conn.db.insert(users).values({ name: "Publisher" }).returning();
    const add = async (key: string, price: number, extra: Partial<Parameters<typeof insertListing>[1]> = {}) => {
      const listing = await insertListing(conn.db, {
        name: key,
        description: `${key}.`,
        categories: [],
        serverUrl: `https://${key}.example.net/mcp`,
        status: "approved",
        price,
        ...extra,
      });
      // Its latest check read its prices and payee: something to buy.
      await conn.db.insert(listingProbes).values({ listingId: listing.id, reachable: true, verifiable: true });
      ids[key] = listing.id;
    };
    // Thirty imports at a tenth of a cent, nobody's yet.
    for (let i = 0; i < 30; i++)
      await add(`import-${i}`, 0.001, { source: "mcp-registry", upstreamName: `io.github.someone/tool-${i}` });
    await add("submitted", 0.05);
    await add("claimed", 0.02, {
      source: "mcp-registry",
      upstreamName: "io.github.publisher/tool",
      submitterId: publisher!.id,
      claimedAt: new Date(),
    });
  });
  afterAll(async () => conn?.close());

  it("puts submitted and claimed listings before unclaimed imports, however cheap the imports are", async () => {
    const due = await listTestPurchaseTargets(conn.db, 7 * 86_400_000, 5);
    expect(due.map((t) => t.id).slice(0, 2)).toEqual([ids.claimed, ids.submitted]);
    expect(due.slice(2).every((t) => t.name.startsWith("import-"))).toBe(true);
  });
});
