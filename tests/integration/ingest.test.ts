// Ingesting the official MCP Registry as an aggregator. A local registry serves the real
// server.json documents (their remotes pointed at servers on loopback, since nothing here reaches the internet);
// paid servers become approved listings marked with their source, free ones are remembered, not listed.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestedServers, ingestSources, listings } from "@/db/schema";
import { runIngest } from "@/lib/ingest/run-ingest";
import { parseIngestSources } from "@/lib/config/ingest-sources";
import { normalizeServerUrl } from "@/lib/listings/submit/server-url";
import { insertListing } from "@/lib/listings/write";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { fixture, startFixtureRegistry, type FixtureRegistry, type RegistryEntry } from "../support/fixture-registry";
import { startPricedServer } from "../support/priced-server";

const loopback = { allowPrivateHosts: true, retryDelayMs: 10, timeoutMs: 5_000 };
const wallet = "0x3333333333333333333333333333333333333333";

describe("INGEST_SOURCES", () => {
  it("takes kind=baseUrl pairs and refuses a bad kind, URL or duplicate with a message naming the entry", () => {
    expect(parseIngestSources(undefined)).toEqual([]);
    expect(
      parseIngestSources(
        " mcp-registry=https://registry.modelcontextprotocol.io/ , x402-discovery=http://127.0.0.1:4020",
      ),
    ).toEqual([
      {
        kind: "mcp-registry",
        baseUrl: "https://registry.modelcontextprotocol.io",
        key: "mcp-registry=https://registry.modelcontextprotocol.io",
      },
      { kind: "x402-discovery", baseUrl: "http://127.0.0.1:4020", key: "x402-discovery=http://127.0.0.1:4020" },
    ]);
    expect(() => parseIngestSources("npm=https://registry.npmjs.org")).toThrow(
      /"npm=https:\/\/registry.npmjs.org": the kind must be one of mcp-registry, x402-discovery/,
    );
    expect(() => parseIngestSources("mcp-registry=ftp://example.com")).toThrow(/base URL must be an http\(s\) URL/);
    expect(() => parseIngestSources("mcp-registry=https://a.example,mcp-registry=https://a.example/")).toThrow(
      /listed twice/,
    );
  });
});

describe.each(drivers())("registry ingestion on %s", (driver) => {
  let conn: TestConnection;
  let registry: FixtureRegistry;
  const servers: Array<{ close: () => Promise<void> }> = [];
  let paidUrl: string;
  let freeUrl: string;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    const paid = await startPricedServer({
      items: [{ name: "instant-answer", amount: 0.02 }],
      wallet,
      extraTool: false,
    });
    const free = await startPricedServer({ items: [], wallet, extraTool: false });
    servers.push(paid, free);
    paidUrl = paid.url;
    freeUrl = free.url;
    const seed = fixture<Array<Record<string, unknown>>>("seed-current-shape.json");
    // The x402-paid server as published, in the registry's legacy `transports` shape; its remote is ours.
    const warppay = {
      ...fixture("io.github.golfgolfgolf200.warppay402-server.json"),
      transports: { "streamable-http": { url: paidUrl } },
    };
    const decisionrules = {
      ...fixture("io.decisionrules.mcp-server.json"),
      remotes: [{ type: "streamable-http", url: freeUrl }],
    };
    const entries: RegistryEntry[] = [
      ...seed.map((server, i) => ({ server, updatedAt: `2026-01-0${1 + (i % 5)}T00:00:00Z`, isLatest: i !== 1 })),
      { server: fixture("io.github.blueskylineassets.agent-observability.json"), updatedAt: "2026-01-06T00:00:00Z" },
      { server: { name: 42, description: "not a server.json" }, updatedAt: "2026-01-06T00:00:00Z" },
      { server: warppay, updatedAt: "2026-01-07T00:00:00Z" },
      { server: decisionrules, updatedAt: "2026-01-07T12:00:00Z", status: "deprecated" },
    ];
    registry = await startFixtureRegistry(entries);
  });
  afterAll(async () => {
    await Promise.all([registry?.close(), ...servers.map((s) => s.close())]);
    await conn?.close();
  });

  const sources = () => parseIngestSources(`mcp-registry=${registry.url}`);
  const imported = () => conn.db.select().from(listings).where(eq(listings.source, "mcp-registry"));

  it("pages through the registry, keeps latest versions with remotes, and lists only the server that charges", async () => {
    registry.failPage("2", 1); // the second page fails once and is retried
    const summary = await runIngest(conn.db, sources(), loopback);
    const run = summary.sources[0]!;
    expect("counts" in run && run.completed).toBe(true);
    if (!("counts" in run)) return;
    expect(run.errors).toEqual([]);
    expect(run.counts).toMatchObject({
      pages: 5,
      seen: 8,
      notLatest: 1,
      malformed: 1,
      candidates: 2,
      written: 2,
      hidden: 0,
    });
    expect(summary.candidates).toEqual({
      checked: 2,
      paid: 1,
      listed: 1,
      free: 1,
      unreachable: 0,
      refused: 0,
      notMcp: 0,
      priceMoved: 0,
      noOffer: 0,
      callFailed: 0,
      noAsk: 0,
    });

    const [listing] = await imported();
    expect(listing).toMatchObject({
      name: "warppay402-server",
      status: "approved",
      source: "mcp-registry",
      upstreamName: "io.github.golfgolfgolf200/warppay402-server",
      serverUrl: paidUrl,
      price: 0.02,
      verified: true,
    });
    expect(listing!.upstreamUrl).toBe(
      `${registry.url}/v0.1/servers/${encodeURIComponent("io.github.golfgolfgolf200/warppay402-server")}/versions/latest`,
    );
    expect(listing!.approvedTerms?.wallets).toEqual([{ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: wallet }]);
    // The free server is remembered (and will be checked again), not listed.
    const [free] = await conn.db.select().from(ingestedServers).where(eq(ingestedServers.remoteUrl, freeUrl));
    expect(free).toMatchObject({
      outcome: "free",
      status: "deprecated",
      listingId: null,
      upstreamName: "io.decisionrules/mcp-server",
    });
    expect(free!.nextCheckAt.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);
    const [state] = await conn.db.select().from(ingestSources);
    expect(state).toMatchObject({ cursor: null, highWaterMark: new Date("2026-01-07T12:00:00Z") });
  });

  it("a second run asks only for what changed since the high-water mark and writes nothing", async () => {
    const before = await conn.db.select().from(ingestedServers);
    registry.requests.length = 0;
    const summary = await runIngest(conn.db, sources(), loopback);
    expect(registry.requests[0]).toContain(`updated_since=${encodeURIComponent("2026-01-07T12:00:00.000Z")}`);
    const run = summary.sources[0]!;
    expect("counts" in run && run.counts.written).toBe(0);
    expect(summary.candidates.checked).toBe(0); // nothing due
    expect(await conn.db.select().from(ingestedServers)).toEqual(before);
    expect(await imported()).toHaveLength(1);
  });

  it("a server deleted upstream leaves every surface", async () => {
    registry.entries.push({
      server: registry.entries.find(
        (e) => (e.server as { name?: string }).name === "io.github.golfgolfgolf200/warppay402-server",
      )!.server,
      updatedAt: "2026-02-01T00:00:00Z",
      status: "deleted",
    });
    registry.entries.splice(
      registry.entries.findIndex((e) => e.updatedAt === "2026-01-07T00:00:00Z"),
      1,
    );
    const summary = await runIngest(conn.db, sources(), loopback);
    const run = summary.sources[0]!;
    expect(run.kind === "mcp-registry" && "hidden" in run.counts && run.counts.hidden).toBe(1);
    const [listing] = await imported();
    expect(listing).toMatchObject({ status: "rejected", verified: false });
  });

  it("a run that fails mid-way stops where it was and the next run resumes from that page", async () => {
    await conn.db.update(ingestSources).set({ highWaterMark: null });
    registry.failPage("4", 2); // twice: the retry fails too
    const stopped = (await runIngest(conn.db, sources(), loopback)).sources[0]!;
    expect("counts" in stopped && stopped.completed).toBe(false);
    expect("counts" in stopped && stopped.errors).toEqual(["page 3: the registry answered HTTP 500"]);
    const [state] = await conn.db.select().from(ingestSources);
    expect(state!.cursor).toBe("4");
    registry.requests.length = 0;
    const resumed = (await runIngest(conn.db, sources(), loopback)).sources[0]!;
    expect("counts" in resumed && resumed.completed).toBe(true);
    expect(registry.requests[0]).toContain("cursor=4");
  });
});

// A server submitted here and published in the registry too is one listing. The registry writes a server at the
// root of its host as `https://host` and the URL parser makes that `https://host/`, while a submission is stored in
// its one spelling without the trailing slash (normalizeServerUrl): the two must still be found to be the same.
describe.each(drivers())("a submitted server also published upstream on %s", (driver) => {
  let conn: TestConnection;
  let registry: FixtureRegistry;
  let paid: Awaited<ReturnType<typeof startPricedServer>>;
  let root: string;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    paid = await startPricedServer({ items: [{ name: "instant-answer", amount: 0.02 }], wallet, extraTool: false });
    root = new URL(paid.url).origin;
    registry = await startFixtureRegistry([
      {
        server: {
          name: "io.github.rootserver/tool",
          description: "At the root of its host.",
          remotes: [{ type: "streamable-http", url: root }],
        },
        updatedAt: "2026-01-07T00:00:00Z",
      },
    ]);
  });
  afterAll(async () => {
    await Promise.all([registry?.close(), paid?.close()]);
    await conn?.close();
  });

  it("is not listed a second time when its remote differs from the submitted URL only by the trailing slash", async () => {
    const submitted = await insertListing(conn.db, {
      name: "Root Server",
      description: "Submitted here first.",
      categories: [],
      serverUrl: normalizeServerUrl(`${root}/`),
      status: "approved",
    });
    expect(submitted.serverUrl).toBe(root);
    const summary = await runIngest(conn.db, parseIngestSources(`mcp-registry=${registry.url}`), loopback);
    expect(summary.candidates).toMatchObject({ checked: 1, paid: 1, listed: 0 });
    const all = await conn.db.select({ id: listings.id, serverUrl: listings.serverUrl }).from(listings);
    expect(all).toEqual([{ id: submitted.id, serverUrl: root }]);
    const [candidate] = await conn.db.select().from(ingestedServers);
    expect(candidate!.listingId).toBe(submitted.id);
  });
});
