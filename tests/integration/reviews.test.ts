import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { updateListingForReview } from "@/db/queries/listing-write";
import { insertListing } from "@/lib/listings/write";
import { decideListing, listReviewQueue, recentDecisions } from "@/db/queries/reviews";
import { listingReviews, listings, users } from "@/db/schema";
import { recordCheck } from "@/lib/listings/checks/drift";
import type { ProbeResult } from "@/lib/probe";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";

// A probe that reached the listing's server at its current revision: what an approval takes its terms from.
function reachedProbe(url: string): ProbeResult {
  return {
    url,
    checkedAt: new Date(),
    reachable: true,
    transport: "streamable-http",
    protocolVersion: "2025-06-18",
    serverName: "s",
    serverVersion: "1",
    tools: [],
    pricedItems: [],
    paymentMethods: [],
    pricesRead: true,
    latencyMs: 5,
    error: null,
    errorClass: null,
    httpStatus: 200,
    quirks: [],
    lowestPrice: null,
    verifiable: false,
  };
}

describe.each(drivers())("review queue on %s", (driver) => {
  let conn: TestConnection;
  let providerId: string;
  let adminId: string;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    const [provider] = await conn.db
      .insert(users)
      .values({ email: "provider@example.com", name: "Pat Provider" })
      .returning();
    const [admin] = await conn.db
      .insert(users)
      .values({ email: "admin@example.com", githubLogin: "TheAdmin", name: "Ada Admin" })
      .returning();
    providerId = provider!.id;
    adminId = admin!.id;
  });
  afterAll(async () => conn?.close());

  const submit = async (name: string) => {
    const listing = await insertListing(conn.db, {
      name,
      description: "A server waiting for review.",
      categories: ["AI"],
      serverUrl: `https://${name.toLowerCase().replace(/\W+/g, "-")}.example.com/mcp`,
      status: "pending",
      submitterId: providerId,
    });
    await recordCheck(conn.db, listing, reachedProbe(listing.serverUrl));
    return listing;
  };

  it("lists pending listings oldest first, with their submitter", async () => {
    const first = await submit("First In Line");
    await submit("Second In Line");
    const queue = await listReviewQueue(conn.db);
    expect(queue.map((q) => q.name)).toEqual(["First In Line", "Second In Line"]);
    expect(queue[0]!.submitter).toEqual({
      name: "Pat Provider",
      email: "provider@example.com",
      emailConfirmed: false,
      githubLogin: null,
    });
    expect(queue[0]!.id).toBe(first.id);
  });

  it("tells the reviewer whether the submitter's email is confirmed", async () => {
    await conn.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, providerId));
    try {
      const queue = await listReviewQueue(conn.db);
      expect(queue.map((q) => q.submitter?.emailConfirmed)).toEqual([true, true]);
    } finally {
      await conn.db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, providerId));
    }
  });

  it("approves and rejects with a reason, recording who decided what", async () => {
    const [a, b] = await listReviewQueue(conn.db);
    const approved = await decideListing(conn.db, a!.id, adminId, {
      decision: "approved",
      reason: null,
      revision: a!.revision,
    });
    expect(approved.ok && approved.listing.status).toBe("approved");
    const rejected = await decideListing(conn.db, b!.id, adminId, {
      decision: "rejected",
      reason: "Not an MCP server.",
      revision: b!.revision,
    });
    expect(rejected.ok && rejected.listing.rejectionReason).toBe("Not an MCP server.");
    expect(await listReviewQueue(conn.db)).toEqual([]);
    // The review page's history: who decided what, for each listing.
    const history = await recentDecisions(conn.db);
    expect(history.filter((d) => d.listingId === b!.id)).toMatchObject([
      { decision: "rejected", reason: "Not an MCP server.", reviewer: "Ada Admin" },
    ]);
    expect(history.filter((d) => d.listingId === a!.id)).toMatchObject([
      { decision: "approved", reason: null, reviewer: "Ada Admin" },
    ]);
  });

  it("refuses to decide a listing twice, leaving no extra history", async () => {
    const listing = await submit("Decided Once");
    expect(
      (await decideListing(conn.db, listing.id, adminId, { decision: "approved", reason: null, revision: 1 })).ok,
    ).toBe(true);
    expect(
      await decideListing(conn.db, listing.id, adminId, { decision: "rejected", reason: "Too late", revision: 1 }),
    ).toEqual({ ok: false, reason: "not_pending" });
    const [row] = await conn.db.select().from(listings).where(eq(listings.id, listing.id));
    expect(row!.status).toBe("approved");
    expect(await conn.db.select().from(listingReviews).where(eq(listingReviews.listingId, listing.id))).toHaveLength(1);
  });

  it("applies a decision only to the revision the reviewer saw: an owner's later edit makes it stale", async () => {
    const listing = await submit("Bait And Switch");
    const [seen] = (await listReviewQueue(conn.db)).filter((q) => q.id === listing.id);
    expect(seen!.revision).toBe(1);
    // The owner edits after the reviewer opened the queue.
    const edited = await updateListingForReview(conn.db, listing.id, providerId, {
      name: "Bait And Switch",
      description: "Now sends your data elsewhere.",
      categories: ["AI"],
      serverUrl: listing.serverUrl,
      websiteUrl: null,
      paidTools: [],
      paidToolsConsentedAt: null,
    });
    expect(edited!.revision).toBe(2);
    expect(
      await decideListing(conn.db, listing.id, adminId, {
        decision: "approved",
        reason: null,
        revision: seen!.revision,
      }),
    ).toEqual({ ok: false, reason: "edited" });
    const [row] = await conn.db.select().from(listings).where(eq(listings.id, listing.id));
    expect(row).toMatchObject({ status: "pending", approvedTerms: null });
    expect(await conn.db.select().from(listingReviews).where(eq(listingReviews.listingId, listing.id))).toHaveLength(0);
    // A fresh look at the queue shows the new text and revision; deciding on that works.
    const [fresh] = (await listReviewQueue(conn.db)).filter((q) => q.id === listing.id);
    expect(fresh).toMatchObject({ description: "Now sends your data elsewhere.", revision: 2 });
    const decided = await decideListing(conn.db, listing.id, adminId, {
      decision: "rejected",
      reason: "Changed its purpose.",
      revision: fresh!.revision,
    });
    expect(decided.ok).toBe(true);
  });
});
