// The data under a listing's delivery evidence: its test purchases of the last 30 days counted as delivered, failed
// without a charge, and failed after the money moved (or may have), from the rows the test-purchase runner writes
// (outcome and the ledger's word on the money). Drift, pending and older purchases do not count.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliveryCounts } from "@/db/queries/test-purchases";
import { testPurchases } from "@/db/schema";
import { insertListing } from "@/lib/listings/write";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";

describe.each(drivers())("delivery counts from test purchases on %s", (driver) => {
  let conn: TestConnection;
  let listingId: string;
  let otherId: string;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    const listing = await insertListing(conn.db, {
      name: "Counted Server",
      description: "A listing whose purchases are counted.",
      categories: ["Data"],
      serverUrl: "https://counted.example.com/mcp",
      status: "approved",
    });
    const other = await insertListing(conn.db, {
      name: "Untested Server",
      description: "A listing never bought from yet.",
      categories: ["Data"],
      serverUrl: "https://untested.example.com/mcp",
      status: "approved",
    });
    listingId = listing.id;
    otherId = other.id;
    const day = 86_400_000;
    const row = (outcome: string, money: string, ageMs = 60_000) => ({
      listingId,
      item: "quote",
      network: "eip155:84532",
      payTo: "0xabc",
      units: 10_000n,
      outcome,
      money,
      startedAt: new Date(Date.now() - ageMs),
    });
    await conn.db.insert(testPurchases).values([
      row("delivered", "paid"),
      row("delivered", "job-done"),
      row("refused", "refused"), // the server refused, or its tool failed uncharged: the payment unused
      row("not-delivered", "none"), // failed before anything was signed (a free item, a tool that errs unpaid)
      row("not-delivered", "disputed"), // paid, nothing good came back
      row("not-delivered", "unknown"), // may have been paid: counted against the server
      row("drift", "none"), // nothing bought
      row("pending", "reserved"), // not finished
      row("delivered", "paid", 31 * day), // older than the window
    ] as never);
  });

  afterAll(async () => {
    await conn?.close();
  });

  it("counts delivered, failed uncharged and failed charged over the last 30 days", async () => {
    const counts = await deliveryCounts(conn.db, [listingId, otherId]);
    expect(counts.get(listingId)).toEqual({ delivered: 2, failedUncharged: 2, failedCharged: 2 });
    expect(counts.has(otherId)).toBe(false);
    expect((await deliveryCounts(conn.db, [listingId], 60)).get(listingId)).toEqual({
      delivered: 3,
      failedUncharged: 2,
      failedCharged: 2,
    });
    expect(await deliveryCounts(conn.db, [])).toEqual(new Map());
  });
});
