// What a probe stores is bounded and never the server's own text; big prices neither
// overflow nor half-finish an approval; probe history stays bounded.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertListing } from "@/lib/listings/write";
import {
  CHECK_LIMITS,
  listListingsToProbe,
  MAX_PROBES_PER_LISTING,
  PROBE_RETENTION_DAYS,
  PROBES_PER_HOUR,
  uptimeAndLatency,
} from "@/db/queries/probes";
import { probeHistory } from "../support/probe-history";
import { recordCheck } from "@/lib/listings/checks/drift";
import { decideListing } from "@/db/queries/reviews";
import { updateListingForReview } from "@/db/queries/listing-write";
import { listingProbes, listings, users } from "@/db/schema";
import { probeServer, type ProbeResult } from "@/lib/probe";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startPricedServer } from "../support/priced-server";

const loopback = { allowPrivateHosts: true };
const SECRET = "INTERNAL-STACK-TRACE db_password=hunter2";

let errorPage: http.Server;
let errorUrl: string;
beforeAll(async () => {
  // A host that answers every request with an error page full of things the owner must not be shown.
  errorPage = http.createServer((_req, res) =>
    res.writeHead(500, { "content-type": "text/html" }).end(`<html><body><pre>${SECRET}</pre></body></html>`),
  );
  await new Promise<void>((resolve) => errorPage.listen(0, "127.0.0.1", resolve));
  errorUrl = `http://127.0.0.1:${(errorPage.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  errorPage.closeAllConnections();
  await new Promise((resolve) => errorPage.close(resolve));
});

describe("probe errors", () => {
  it("stores a status and an error class, never the upstream body", async () => {
    const result = await probeServer(errorUrl, loopback);
    expect(result).toMatchObject({
      reachable: false,
      errorClass: "http_error",
      httpStatus: 500,
      error: "The server answered HTTP 500.",
    });
    expect(JSON.stringify(result)).not.toContain("hunter2");
  });
});

describe.each(drivers())("prices and probe history on %s", (driver) => {
  let conn: TestConnection;
  const wallet = "0x1111111111111111111111111111111111111111";

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
  });
  afterAll(async () => conn?.close());

  it("approves a server priced at 1,000,000 USDC per call and stores the price exactly", async () => {
    const server = await startPricedServer({
      items: [{ name: "gold-bar", amount: 1_000_000.5 }],
      wallet,
      extraTool: false,
    });
    try {
      const listing = await insertListing(conn.db, {
        name: "Pricey",
        description: "Expensive calls.",
        categories: ["Finance"],
        serverUrl: server.url,
        status: "pending",
      });
      expect((await checkListing(conn.db, listing.id, loopback))?.listing?.price).toBe(1_000_000.5);
      const [reviewer] = await conn.db
        .insert(users)
        .values({ email: "reviewer@example.com", name: "Rita Reviewer" })
        .returning();
      expect(
        (await decideListing(conn.db, listing.id, reviewer!.id, { decision: "approved", reason: null, revision: 1 }))
          .ok,
      ).toBe(true);
      const after = await checkListing(conn.db, listing.id, loopback);
      expect(after?.listing).toEqual({ price: 1_000_000.5, verified: true });
      const [row] = await conn.db
        .select({ price: listings.price, status: listings.status })
        .from(listings)
        .where(eq(listings.id, listing.id));
      expect(row).toEqual({ price: 1_000_000.5, status: "approved" });
    } finally {
      await server.close();
    }
  });

  it("approval binds to what was probed: terms come only from a probe of the revision approved, and none means 409-worthy 'unprobed'", async () => {
    const honest = await startPricedServer({ items: [{ name: "lookup", amount: 0.01 }], wallet, extraTool: false });
    const switched = await startPricedServer({
      items: [{ name: "lookup", amount: 9 }],
      wallet: "0x2222222222222222222222222222222222222222",
      extraTool: false,
    });
    try {
      const [owner] = await conn.db
        .insert(users)
        .values({ email: "switcher@example.com", name: "Sam Switcher" })
        .returning();
      const [reviewer] = await conn.db
        .insert(users)
        .values({ email: "binder@example.com", name: "Bea Binder" })
        .returning();
      const listing = await insertListing(conn.db, {
        name: "Switcher",
        description: "Honest at first.",
        categories: ["Data"],
        serverUrl: honest.url,
        status: "pending",
        submitterId: owner!.id,
      });
      const first = await checkListing(conn.db, listing.id, loopback);
      const [stored] = await conn.db
        .select({ serverUrl: listingProbes.serverUrl, revision: listingProbes.revision })
        .from(listingProbes)
        .where(eq(listingProbes.id, first!.probe.id));
      expect(stored).toEqual({ serverUrl: honest.url, revision: 1 });

      // The owner points the listing at another server; the only probe is of revision 1.
      const edited = await updateListingForReview(conn.db, listing.id, owner!.id, {
        name: "Switcher",
        description: "Honest at first.",
        categories: ["Data"],
        serverUrl: switched.url,
        websiteUrl: null,
        paidTools: [],
        paidToolsConsentedAt: null,
      });
      expect(edited!.revision).toBe(2);
      expect(
        await decideListing(conn.db, listing.id, reviewer!.id, { decision: "approved", reason: null, revision: 2 }),
      ).toEqual({ ok: false, reason: "unprobed" });
      expect(
        await decideListing(conn.db, listing.id, reviewer!.id, { decision: "approved", reason: null, revision: 1 }),
      ).toEqual({ ok: false, reason: "edited" });
      const [untouched] = await conn.db
        .select({ status: listings.status, approvedTerms: listings.approvedTerms })
        .from(listings)
        .where(eq(listings.id, listing.id));
      expect(untouched).toEqual({ status: "pending", approvedTerms: null });

      // A probe of revision 2 reads the new server; approval records its payee and price, not the old ones.
      await checkListing(conn.db, listing.id, loopback);
      const approved = await decideListing(conn.db, listing.id, reviewer!.id, {
        decision: "approved",
        reason: null,
        revision: 2,
      });
      expect(approved.ok && approved.listing.approvedTerms).toEqual({
        prices: [{ name: "lookup", amount: 9, currency: "USDC" }],
        wallets: [{ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: "0x2222222222222222222222222222222222222222" }],
        tools: ["make-purchase", "payment-methods", "price-listing"],
        // When this approval first took the wallet in (lib/sales/payees.ts: who named a wallet first).
        walletsSince: { "0x2222222222222222222222222222222222222222": expect.any(String) },
      });
    } finally {
      await Promise.all([honest.close(), switched.close()]);
    }
  });

  it("refuses approval when the only probe of the revision could not reach the server", async () => {
    const listing = await insertListing(conn.db, {
      name: "Unreached",
      description: "Never answers.",
      categories: ["Data"],
      serverUrl: errorUrl,
      status: "pending",
    });
    await checkListing(conn.db, listing.id, loopback);
    const [reviewer] = await conn.db.insert(users).values({ email: "unreached@example.com", name: "Uma" }).returning();
    expect(
      await decideListing(conn.db, listing.id, reviewer!.id, { decision: "approved", reason: null, revision: 1 }),
    ).toEqual({ ok: false, reason: "unprobed" });
    // A rejection needs no probe.
    expect(
      (
        await decideListing(conn.db, listing.id, reviewer!.id, {
          decision: "rejected",
          reason: "Unreachable.",
          revision: 1,
        })
      ).ok,
    ).toBe(true);
  });

  it("refuses a price beyond what a listing can hold without failing the probe or touching the stored price", async () => {
    const server = await startPricedServer({
      items: [{ name: "planet", amount: 5_000_000_000 }],
      wallet,
      extraTool: false,
    });
    try {
      const listing = await insertListing(conn.db, {
        name: "Planet Seller",
        description: "Sells planets.",
        categories: ["Finance"],
        serverUrl: server.url,
        status: "pending",
        price: 3,
      });
      const recorded = await checkListing(conn.db, listing.id, loopback);
      expect(recorded?.result).toMatchObject({ reachable: true, pricesRead: false, lowestPrice: null });
      expect(recorded?.result.quirks.join("\n")).toMatch(/above the 999999999.999999 USDC Agora can list/);
      expect(recorded?.listing?.price).toBe(3);
    } finally {
      await server.close();
    }
  });

  it("keeps a bounded history: rows past the retention window and past each hour's few go, the 30-day strip stays whole after a flood", async () => {
    const listing = await insertListing(conn.db, {
      name: "Chatty",
      description: "Checked very often.",
      categories: ["Data"],
      serverUrl: "https://chatty.example.com/mcp",
      status: "approved",
    });
    // Anchored at the last UTC noon before now: the hour-long flood below must not straddle midnight, or the
    // day it spills into would count the flood beside that day's old check (this failed at 00:28 UTC).
    const DAY = 24 * 60 * 60 * 1000;
    const noon = new Date();
    noon.setUTCHours(12, 0, 0, 0);
    const now = noon.getTime() > Date.now() ? new Date(noon.getTime() - DAY) : noon;
    const base: ProbeResult = {
      url: "https://chatty.example.com/mcp",
      checkedAt: now,
      reachable: true,
      transport: "streamable-http",
      protocolVersion: "2025-06-18",
      serverName: "chatty",
      serverVersion: "1",
      tools: [],
      pricedItems: [],
      paymentMethods: [],
      pricesRead: false,
      latencyMs: 10,
      error: null,
      errorClass: null,
      httpStatus: null,
      quirks: [],
      lowestPrice: null,
      verifiable: false,
    };
    // 40 old daily probes (10 past the window), then a flood of 2,050 checks in the last hour, in bulk.
    const old = Array.from({ length: 40 }, (_, i) => ({
      listingId: listing.id,
      checkedAt: new Date(now.getTime() - (i + 1) * DAY),
      reachable: i % 2 === 0,
      latencyMs: 10,
    }));
    await conn.db.insert(listingProbes).values(old);
    const flood = Array.from({ length: 2050 }, (_, i) => ({
      listingId: listing.id,
      checkedAt: new Date(now.getTime() - 60_000 - i * 1000),
      reachable: true,
      latencyMs: 10,
    }));
    for (let i = 0; i < flood.length; i += 500) await conn.db.insert(listingProbes).values(flood.slice(i, i + 500));

    await recordCheck(conn.db, { id: listing.id, revision: 1 }, { ...base, checkedAt: now }, now);
    const rows = await conn.db
      .select({ checkedAt: listingProbes.checkedAt })
      .from(listingProbes)
      .where(eq(listingProbes.listingId, listing.id));
    expect(rows.length).toBeLessThanOrEqual(MAX_PROBES_PER_LISTING);
    const cutoff = now.getTime() - PROBE_RETENTION_DAYS * DAY;
    expect(rows.every((r) => r.checkedAt.getTime() >= cutoff)).toBe(true);
    // The flood is thinned to a few checks an hour...
    const perHour = new Map<string, number>();
    for (const r of rows)
      perHour.set(
        r.checkedAt.toISOString().slice(0, 13),
        (perHour.get(r.checkedAt.toISOString().slice(0, 13)) ?? 0) + 1,
      );
    expect(Math.max(...perHour.values())).toBeLessThanOrEqual(PROBES_PER_HOUR);
    // ...and the status strip keeps every day of the 30 days: each old check inside the window is still there.
    const strip = await uptimeAndLatency(conn.db, listing.id, 30, now);
    const byDay = new Map(strip.daily.map((d) => [d.day, d]));
    const inWindow = old.filter((o) => o.checkedAt.getTime() > now.getTime() - 30 * DAY);
    expect(inWindow.length).toBeGreaterThanOrEqual(29);
    for (const o of inWindow)
      expect(byDay.get(o.checkedAt.toISOString().slice(0, 10)), o.checkedAt.toISOString()).toMatchObject({
        total: 1,
        ok: o.reachable ? 1 : 0,
      });
    expect((await probeHistory(conn.db, listing.id, 30, now)).length).toBe(strip.checks);
    expect(strip.checks).toBe(rows.filter((r) => r.checkedAt.getTime() > now.getTime() - 30 * DAY).length);
  });
});

describe.each(drivers())("what a scheduled run checks, on %s", (driver) => {
  let conn: TestConnection;
  const HOUR = 60 * 60 * 1000;
  const DAY = 24 * HOUR;
  const now = new Date();

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
  });
  afterAll(async () => conn?.close());

  async function listing(
    name: string,
    status: "approved" | "pending",
    options: { submitterId?: string; ageDays?: number; checkedAgo?: number } = {},
  ) {
    const created = new Date(now.getTime() - (options.ageDays ?? 0) * DAY);
    const row = await insertListing(conn.db, {
      name,
      description: "Checked on a schedule.",
      categories: ["Data"],
      serverUrl: `https://${name.toLowerCase().replace(/\W+/g, "-")}.example.com/mcp`,
      status,
      submitterId: options.submitterId,
      createdAt: created,
      updatedAt: created,
    });
    if (options.checkedAgo !== undefined)
      await conn.db
        .insert(listingProbes)
        .values({ listingId: row.id, checkedAt: new Date(now.getTime() - options.checkedAgo), reachable: false });
    return row.id;
  }

  it("caps a submitter's pending listings, backs off old ones to once a day, keeps every approved one, and bounds the run", async () => {
    const [owner] = await conn.db
      .insert(users)
      .values({ email: `flooder-${driver}@example.com`, name: "Flooder" })
      .returning();
    const flood: string[] = [];
    for (let i = 0; i < 15; i++)
      flood.push(await listing(`Flood ${i}`, "pending", { submitterId: owner!.id, checkedAgo: HOUR }));
    const approved = await listing("Approved Recently Checked", "approved", { ageDays: 30, checkedAgo: 60_000 });
    const oldRecent = await listing("Old Pending Checked Today", "pending", { ageDays: 10, checkedAgo: 2 * HOUR });
    const oldStale = await listing("Old Pending Checked Days Ago", "pending", { ageDays: 10, checkedAgo: 2 * DAY });
    const fresh = await listing("New Pending Never Checked", "pending");
    const rejected = await listing("Rejected One", "approved");
    await conn.db.update(listings).set({ status: "rejected" }).where(eq(listings.id, rejected));

    const due = (await listListingsToProbe(conn.db, now)).map((t) => t.id);
    expect(due.filter((id) => flood.includes(id))).toHaveLength(CHECK_LIMITS.MAX_PENDING_PER_OWNER);
    expect(due).toEqual(expect.arrayContaining([approved, oldStale, fresh]));
    expect(due).not.toContain(oldRecent);
    expect(due).not.toContain(rejected);
    // Oldest check first: the never-checked listing leads, the approved one checked a minute ago comes last.
    expect(due[0]).toBe(fresh);
    expect(due.at(-1)).toBe(approved);

    // However many are due, one run takes at most its cap, the longest-unchecked first.
    const capped = await listListingsToProbe(conn.db, now, { ...CHECK_LIMITS, MAX_CHECKS_PER_RUN: 3 });
    expect(capped.map((t) => t.id)).toEqual(due.slice(0, 3));
  });
});
