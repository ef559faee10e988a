import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { insertListing } from "@/db/queries/listing-write";
import { decideListing, listingDecisions, listReviewQueue, recentDecisions } from "@/db/queries/reviews";
import { listingReviews, listings, users } from "@/db/schema";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";

describe.each(drivers())("review queue on %s", (driver) => {
  let conn: TestConnection;
  let providerId: string;
  let adminId: string;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    const [provider] = await conn.db.insert(users).values({ email: "provider@example.com", name: "Pat Provider" }).returning();
    const [admin] = await conn.db.insert(users).values({ email: "admin@example.com", githubLogin: "TheAdmin", name: "Ada Admin" }).returning();
    providerId = provider!.id;
    adminId = admin!.id;
  });
  afterAll(async () => conn?.close());

  const submit = (name: string) =>
    insertListing(conn.db, { name, description: "A server waiting for review.", categories: ["AI"], serverUrl: `https://${name.toLowerCase().replace(/\W+/g, "-")}.example.com/mcp`, status: "pending", submitterId: providerId });

  it("lists pending listings oldest first, with their submitter", async () => {
    const first = await submit("First In Line");
    await submit("Second In Line");
    const queue = await listReviewQueue(conn.db);
    expect(queue.map((q) => q.name)).toEqual(["First In Line", "Second In Line"]);
    expect(queue[0]!.submitter).toEqual({ name: "Pat Provider", email: "provider@example.com", githubLogin: null });
    expect(queue[0]!.id).toBe(first.id);
  });

  it("approves and rejects with a reason, recording who decided what", async () => {
    const [a, b] = await listReviewQueue(conn.db);
    const approved = await decideListing(conn.db, a!.id, adminId, { decision: "approved", reason: null });
    expect(approved?.status).toBe("approved");
    const rejected = await decideListing(conn.db, b!.id, adminId, { decision: "rejected", reason: "Not an MCP server." });
    expect(rejected?.rejectionReason).toBe("Not an MCP server.");
    expect(await listReviewQueue(conn.db)).toEqual([]);
    const history = await listingDecisions(conn.db, b!.id);
    expect(history).toMatchObject([{ decision: "rejected", reason: "Not an MCP server.", reviewer: "Ada Admin" }]);
    expect((await recentDecisions(conn.db)).map((d) => d.decision)).toEqual(expect.arrayContaining(["approved", "rejected"]));
  });

  it("refuses to decide a listing twice, leaving no extra history", async () => {
    const listing = await submit("Decided Once");
    expect(await decideListing(conn.db, listing.id, adminId, { decision: "approved", reason: null })).not.toBeNull();
    expect(await decideListing(conn.db, listing.id, adminId, { decision: "rejected", reason: "Too late" })).toBeNull();
    const [row] = await conn.db.select().from(listings).where(eq(listings.id, listing.id));
    expect(row!.status).toBe("approved");
    expect(await conn.db.select().from(listingReviews).where(eq(listingReviews.listingId, listing.id))).toHaveLength(1);
  });
});
