// A second Agora as the upstream. Agora A's real /v0.1/servers route handlers
// are served on loopback; Agora B (its own database) ingests them as an MCP Registry source. A's paid servers
// become paid listings on B, each under the name A gives it (an entry A imported itself keeps its upstream
// name through both); A's free server is remembered on B, not listed. A server paid through x402's MCP transport
// (nothing in tools/list) is listed on B too: A's entry names its paid tool in `_meta["dev.agora-mcp/paid-tools"]`.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestedServers, listings } from "@/db/schema";
import { setDatabase } from "@/lib/database";
import { runIngest } from "@/lib/ingest/run-ingest";
import { parseIngestSources } from "@/lib/config/ingest-sources";
import { recordCheck } from "@/lib/listings/checks/drift";
import { insertListing } from "@/lib/listings/write";
import { probeServer } from "@/lib/probe";
import { serveRegistryApi } from "../support/agora-registry-api";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startPaidStyleServer, type PaidStyleServer } from "../support/paid-style-server";
import { startPricedServer } from "../support/priced-server";

const wallet = "0x6666666666666666666666666666666666666666";

describe.each(drivers())("one Agora ingesting another on %s", (driver) => {
  let a: TestConnection;
  let b: TestConnection;
  let agoraA: { url: string; close: () => Promise<void> };
  const servers: Array<{ close: () => Promise<void> }> = [];
  let forecasts: PaidStyleServer;

  beforeAll(async () => {
    [a, b] = await Promise.all([openTestDatabase(driver), openTestDatabase(driver)]);
    setDatabase(a); // the route handlers read Agora A's database
    const [paid, imported, free] = await Promise.all([
      startPricedServer({ items: [{ name: "summary", amount: 0.04 }], wallet, extraTool: false }),
      startPricedServer({ items: [{ name: "quote", amount: 0.5 }], wallet, extraTool: false }),
      startPricedServer({ items: [], wallet, extraTool: false }),
    ]);
    servers.push(paid, imported, free);
    const listing = { categories: ["Data"], websiteUrl: null, status: "approved" as const };
    await insertListing(a.db, {
      ...listing,
      name: "Summaries",
      slug: "summaries",
      description: "Paid summaries, listed on Agora A.",
      serverUrl: paid.url,
      price: 0.04,
    });
    await insertListing(a.db, {
      ...listing,
      name: "Quotes",
      slug: "quotes",
      description: "Paid quotes Agora A found in the MCP Registry.",
      serverUrl: imported.url,
      price: 0.5,
      source: "mcp-registry",
      upstreamName: "io.github.quoter/quotes",
      // As ingestion stores it: the name A lists it under (lib/ingest/naming.ts).
      registryName: "io.github.quoter/quotes",
      upstreamUrl: "https://registry.example/v0.1/servers/io.github.quoter%2Fquotes/versions/latest",
      upstreamStatus: "active",
    });
    await insertListing(a.db, {
      ...listing,
      name: "Free Things",
      slug: "free-things",
      description: "Free, listed on Agora A.",
      serverUrl: free.url,
      price: null,
    });
    // Listed on A with the price its named tool asked (as A's own ingestion or its owner would have named it).
    forecasts = await startPaidStyleServer([{ name: "forecast", style: "x402-mcp" }, { name: "echo" }], wallet);
    servers.push(forecasts);
    const onA = await insertListing(a.db, {
      ...listing,
      name: "Forecasts",
      slug: "forecasts",
      description: "Forecasts paid through x402's MCP transport.",
      serverUrl: forecasts.url,
    });
    await recordCheck(
      a.db,
      onA,
      await probeServer(forecasts.url, { allowPrivateHosts: true, paidTools: [{ name: "forecast", reason: "owner" }] }),
    );
    agoraA = await serveRegistryApi(a);
  });
  afterAll(async () => {
    await Promise.all([agoraA?.close(), ...servers.map((s) => s.close())]);
    await Promise.all([a?.close(), b?.close()]);
  });

  it("B lists A's paid servers as paid listings from the registry, under A's names, and remembers the free one", async () => {
    const summary = await runIngest(b.db, parseIngestSources(`mcp-registry=${agoraA.url}`), {
      allowPrivateHosts: true,
      retryDelayMs: 10,
      timeoutMs: 20_000,
    });
    expect(summary.sources[0]).toMatchObject({ completed: true, errors: [] });
    expect(summary.sources[0]!.counts).toMatchObject({ seen: 4, candidates: 4, namedTools: 1 });
    expect(summary.candidates).toMatchObject({ checked: 4, paid: 3, listed: 3, free: 1 });

    const onB = await b.db.select().from(listings).where(eq(listings.status, "approved"));
    expect(onB.map((l) => [l.upstreamName, l.source, l.price, l.verified]).sort()).toEqual(
      [
        ["dev.agora-mcp/summaries", "mcp-registry", 0.04, true],
        ["io.github.quoter/quotes", "mcp-registry", 0.5, true],
        ["dev.agora-mcp/forecasts", "mcp-registry", 0.01, true],
      ].sort(),
    );
    // A's check and B's each asked the named tool twice; the free one was never called.
    expect(forecasts.calls).toEqual({ forecast: 4, echo: 0 });
    // B's link to the entry on A answers with that entry (A finds an imported listing by its upstream name too).
    for (const listing of onB) {
      const res = await fetch(listing.upstreamUrl!);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { server: { name: string; remotes: { url: string }[] } }).server).toMatchObject({
        name: listing.upstreamName,
        remotes: [{ url: listing.serverUrl }],
      });
    }
    const [free] = await b.db.select().from(ingestedServers).where(eq(ingestedServers.outcome, "free"));
    expect(free).toMatchObject({ upstreamName: "dev.agora-mcp/free-things", listingId: null });
  });

  it("a second run over an unchanged A writes nothing on B", async () => {
    const before = await b.db.select().from(ingestedServers);
    const summary = await runIngest(b.db, parseIngestSources(`mcp-registry=${agoraA.url}`), {
      allowPrivateHosts: true,
      retryDelayMs: 10,
    });
    expect(summary.sources[0]!.counts.written).toBe(0);
    expect(await b.db.select().from(ingestedServers)).toEqual(before);
  });
});
