// One Agora ingesting another keeps every field of every
// listing — full description, categories, listing date, website, price — says where each came from, and both
// Agoras resolve every name they list, under /versions and /versions/latest, whatever the listing's slug. Agora B
// has a listing of its own whose name Agora A's copies: B's stays as it was and the import takes a suffix.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listings, type ListingRow } from "@/db/schema";
import { runIngest } from "@/lib/ingest/run-ingest";
import { parseIngestSources } from "@/lib/config/ingest-sources";
import { insertListing } from "@/lib/listings/write";
import { listEveryServer, serveRegistryApi, type AgoraRegistryApi } from "../support/agora-registry-api";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startPricedServer } from "../support/priced-server";

const wallet = "0x7777777777777777777777777777777777777777";
const OFFICIAL = "io.modelcontextprotocol.registry/official";
// Far past server.json's 100 characters, within a listing's 1,000.
const LONG =
  Array.from({ length: 90 }, (_, i) => `word${i}`).join(" ") + ". Forecasts, radar and written reports for agents.";

describe.each(drivers())("federation between two Agoras on %s", (driver) => {
  let a: TestConnection;
  let b: TestConnection;
  let apiA: AgoraRegistryApi;
  let apiB: AgoraRegistryApi;
  let localOnB: ListingRow;
  const servers: Array<{ url: string; close: () => Promise<void> }> = [];

  beforeAll(async () => {
    [a, b] = await Promise.all([openTestDatabase(driver), openTestDatabase(driver)]);
    for (const amount of [0.04, 0.25, 0.5])
      servers.push(await startPricedServer({ items: [{ name: "answer", amount }], wallet, extraTool: false }));
    const approved = { status: "approved" as const };
    // A slug that is not the name's slug: B would derive "sandbox-weather-reports" from the title.
    await insertListing(a.db, {
      ...approved,
      name: "Sandbox Weather & Reports",
      slug: "sandbox-weather-and-reports",
      description: LONG,
      categories: ["Weather", "Data"],
      websiteUrl: "https://weather.example/about",
      serverUrl: servers[0]!.url,
      price: 0.04,
      createdAt: new Date("2026-01-15T08:30:00Z"),
    });
    await insertListing(a.db, {
      ...approved,
      name: "Summaries",
      slug: "summaries",
      description: "Summaries of long documents, paid per call.",
      categories: ["Writing"],
      websiteUrl: null,
      serverUrl: servers[1]!.url,
      price: 0.25,
      createdAt: new Date("2026-02-01T00:00:00Z"),
    });
    await insertListing(a.db, {
      ...approved,
      name: "Quotes",
      slug: "quotes",
      description: "Paid quotes Agora A found in the MCP Registry.",
      categories: ["Finance"],
      websiteUrl: null,
      serverUrl: servers[2]!.url,
      price: 0.5,
      source: "mcp-registry",
      upstreamName: "io.github.quoter/quotes",
      registryName: "io.github.quoter/quotes",
      upstreamUrl: "https://registry.example/v0.1/servers/io.github.quoter%2Fquotes/versions/latest",
      upstreamStatus: "active",
      createdAt: new Date("2026-03-01T00:00:00Z"),
    });
    // B's own listing, named dev.agora-mcp/summaries like A's.
    localOnB = await insertListing(b.db, {
      ...approved,
      name: "Summaries",
      slug: "summaries",
      description: "B's own summaries.",
      categories: ["Local"],
      websiteUrl: null,
      serverUrl: "https://summaries.b.example/mcp",
    });
    [apiA, apiB] = await Promise.all([serveRegistryApi(a), serveRegistryApi(b)]);
    const summary = await runIngest(b.db, parseIngestSources(`mcp-registry=${apiA.url}`), {
      allowPrivateHosts: true,
      retryDelayMs: 10,
      timeoutMs: 20_000,
    });
    expect(summary.sources[0]).toMatchObject({ completed: true, errors: [] });
    expect(summary.candidates).toMatchObject({ listed: 3 });
  });
  afterAll(async () => {
    await Promise.all([apiA?.close(), apiB?.close(), ...servers.map((s) => s.close())]);
    await Promise.all([a?.close(), b?.close()]);
  });

  it("B keeps every field of every listing A lists, and says where each came from", async () => {
    const onA = await a.db.select().from(listings);
    const entriesOnA = await listEveryServer(apiA.url);
    for (const listing of onA) {
      const [copy] = await b.db.select().from(listings).where(eq(listings.serverUrl, listing.serverUrl));
      const nameOnA = entriesOnA.find((e) => e.server.remotes[0]!.url === listing.serverUrl)!.server.name;
      expect(copy, listing.name).toMatchObject({
        name: listing.name,
        description: listing.description,
        categories: listing.categories,
        websiteUrl: listing.websiteUrl,
        price: listing.price,
        createdAt: listing.createdAt,
        status: "approved",
        source: "mcp-registry",
        upstreamName: nameOnA,
        upstreamUrl: `${apiA.url}/v0.1/servers/${encodeURIComponent(nameOnA)}/versions/latest`,
      });
    }
    // Through B's API as well: the full text, the categories and A's listing date, with the entry upstream.
    const entriesOnB = (await listEveryServer(apiB.url)) as unknown as Array<{
      server: { name: string; remotes: { url: string }[]; _meta: Record<string, Record<string, unknown>> };
      _meta: Record<string, { publishedAt: string }>;
    }>;
    for (const listing of onA) {
      const entry = entriesOnB.find((e) => e.server.remotes[0]!.url === listing.serverUrl)!;
      expect(entry.server._meta["dev.agora-mcp/listing"]).toMatchObject({
        description: listing.description,
        categories: listing.categories,
        source: "mcp-registry",
        upstream: { url: expect.stringContaining(apiA.url) },
      });
      expect(entry._meta[OFFICIAL]!.publishedAt).toBe(listing.createdAt.toISOString());
    }
  });

  it("B's own listing is neither renamed nor taken over; the copy of its name takes a suffix", async () => {
    const [mine] = await b.db.select().from(listings).where(eq(listings.id, localOnB.id));
    expect(mine).toEqual(localOnB);
    const names = (await listEveryServer(apiB.url)).map((e) => e.server.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "dev.agora-mcp/summaries",
        "dev.agora-mcp/summaries-2",
        "dev.agora-mcp/sandbox-weather-and-reports",
        "io.github.quoter/quotes",
      ]),
    );
  });

  it("every name either Agora lists is listed once and resolves, under /versions and /versions/latest", async () => {
    for (const api of [apiA, apiB]) {
      const entries = await listEveryServer(api.url);
      const names = entries.map((e) => e.server.name);
      expect(new Set(names).size).toBe(names.length);
      for (const entry of entries) {
        const encoded = encodeURIComponent(entry.server.name);
        for (const path of [encoded, `${encoded}/versions/latest`, `${entry.server.name}/versions/latest`]) {
          const res = await fetch(`${api.url}/v0.1/servers/${path}`);
          expect(res.status, `${api.url} ${path}`).toBe(200);
          expect(((await res.json()) as { server: { remotes: { url: string }[] } }).server.remotes).toEqual(
            entry.server.remotes,
          );
        }
        const versions = await fetch(`${api.url}/v0.1/servers/${encoded}/versions`);
        expect(versions.status).toBe(200);
        expect(
          ((await versions.json()) as { servers: { server: { name: string } }[] }).servers.map((s) => s.server.name),
        ).toEqual([entry.server.name]);
      }
    }
  });

  it("a later change upstream (categories and text) reaches B on its next run", async () => {
    const [weather] = await a.db.select().from(listings).where(eq(listings.slug, "sandbox-weather-and-reports"));
    const changed = { categories: ["Weather", "Maps"], description: `${LONG} Now with tide tables.` };
    await a.db
      .update(listings)
      .set({ ...changed, updatedAt: new Date() })
      .where(eq(listings.id, weather!.id));
    const summary = await runIngest(b.db, parseIngestSources(`mcp-registry=${apiA.url}`), {
      allowPrivateHosts: true,
      retryDelayMs: 10,
      timeoutMs: 20_000,
    });
    expect(summary.sources[0]).toMatchObject({ completed: true, errors: [] });
    const [copy] = await b.db.select().from(listings).where(eq(listings.serverUrl, weather!.serverUrl));
    expect(copy).toMatchObject(changed);
  });
});
