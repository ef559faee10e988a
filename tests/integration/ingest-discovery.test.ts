// The sandbox's facilitator answers /discovery/resources, and an
// Agora with INGEST_SOURCES naming it (and a registry) lists the paid MCP servers it finds there — each remote
// once, whichever sources list it — and remembers the free ones; a free one that starts charging appears.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestedServers, ingestSources, listings } from "@/db/schema";
import { runIngest } from "@/lib/ingest/run-ingest";
import { parseIngestSources } from "@/lib/config/ingest-sources";
import { ANVIL_TEST_KEYS } from "@/sandbox/chain";
import { startFacilitator, type LocalFacilitator } from "@/sandbox/facilitator";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { fixture, startFixtureRegistry, type FixtureRegistry } from "../support/fixture-registry";
import { startPricedServer } from "../support/priced-server";

const loopback = { allowPrivateHosts: true, retryDelayMs: 10, timeoutMs: 20_000 };
const wallet = "0x4444444444444444444444444444444444444444";
const mcp = (resource: string, serviceName: string, toolName = "answer") => ({
  resource,
  type: "mcp" as const,
  x402Version: 2,
  accepts: [],
  lastUpdated: "2026-01-01T00:00:00Z",
  serviceName,
  description: `${serviceName}: a <b>paid</b> tool`,
  extensions: {
    bazaar: {
      info: { input: { type: "mcp", toolName, transport: "streamable-http", inputSchema: { type: "object" } } },
    },
  },
});

describe.each(drivers())("x402 discovery ingestion on %s", (driver) => {
  let conn: TestConnection;
  let facilitator: LocalFacilitator;
  let registry: FixtureRegistry;
  const servers: Array<{ close: () => Promise<void> }> = [];
  let paidUrl: string;
  let sharedUrl: string;
  let free: Awaited<ReturnType<typeof startPricedServer>>;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    const paid = await startPricedServer({ items: [{ name: "forecast", amount: 0.05 }], wallet, extraTool: false });
    const shared = await startPricedServer({ items: [{ name: "report", amount: 0.25 }], wallet, extraTool: false });
    free = await startPricedServer({ items: [], wallet, extraTool: false });
    servers.push(paid, shared, free);
    [paidUrl, sharedUrl] = [paid.url, shared.url];
    // The facilitator never settles here, so its chain is never asked: a closed port stands in for it.
    facilitator = await startFacilitator({ rpcUrl: "http://127.0.0.1:9", privateKey: ANVIL_TEST_KEYS.facilitator });
    facilitator.discovery.add(mcp(paidUrl, "Forecasts", "forecast"));
    facilitator.discovery.add(mcp(paidUrl, "Forecasts", "history")); // a second paid tool of the same server
    facilitator.discovery.add(mcp(sharedUrl, "Reports seen by the facilitator"));
    facilitator.discovery.add(mcp(free.url, "Free things"));
    facilitator.discovery.add({ ...mcp("http://127.0.0.1:9/api", "An HTTP API"), type: "http" });
    facilitator.discovery.add({ ...mcp("ftp://127.0.0.1/mcp", "Not http"), type: "mcp" });
    // Enough servers nobody answers at to need a second page (100 per page).
    for (let i = 0; i < 101; i++) facilitator.discovery.add(mcp(`http://127.0.0.1:9/gone-${i}`, `Gone ${i}`));
    const registered = {
      ...fixture("io.github.golfgolfgolf200.warppay402-server.json"),
      transports: undefined,
      remotes: [{ type: "streamable-http", url: sharedUrl }],
    };
    registry = await startFixtureRegistry([{ server: registered, updatedAt: "2026-01-02T00:00:00Z" }]);
  });
  afterAll(async () => {
    await Promise.all([facilitator?.close(), registry?.close(), ...servers.map((s) => s.close())]);
    await conn?.close();
  });

  const sources = () => parseIngestSources(`mcp-registry=${registry.url},x402-discovery=${facilitator.url}`);
  const listed = () => conn.db.select().from(listings).where(eq(listings.status, "approved"));

  it("lists the paid MCP servers of the discovery list once each, merged with the registry's by remote URL", async () => {
    const summary = await runIngest(conn.db, sources(), { ...loopback, limit: 500 });
    const [reg, disc] = summary.sources;
    expect(reg).toMatchObject({ kind: "mcp-registry", completed: true, errors: [] });
    expect(disc).toMatchObject({ kind: "x402-discovery", completed: true, errors: [] });
    // Two pages of MCP resources (the http one is not asked for); the ftp one is malformed; the same server's
    // second tool is one candidate; the registry's server is merged, not duplicated.
    expect(disc!.counts).toMatchObject({
      pages: 2,
      seen: 106,
      malformed: 1,
      candidates: 104,
      written: 103,
      merged: 1,
      htmlStripped: 105,
    });
    expect(summary.candidates).toMatchObject({ checked: 104, paid: 2, listed: 2, free: 1, unreachable: 101 });

    const rows = await listed();
    expect(rows.map((r) => [r.serverUrl, r.source, r.upstreamName]).sort()).toEqual(
      [
        [paidUrl, "x402-discovery", "Forecasts"],
        [sharedUrl, "mcp-registry", "io.github.golfgolfgolf200/warppay402-server"],
      ].sort(),
    );
    const fromDiscovery = rows.find((r) => r.serverUrl === paidUrl)!;
    expect(fromDiscovery).toMatchObject({
      name: "Forecasts",
      description: "Forecasts: a paid tool",
      price: 0.05,
      verified: true,
      upstreamStatus: "active",
    });
    expect(fromDiscovery.upstreamUrl).toBe(`${facilitator.url}/discovery/resources?type=mcp`);
    const candidates = await conn.db.select().from(ingestedServers);
    expect(candidates.filter((c) => c.remoteUrl === sharedUrl)).toHaveLength(1);
    expect(candidates.find((c) => c.remoteUrl === sharedUrl)!.sourceKey).toBe(`mcp-registry=${registry.url}`);
    const [state] = await conn.db
      .select()
      .from(ingestSources)
      .where(eq(ingestSources.key, `x402-discovery=${facilitator.url}`));
    expect(state).toMatchObject({ cursor: null, lastErrors: [] });
  });

  it("a second run writes nothing, in either order of the sources", async () => {
    const before = await conn.db.select().from(ingestedServers);
    const summary = await runIngest(conn.db, [...sources()].reverse(), loopback);
    for (const run of summary.sources) expect(run.counts.written).toBe(0);
    expect(summary.candidates.checked).toBe(0);
    expect(await conn.db.select().from(ingestedServers)).toEqual(before);
    expect(await listed()).toHaveLength(2);
  });

  it("a free server that starts charging is listed at its next, slower re-check", async () => {
    free.state.items.push({ name: "premium", amount: 0.01 });
    // Not due yet: half a day later nothing is checked again.
    const later = await runIngest(conn.db, sources(), { ...loopback, now: new Date(Date.now() + 12 * 3600_000) });
    expect(later.candidates.checked).toBe(0);
    const nextWeek = await runIngest(conn.db, sources(), {
      ...loopback,
      limit: 500,
      now: new Date(Date.now() + 8 * 24 * 3600_000),
    });
    // Everything is due by then: the two listed servers again, and the one that now charges, newly listed.
    expect(nextWeek.candidates).toMatchObject({ paid: 3, listed: 1, free: 0 });
    const row = (await listed()).find((r) => r.serverUrl === free.url);
    expect(row).toMatchObject({ source: "x402-discovery", name: "Free things", price: 0.01 });
  });
});
