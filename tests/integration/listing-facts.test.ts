// A page of listings reads its facts (latest check, uptime, drift, sales, test purchase, buyer reviews) in one
// statement, each row carried as JSON (db/json-rows.ts). What comes back must be exactly what a plain select of the
// same rows returns: amounts past 2^53 to the unit, timestamps to the millisecond, jsonb untouched, null as null.
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertListing } from "@/lib/listings/write";
import { findListingRecord, listingEvidence } from "@/db/queries/listing-facts";
import { latestProbes, uptimeAndLatency } from "@/db/queries/probes";
import { recentDrift } from "@/db/queries/drift";
import { buyerReviews, listingDrift, listingProbes, listings, testPurchases } from "@/db/schema";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";

// Past Number.MAX_SAFE_INTEGER (9,007,199,254,740,991): a JSON number would come back rounded.
const HUGE_AMOUNT = "123456789012345678901234567890";
const HUGE_BLOCK = 9_007_199_254_740_993n;
const HUGE_UNITS = 9_007_199_254_740_995n;

describe.each(drivers())("listing facts in one statement on %s", (driver) => {
  let conn: TestConnection;
  let listingId: string;
  let bareId: string;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    const db = conn.db;
    const listing = await insertListing(db, {
      name: "Facts Server",
      description: "A listing with every kind of fact.",
      categories: ["Data"],
      serverUrl: "https://facts.example.com/mcp",
      status: "approved",
    });
    const bare = await insertListing(db, {
      name: "Bare Server",
      description: "A listing with no facts at all yet.",
      categories: ["Data"],
      serverUrl: "https://bare.example.com/mcp",
      status: "approved",
    });
    listingId = listing.id;
    bareId = bare.id;
    const now = Date.now();
    const tools = [
      { name: "weather", description: 'Quotes "the" weather\u2028 ünïcode', inputSchema: { type: "object" } },
    ];
    await db.insert(listingProbes).values([
      {
        listingId,
        checkedAt: new Date(now - 3_600_000),
        reachable: true,
        verifiable: true,
        latencyMs: 40,
        tools,
        pricedItems: [],
        paymentMethods: [],
      },
      {
        listingId,
        checkedAt: new Date(now - 60_000),
        reachable: true,
        verifiable: false,
        latencyMs: 60,
        tools,
        pricedItems: [{ name: "weather", amount: 0.01, currency: "USDC" }],
        paymentMethods: [],
        serverUrl: "https://facts.example.com/mcp",
      },
      {
        listingId,
        checkedAt: new Date(now - 120_000),
        reachable: false,
        verifiable: false,
        latencyMs: null,
        tools: [],
        pricedItems: [],
        paymentMethods: [],
        error: "timeout",
      },
    ] as never);
    for (let i = 0; i < 12; i++) {
      await db.insert(listingDrift).values({
        listingId,
        kind: "price",
        subject: `tool-${i}`,
        approved: "0.01",
        found: `0.0${i}`,
        detectedAt: new Date(now - i * 1000),
      } as never);
    }
    await db.insert(testPurchases).values({
      listingId,
      item: "weather",
      network: "eip155:84532",
      payTo: "0xabc",
      units: HUGE_UNITS,
      outcome: "delivered",
      money: "paid",
      startedAt: new Date(now - 5000),
      finishedAt: new Date(now - 4000),
    } as never);
    for (let i = 0; i < 7; i++) {
      await db.insert(buyerReviews).values({
        listingId,
        chainId: 84532,
        txHash: `0x${String(i).padStart(64, "0")}`,
        logIndex: i,
        payer: "0xPayer",
        payee: "0xPayee",
        amount: HUGE_AMOUNT,
        blockNumber: HUGE_BLOCK,
        paidAt: new Date(now - 10_000),
        rating: (i % 5) + 1,
        text: `Review ${i} <script>alert(1)</script>`,
        textHash: "0x",
        signature: "0x",
        signedAt: new Date(now - 9_000),
        createdAt: new Date(now - 8_000 + i),
        ...(i === 6 ? { hiddenAt: new Date(now) } : {}),
      } as never);
    }
  });
  afterAll(async () => {
    await conn?.close();
  });

  it("returns the latest check, test purchase and reviews exactly as a plain select does", async () => {
    const db = conn.db;
    const record = (await findListingRecord(db, listingId))!;
    const [probe] = await db
      .select()
      .from(listingProbes)
      .where(eq(listingProbes.listingId, listingId))
      .orderBy(desc(listingProbes.checkedAt))
      .limit(1);
    expect(record.probe).toEqual(probe);
    expect(record.probe?.checkedAt).toBeInstanceOf(Date);

    const [test] = await db.select().from(testPurchases).where(eq(testPurchases.listingId, listingId));
    expect(record.testPurchase).toEqual(test);
    expect(record.testPurchase?.units).toBe(HUGE_UNITS);

    const visible = await db
      .select()
      .from(buyerReviews)
      .where(eq(buyerReviews.listingId, listingId))
      .orderBy(desc(buyerReviews.createdAt));
    const shown = visible.filter((r) => r.hiddenAt === null);
    expect(record.buyerReviews?.count).toBe(6);
    expect(record.buyerReviews?.average).toBe(Math.round((shown.reduce((s, r) => s + r.rating, 0) / 6) * 100) / 100);
    expect(record.buyerReviews?.latest).toEqual(shown.slice(0, 5));
    expect(record.buyerReviews?.latest[0]?.amount).toBe(HUGE_AMOUNT);
    expect(record.buyerReviews?.latest[0]?.blockNumber).toBe(HUGE_BLOCK);
  });

  it("keeps the newest ten drift records, the 30-day uptime and the median of successful checks", async () => {
    const db = conn.db;
    const drift = (await recentDrift(db, [listingId])).get(listingId)!;
    expect(drift.map((d) => d.subject)).toEqual(Array.from({ length: 10 }, (_, i) => `tool-${i}`));
    expect(drift[0]!.detectedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const { daily: _daily, ...uptime } = await uptimeAndLatency(db, listingId);
    expect(uptime).toEqual({ uptimePct: 66.67, medianLatencyMs: 50, checks: 3 });
  });

  it("leaves every fact absent for a listing that has none, and answers for every id asked", async () => {
    const db = conn.db;
    const record = (await findListingRecord(db, bareId))!;
    expect(record).toMatchObject({
      probe: undefined,
      uptime: undefined,
      drift: [],
      sales: undefined,
      buyerReviews: undefined,
      testPurchase: undefined,
    });
    const evidence = await listingEvidence(db, [bareId, listingId, bareId]);
    expect([...evidence.keys()].sort()).toEqual([bareId, listingId].sort());
    expect(evidence.get(bareId)).toEqual({ sales: undefined, testPurchase: undefined });
    expect((await latestProbes(db, [bareId])).size).toBe(0);
  });

  it("refuses ids that are not uuids instead of building a statement from them", async () => {
    await expect(latestProbes(conn.db, ["x}', '{y"])).rejects.toThrow(/uuid/);
    const [row] = await conn.db.select({ id: listings.id }).from(listings).where(eq(listings.id, listingId));
    expect(row?.id).toBe(listingId);
  });
});
