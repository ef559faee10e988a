// Re-checks and edits each reach a host the owner picks and store a row, so they are
// bounded per person and cooled down per listing, and edits count against the daily submission limit.
// These run the same functions the server actions call, with rate limits on (the end-to-end run turns them off).
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertListing } from "@/lib/listings/write";
import { listingEdits, listingProbes, users, type User } from "@/db/schema";
import { reloadEnv } from "@/lib/env";
import { ApiError } from "@/lib/errors";
import { runRecheck } from "@/lib/listings/checks/recheck";
import { resubmitListing } from "@/lib/listings/submit/resubmit-listing";
import { submitServer } from "@/lib/listings/submit/submit-server";
import { limits } from "@/lib/rate-limit";
import type { ServerSubmission } from "@/lib/validations/server-submission";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startPricedServer } from "../support/priced-server";
import { setAuthEnv } from "../support/route-client";

const loopback = { allowPrivateHosts: true };

/** The ApiError `promise` rejects with (fails the test when it resolves). */
async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe.each(drivers())("re-check and edit limits on %s", (driver) => {
  let conn: TestConnection;
  let server: Awaited<ReturnType<typeof startPricedServer>>;
  let owner: User;
  let n = 0;

  async function newUser(role: "user" | "admin" = "user"): Promise<User> {
    n += 1;
    const [user] = await conn.db
      .insert(users)
      .values({ email: `limits-${n}@example.com`, name: `User ${n}`, role })
      .returning();
    return user!;
  }
  async function newListing(submitterId: string) {
    n += 1;
    return insertListing(conn.db, {
      name: `Limited ${n}`,
      description: "A server for the limit tests.",
      categories: ["Data"],
      serverUrl: `${server.url}?listing=${n}`,
      status: "approved",
      submitterId,
    });
  }
  async function sampleRows(listingId: string): Promise<number> {
    const [row] = await conn.db
      .select({ n: count() })
      .from(listingProbes)
      .where(eq(listingProbes.listingId, listingId));
    return row!.n;
  }
  function submission(label: string): ServerSubmission {
    return {
      name: `Edited ${label}`,
      description: "New text for the reviewer to read.",
      categories: ["Data"],
      mcpServerUrl: `${server.url}?edit=${label}`,
      websiteUrl: null,
      paidTools: [],
      readPricesConsent: false,
    };
  }

  beforeAll(async () => {
    setAuthEnv(); // rate limits on
    reloadEnv();
    conn = await openTestDatabase(driver);
    server = await startPricedServer({
      items: [{ name: "lookup", amount: 0.01 }],
      wallet: "0x2222222222222222222222222222222222222222",
      extraTool: false,
    });
  });
  afterAll(async () => {
    await server?.close();
    await conn?.close();
  });
  beforeEach(async () => {
    owner = await newUser();
  });

  it("cools a listing down for a minute after a re-check, without probing or storing a row", async () => {
    const listing = await newListing(owner.id);
    expect(await runRecheck(conn.db, owner, listing.id, loopback)).toMatchObject({ reachable: true, tools: 3 });
    expect(await sampleRows(listing.id)).toBe(1);

    const again = await refusal(runRecheck(conn.db, owner, listing.id, loopback));
    expect(again.status).toBe(429);
    expect(again.message).toMatch(/^This server was checked a moment ago\. Try again in \d+ seconds\.$/);
    expect(Number(again.headers?.["Retry-After"])).toBeGreaterThan(0);
    expect(Number(again.headers?.["Retry-After"])).toBeLessThanOrEqual(60);
    expect(await sampleRows(listing.id)).toBe(1);

    // Another of the owner's listings is not cooled down by the first.
    const other = await newListing(owner.id);
    expect(await runRecheck(conn.db, owner, other.id, loopback)).toMatchObject({ reachable: true });
  });

  it(`stops one person after ${limits.rechecksPerUser.max} re-checks an hour, across listings`, async () => {
    const own = [];
    for (let i = 0; i <= limits.rechecksPerUser.max; i++) own.push(await newListing(owner.id));
    for (const listing of own.slice(0, -1)) await runRecheck(conn.db, owner, listing.id, loopback);
    const last = own.at(-1)!;
    const refused = await refusal(runRecheck(conn.db, owner, last.id, loopback));
    expect(refused.status).toBe(429);
    expect(refused.message).toMatch(/^You have re-checked servers too often\. Try again in \d+ minutes\.$/);
    expect(await sampleRows(last.id)).toBe(0);

    // Someone else may still re-check their own server.
    const neighbour = await newUser();
    expect(await runRecheck(conn.db, neighbour, (await newListing(neighbour.id)).id, loopback)).toMatchObject({
      reachable: true,
    });
  });

  it("refuses a stranger with 403 before the limit counts, and lets an admin re-check", async () => {
    const listing = await newListing(owner.id);
    const stranger = await newUser();
    expect((await refusal(runRecheck(conn.db, stranger, listing.id, loopback))).status).toBe(403);
    expect(await sampleRows(listing.id)).toBe(0);
    // The stranger's refused attempt did not start the listing's cool-down.
    const admin = await newUser("admin");
    expect(await runRecheck(conn.db, admin, listing.id, loopback)).toMatchObject({ reachable: true });
  });

  it("cools a listing down for a minute after an edit and keeps the first edit's text", async () => {
    const listing = await newListing(owner.id);
    const edited = await resubmitListing(conn.db, owner.id, listing.id, submission("first"));
    // The listing is approved: the edit waits for review beside it.
    expect(edited.kind === "pending-edit" && edited.edit).toMatchObject({ name: "Edited first", status: "pending" });
    const refused = await refusal(resubmitListing(conn.db, owner.id, listing.id, submission("second")));
    expect(refused.status).toBe(429);
    expect(refused.message).toMatch(/^This listing was changed a moment ago\. Try again in \d+ seconds\.$/);
    const [row] = await conn.db
      .select({ name: listingEdits.name })
      .from(listingEdits)
      .where(eq(listingEdits.listingId, listing.id));
    expect(row?.name).toBe("Edited first");
  });

  it(`counts edits against the daily limit of ${limits.submissionsPerUser.max} submissions`, async () => {
    const own = [];
    for (let i = 0; i < limits.submissionsPerUser.max; i++) own.push(await newListing(owner.id));
    for (const listing of own) await resubmitListing(conn.db, owner.id, listing.id, submission(`day-${listing.id}`));
    const refused = await refusal(submitServer(conn.db, owner.id, submission("one-more")));
    expect(refused.status).toBe(429);
    expect(refused.message).toMatch(/^You have submitted too many servers today\. Try again in \d+ minutes\.$/);
  });
});
