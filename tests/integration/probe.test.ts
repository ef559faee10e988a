// The probe against real MCP servers on loopback, and its results stored in real databases.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite } from "@/db/connect";
import { latestProbes, refreshVerifiedFlags, uptimeAndLatency } from "@/db/queries/probes";
import { probeHistory } from "../support/probe-history";
import { recordCheck } from "@/lib/listings/checks/drift";
import { toListingRow } from "@/lib/listings/write";
import { listingProbes, listings, type ReviewStatus } from "@/db/schema";
import type { Db } from "@/db/types";
import {
  startReferenceServer,
  type ConcurrencyTracker,
  type ReferenceServer,
  type Variant,
} from "@/examples/monetized-server";
import { reloadEnv } from "@/lib/env";
import { PROBE_TIMEOUT_MS, probeServer, type ProbeResult } from "@/lib/probe";
import { checkListings, checkListing } from "@/lib/listings/checks/check-listings";
import { createSafeFetch } from "@/lib/ssrf";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startPricedServer } from "../support/priced-server";

const HOUR = 60 * 60 * 1000;
const loopback = { allowPrivateHosts: true };
const servers = new Map<Variant, ReferenceServer>();
const variants: Variant[] = [
  "reference",
  "quirky",
  "no-pricing",
  "sse-only",
  "modern-only",
  "not-mcp",
  "slow",
  "huge",
  "redirect-private",
];

beforeAll(async () => {
  for (const variant of variants) servers.set(variant, await startReferenceServer({ port: 0, variant }));
});
afterAll(async () => {
  await Promise.all([...servers.values()].map((s) => s.close()));
});

function urlOf(variant: Variant): string {
  return servers.get(variant)!.url;
}

describe("probing MonetizedMCP servers on loopback", () => {
  it("probes, prices and verifies a server that speaks only MCP 2026-07-28 like any other, and records the revision", async () => {
    const both = await probeServer(urlOf("reference"), loopback);
    const modern = await probeServer(urlOf("modern-only"), loopback);
    expect(modern).toMatchObject({
      reachable: true,
      transport: "streamable-http",
      protocolVersion: "2026-07-28",
      verifiable: true,
      pricesRead: true,
      lowestPrice: 0.01,
      error: null,
    });
    expect(modern.tools).toEqual(both.tools);
    expect(modern.pricedItems).toEqual(both.pricedItems);
    expect(modern.paymentMethods).toEqual(both.paymentMethods);
    // A 2025 client cannot talk to it at all: the revision matters, and the probe negotiated it.
    const v1 = new Client({ name: "old-client", version: "1.0.0" });
    await expect(v1.connect(new StreamableHTTPClientTransport(new URL(urlOf("modern-only"))))).rejects.toThrow();
    // A server on the older SDK line (v1, 2025-11-25 at most) answers the 2025 handshake the probe falls back to.
    const old = await startPricedServer({
      items: [{ name: "Old item", amount: 0.02 }],
      wallet: "0x000000000000000000000000000000000000dEaD",
      extraTool: false,
    });
    try {
      const legacy = await probeServer(old.url, loopback);
      expect(legacy).toMatchObject({ reachable: true, pricesRead: true, lowestPrice: 0.02, error: null });
      expect(legacy.protocolVersion).toMatch(/^2025-/);
    } finally {
      await old.close();
    }
  });

  it("reads the reference server: handshake, tools, prices and payment methods", async () => {
    const result = await probeServer(urlOf("reference"), loopback);
    expect(result).toMatchObject({
      reachable: true,
      transport: "streamable-http",
      serverName: "agora-reference-monetized-server",
      serverVersion: "2.0.0",
      pricesRead: true,
      lowestPrice: 0.01,
      verifiable: true,
      error: null,
      quirks: [],
    });
    // The kit speaks the current revision, which the probe asks for first (server/discover).
    expect(result.protocolVersion).toBe("2026-07-28");
    expect(result.tools.map((t) => t.name)).toEqual([
      "price-listing",
      "payment-methods",
      "make-purchase",
      "job-status",
      "weather",
      "market-report",
      "logo-render",
    ]);
    // Built on the provider kit: make-purchase takes the payment the way MonetizedMCP SDK clients send it.
    expect(result.tools[2]!.inputSchema).toMatchObject({
      type: "object",
      properties: { itemId: { type: "string" }, signedTransaction: { type: "string" } },
    });
    expect(result.pricedItems.map((i) => [i.id ?? i.toolName, i.amount, i.units, i.currency])).toEqual([
      ["weather-now", 0.01, "10000", "USDC"],
      ["market-report", 0.25, "250000", "USDC"],
      ["page-screenshot", 0, "0", "USDC"],
      ["logo-render", 0.1, "100000", "USDC"],
      // Each paid item's own x402 tool, read from its PaymentRequired answer without paying.
      ["weather", 0.01, "10000", "USDC"],
      ["market-report", 0.25, "250000", "USDC"],
      ["logo-render", 0.1, "100000", "USDC"],
    ]);
    expect(result.pricedItems[0]!.params).toEqual({ city: "Example: Lisbon" });
    expect(result.pricedItems[0]!.x402Tool).toBe("weather");
    // The unpaid call had to carry the required city: the tool's PaymentRequired is kept as it answered.
    expect(result.pricedItems[4]!.x402Requirements).toEqual({
      scheme: "exact",
      network: "eip155:84532",
      asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
      amount: "10000",
      payTo: "0x000000000000000000000000000000000000dEaD",
      maxTimeoutSeconds: 300,
      extra: { name: "USDC", version: "2" },
    });
    expect(result.paymentMethods).toEqual([
      { paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: "0x000000000000000000000000000000000000dEaD" },
    ]);
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it("tolerates the `pricing-listing` spelling, one payment-method object and string amounts, noting each", async () => {
    const result = await probeServer(urlOf("quirky"), loopback);
    expect(result).toMatchObject({ reachable: true, verifiable: true, lowestPrice: 0.01, error: null });
    expect(result.quirks).toEqual([
      "price listing tool spelled `pricing-listing`",
      "amounts given as strings",
      "currency missing; taken from the payment method",
      "payment-methods answered a single object, not an array",
    ]);
  });

  it("falls back to the deprecated HTTP+SSE transport", async () => {
    const result = await probeServer(urlOf("sse-only"), loopback);
    expect(result).toMatchObject({ reachable: true, transport: "sse", verifiable: true, lowestPrice: 0.01 });
    expect(result.quirks).toEqual(["served over the deprecated HTTP+SSE transport, not Streamable HTTP"]);
  });

  it("finds an MCP server without the MonetizedMCP tools reachable but not verifiable, its price unread", async () => {
    const result = await probeServer(urlOf("no-pricing"), loopback);
    expect(result).toMatchObject({
      reachable: true,
      verifiable: false,
      pricesRead: false,
      lowestPrice: null,
      error: null,
    });
    expect(result.tools.map((t) => t.name)).toEqual(["echo"]);
  });

  it("reports a plain web page as not an MCP server", async () => {
    const result = await probeServer(urlOf("not-mcp"), loopback);
    expect(result).toMatchObject({ reachable: false, verifiable: false, latencyMs: null });
    // A class and a fixed sentence: the page's own text is never stored.
    expect(result).toMatchObject({ errorClass: "not_mcp", httpStatus: null });
    expect(result.error).toMatch(
      /^Not an MCP server: no answer over Streamable HTTP or the older HTTP\+SSE transport\.$/,
    );
  });

  it("refuses a redirect to the cloud metadata address", async () => {
    const result = await probeServer(urlOf("redirect-private"), loopback);
    expect(result).toMatchObject({ reachable: false, verifiable: false });
    expect(result.error).toBe(
      "Redirect to http://169.254.169.254/latest/meta-data/: Refused 169.254.169.254: cloud-metadata address",
    );
  });

  it("stops reading an answer past 1 MB", async () => {
    const result = await probeServer(urlOf("huge"), loopback);
    expect(result).toMatchObject({ reachable: false, error: "Response larger than 1 MB" });
  });

  it("gives up on a server that never answers after the probe timeout, not later", async () => {
    const started = performance.now();
    const result = await probeServer(urlOf("slow"), { ...loopback, timeoutMs: 2_000 });
    const elapsed = performance.now() - started;
    expect(result).toMatchObject({ reachable: false, error: "No complete answer within 2000 ms" });
    expect(elapsed).toBeGreaterThanOrEqual(1_900);
    expect(elapsed).toBeLessThan(3_000);
  });

  it("refuses a loopback URL without PROBE_ALLOW_PRIVATE_HOSTS", async () => {
    const explicit = await probeServer(urlOf("reference"), { allowPrivateHosts: false });
    expect(explicit).toMatchObject({ reachable: false, error: "Refused 127.0.0.1: loopback address" });
    const previous = process.env.PROBE_ALLOW_PRIVATE_HOSTS;
    delete process.env.PROBE_ALLOW_PRIVATE_HOSTS;
    reloadEnv();
    try {
      const byDefault = await probeServer(urlOf("reference").replace("127.0.0.1", "localhost"));
      expect(byDefault).toMatchObject({ reachable: false, error: "Refused localhost: a local host name" });
    } finally {
      if (previous !== undefined) process.env.PROBE_ALLOW_PRIVATE_HOSTS = previous;
      reloadEnv();
    }
  });

  it("reports an invalid URL without throwing", async () => {
    expect(await probeServer("not a url", loopback)).toMatchObject({
      reachable: false,
      error: "Not a valid URL: not a url",
    });
  });

  it("has the reference server refuse a purchase without a valid payment", async () => {
    const client = new Client({ name: "test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(urlOf("reference")), { fetch: createSafeFetch(loopback) }),
    );
    const buy = (signedTransaction: string) =>
      client.callTool({
        name: "make-purchase",
        arguments: {
          itemId: "weather-now",
          params: { city: "Lisbon" },
          paymentMethod: "USDC_BASE_SEPOLIA",
          signedTransaction,
        },
      });
    try {
      const unpaid = await buy("");
      expect(unpaid.isError).toBe(true);
      expect((unpaid.content as { text: string }[])[0]!.text).toMatch(
        /^Payment required: "Current weather" costs \$0\.01 .* to 0x0+dEaD/,
      );
      const garbage = await buy("e30=");
      expect(garbage.isError).toBe(true);
      expect((garbage.content as { text: string }[])[0]!.text).toMatch(/^The payment is malformed/);
    } finally {
      await client.close();
    }
  });
});

async function addListing(
  db: Db,
  name: string,
  serverUrl: string,
  status: ReviewStatus = "approved",
  price: number | null = 9,
): Promise<string> {
  const [row] = await db
    .insert(listings)
    .values(
      toListingRow({ name, description: "A server the probe checks.", categories: ["AI"], serverUrl, status, price }),
    )
    .returning({ id: listings.id });
  return row!.id;
}

async function listingState(db: Db, id: string) {
  const [row] = await db
    .select({ price: listings.price, verified: listings.verified })
    .from(listings)
    .where(eq(listings.id, id));
  return { price: row!.price === null ? null : Number(row!.price), verified: row!.verified };
}

describe.each(drivers())("probe results in the database on %s", (driver) => {
  let conn: TestConnection;
  let reference: ProbeResult;
  let unpriced: ProbeResult;
  let down: ProbeResult;
  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    [reference, unpriced, down] = await Promise.all([
      probeServer(urlOf("reference"), loopback),
      probeServer(urlOf("no-pricing"), loopback),
      probeServer(urlOf("not-mcp"), loopback),
    ]);
  });
  afterAll(async () => conn?.close());

  it("sets the price and Verified of an approved listing from a verifiable probe, in one step", async () => {
    const id = await addListing(conn.db, "Probed approved", `${urlOf("reference")}?a`);
    const recorded = await recordCheck(conn.db, { id: id, revision: 1 }, reference);
    expect(recorded.listing).toEqual({ price: 0.01, verified: true });
    expect(await listingState(conn.db, id)).toEqual({ price: 0.01, verified: true });
    expect(recorded.probe).toMatchObject({
      listingId: id,
      reachable: true,
      verifiable: true,
      serverName: "agora-reference-monetized-server",
    });
    expect(recorded.probe.pricedItems).toHaveLength(7);
    expect(recorded.probe.paymentMethods[0]!.paymentMethod).toBe("USDC_BASE_SEPOLIA");
  });

  it("never marks a pending listing Verified, but still reads its price", async () => {
    const id = await addListing(conn.db, "Probed pending", `${urlOf("reference")}?p`, "pending");
    await recordCheck(conn.db, { id: id, revision: 1 }, reference);
    expect(await listingState(conn.db, id)).toEqual({ price: 0.01, verified: false });
  });

  it("takes Verified away after an unverifiable probe and keeps the price when prices were not read", async () => {
    const id = await addListing(conn.db, "Probed then broken", `${urlOf("reference")}?b`);
    await recordCheck(conn.db, { id: id, revision: 1 }, reference);
    await recordCheck(conn.db, { id: id, revision: 1 }, { ...unpriced, checkedAt: new Date(Date.now() + 1_000) });
    expect(await listingState(conn.db, id)).toEqual({ price: 0.01, verified: false });
  });

  it("marks a listing free when its price listing is empty", async () => {
    const id = await addListing(conn.db, "Free server", `${urlOf("reference")}?f`);
    await recordCheck(conn.db, { id: id, revision: 1 }, { ...reference, pricedItems: [], lowestPrice: null });
    expect(await listingState(conn.db, id)).toEqual({ price: null, verified: true });
  });

  it("keeps an out-of-date result as history without touching the listing", async () => {
    const id = await addListing(conn.db, "Late result", `${urlOf("reference")}?l`);
    await recordCheck(conn.db, { id: id, revision: 1 }, reference);
    const late = await recordCheck(
      conn.db,
      { id: id, revision: 1 },
      { ...down, checkedAt: new Date(reference.checkedAt.getTime() - HOUR) },
    );
    expect(late.listing).toBeNull();
    expect(await listingState(conn.db, id)).toEqual({ price: 0.01, verified: true });
    expect(await probeHistory(conn.db, id)).toHaveLength(2);
  });

  it("clears Verified once the last verifiable probe is more than 24 h old, or the listing is no longer approved", async () => {
    const stale = await addListing(conn.db, "Stale badge", `${urlOf("reference")}?s`);
    const demoted = await addListing(conn.db, "Demoted", `${urlOf("reference")}?d`);
    const fresh = await addListing(conn.db, "Fresh badge", `${urlOf("reference")}?fr`);
    const now = new Date();
    await recordCheck(
      conn.db,
      { id: stale, revision: 1 },
      { ...reference, checkedAt: new Date(now.getTime() - 23 * HOUR) },
      now,
    );
    await recordCheck(conn.db, { id: demoted, revision: 1 }, reference, now);
    await recordCheck(conn.db, { id: fresh, revision: 1 }, reference, now);
    await conn.db.update(listings).set({ status: "rejected" }).where(eq(listings.id, demoted));
    const later = new Date(now.getTime() + 2 * HOUR);
    await refreshVerifiedFlags(conn.db, later);
    const flags = await conn.db
      .select({ id: listings.id, verified: listings.verified })
      .from(listings)
      .where(inArray(listings.id, [stale, demoted, fresh]));
    expect(Object.fromEntries(flags.map((f) => [f.id, f.verified]))).toEqual({
      [stale]: false,
      [demoted]: false,
      [fresh]: true,
    });
    // A result that is already more than 24 h old never grants the badge.
    const old = await addListing(conn.db, "Old result", `${urlOf("reference")}?o`);
    await recordCheck(
      conn.db,
      { id: old, revision: 1 },
      { ...reference, checkedAt: new Date(now.getTime() - 25 * HOUR) },
      now,
    );
    expect((await listingState(conn.db, old)).verified).toBe(false);
  });

  it("keeps 30 days of history and computes uptime, median latency and daily counts", async () => {
    const id = await addListing(conn.db, "Uptime", `${urlOf("reference")}?u`);
    const now = new Date("2026-03-10T12:00:00Z");
    const at = (daysAgo: number, hour: number) => new Date(Date.UTC(2026, 2, 10 - daysAgo, hour));
    const checks: [Date, ProbeResult][] = [
      [at(0, 1), { ...reference, latencyMs: 30 }],
      [at(0, 2), { ...reference, latencyMs: 10 }],
      [at(1, 5), { ...down }],
      [at(1, 6), { ...reference, latencyMs: 20 }],
      [at(2, 9), { ...reference, latencyMs: 400 }],
      [at(40, 9), { ...down }], // outside the 30-day window
    ];
    for (const [checkedAt, result] of checks)
      await recordCheck(conn.db, { id: id, revision: 1 }, { ...result, checkedAt }, now);

    const history = await probeHistory(conn.db, id, 30, now);
    expect(history.map((p) => p.checkedAt.toISOString())).toEqual(
      checks
        .slice(0, 5)
        .map(([d]) => d.toISOString())
        .sort()
        .reverse(),
    );
    expect(await uptimeAndLatency(conn.db, id, 30, now)).toEqual({
      uptimePct: 80,
      medianLatencyMs: 25,
      checks: 5,
      daily: [
        { day: "2026-03-08", ok: 1, total: 1 },
        { day: "2026-03-09", ok: 1, total: 2 },
        { day: "2026-03-10", ok: 2, total: 2 },
      ],
    });
    expect(await uptimeAndLatency(conn.db, id, 1, now)).toMatchObject({
      uptimePct: 100,
      medianLatencyMs: 20,
      checks: 2,
    });
    expect(await uptimeAndLatency(conn.db, crypto.randomUUID())).toEqual({
      uptimePct: null,
      medianLatencyMs: null,
      checks: 0,
      daily: [],
    });
  });

  it("probes one listing on demand and serves the latest probe of each listing to the review queue", async () => {
    const submitted = await addListing(conn.db, "Just submitted", `${urlOf("quirky")}?q`, "pending", null);
    const other = await addListing(conn.db, "Checked twice", `${urlOf("reference")}?t`);
    const checked = await checkListing(conn.db, submitted, loopback);
    expect(checked?.result.quirks).toContain("price listing tool spelled `pricing-listing`");
    expect(checked?.listing).toEqual({ price: 0.01, verified: false });
    await recordCheck(conn.db, { id: other, revision: 1 }, down);
    const second = await recordCheck(
      conn.db,
      { id: other, revision: 1 },
      { ...reference, checkedAt: new Date(down.checkedAt.getTime() + 1_000) },
    );
    const never = await addListing(conn.db, "Never probed", `${urlOf("reference")}?n`);
    const latest = await latestProbes(conn.db, [submitted, other, never]);
    expect([...latest.keys()].sort()).toEqual([submitted, other].sort());
    expect(latest.get(other)?.id).toBe(second.probe.id);
    expect(latest.get(submitted)?.verifiable).toBe(true);
    expect(await checkListing(conn.db, crypto.randomUUID(), loopback)).toBeNull();
  });

  it("deletes a listing's probes with the listing", async () => {
    const id = await addListing(conn.db, "Deleted", `${urlOf("reference")}?x`);
    await recordCheck(conn.db, { id: id, revision: 1 }, reference);
    await conn.db.delete(listings).where(eq(listings.id, id));
    expect(await conn.db.select().from(listingProbes).where(eq(listingProbes.listingId, id))).toEqual([]);
  });

  it("check:all probes 1,000 listings a bounded number at a time; a server that never answers costs one timeout", async () => {
    await conn.db.delete(listings);
    const tracker: ConcurrencyTracker = { active: 0, peak: 0, total: 0 };
    const fleet = await Promise.all(
      [
        ["reference", "127.0.0.1"],
        ["reference", "127.0.0.2"],
        ["reference", "127.0.0.3"],
        ["quirky", "127.0.0.1"],
        ["no-pricing", "127.0.0.1"],
        ["not-mcp", "127.0.0.1"],
        ["sse-only", "127.0.0.1"],
      ].map(([variant, host]) => startReferenceServer({ port: 0, host, variant: variant as Variant, tracker })),
    );
    const slow = await startReferenceServer({ port: 0, variant: "slow", tracker });
    try {
      const rows = Array.from({ length: 999 }, (_, i) =>
        toListingRow({
          name: `Fleet ${i}`,
          slug: `fleet-${i}`,
          description: "One of many listings pointed at a few loopback servers.",
          categories: ["AI"],
          serverUrl: `${fleet[i % fleet.length]!.url}?listing=${i}`,
          status: i % 5 === 0 ? "pending" : "approved",
        }),
      );
      rows.push(
        toListingRow({
          name: "Never answers",
          slug: "never-answers",
          description: "Holds every request open.",
          categories: ["AI"],
          serverUrl: slow.url,
          status: "approved",
        }),
      );
      rows.push(
        toListingRow({
          name: "Rejected",
          slug: "rejected-one",
          description: "Never probed again.",
          categories: ["AI"],
          serverUrl: `${fleet[0]!.url}?rejected`,
          status: "rejected",
        }),
      );
      for (let i = 0; i < rows.length; i += 250) await conn.db.insert(listings).values(rows.slice(i, i + 250));

      let slowCost = 0;
      const surprises: string[] = [];
      const summary = await checkListings(conn.db, {
        ...loopback,
        concurrency: 8,
        onResult: (_, result) => {
          if (result.url === slow.url) slowCost = Date.now() - result.checkedAt.getTime();
          else if (result.error && !result.error.startsWith("Not an MCP server"))
            surprises.push(`${result.url}: ${result.error}`);
        },
      });
      console.log(
        `check:all on ${driver}: ${summary.listings} listings in ${(summary.durationMs / 1000).toFixed(1)} s at concurrency 8 ` +
          `(${summary.reachable} reachable, ${summary.verifiable} verifiable; peak ${tracker.peak} requests in flight; ${os.cpus().length} CPUs)`,
      );
      expect(surprises).toEqual([]);
      expect(summary).toMatchObject({ listings: 1000, notRecorded: 0, concurrency: 8 });
      // Of the 7 servers, the 3 reference ones, quirky and sse-only are verifiable; no-pricing and not-mcp are not.
      const perServer = (k: number) => rows.slice(0, 999).filter((_, i) => i % fleet.length === k).length;
      expect(summary.verifiable).toBe([0, 1, 2, 3, 6].reduce((n, k) => n + perServer(k), 0));
      expect(summary.unreachable).toBe(perServer(5) + 1);
      expect(slowCost).toBeLessThan(PROBE_TIMEOUT_MS + 1_000);
      // One probe holds at most its POST and its GET stream open at once.
      expect(tracker.peak).toBeGreaterThan(1);
      expect(tracker.peak).toBeLessThanOrEqual(8 * 2);
      const probes = await conn.db.select({ listingId: listingProbes.listingId }).from(listingProbes);
      expect(probes).toHaveLength(1000);
      const verified = await conn.db.select({ id: listings.id }).from(listings).where(eq(listings.verified, true));
      // Verified needs approval: pending listings (every fifth) stay unverified.
      const approvedVerifiable = rows
        .slice(0, 999)
        .filter((r, i) => r.status === "approved" && [0, 1, 2, 3, 6].includes(i % fleet.length)).length;
      expect(verified).toHaveLength(approvedVerifiable);
    } finally {
      await Promise.all([...fleet, slow].map((s) => s.close()));
    }
  }, 600_000);
});

describe("npm run check:all", () => {
  const run = promisify(execFile);
  const cli = path.resolve("scripts/check-all.ts");
  const tsx = path.resolve("node_modules/.bin/tsx");

  it("probes, prints a summary and exits 0 even when servers fail", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-verify-"));
    try {
      const conn = await openPglite(dir);
      await addListing(conn.db, "CLI reference", urlOf("reference"));
      await addListing(conn.db, "CLI broken", urlOf("not-mcp"), "pending");
      await conn.close();
      const { stdout } = await run(tsx, [cli, "--concurrency", "2"], {
        env: { ...process.env, DATABASE_URL: "", PGLITE_DIR: dir, PROBE_ALLOW_PRIVATE_HOSTS: "true" },
      });
      expect(stdout).toMatch(
        /Probed 2 listings in [\d.]+ s \(concurrency 2\): 1 reachable, 1 verifiable, 1 unreachable/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("exits non-zero when the database is unavailable", async () => {
    const failure = await run(tsx, [cli], {
      env: { ...process.env, DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" },
    }).catch((e: { code: number }) => e);
    expect((failure as { code: number }).code).toBe(1);
  }, 60_000);

  it("refuses a bad flag", async () => {
    const failure = await run(tsx, [cli, "--concurrency", "0"]).catch((e: { code: number; stderr: string }) => e);
    expect(failure).toMatchObject({ code: 2 });
  }, 60_000);
});
