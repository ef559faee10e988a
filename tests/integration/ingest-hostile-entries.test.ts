// Bad input: an upstream page mixing valid, malformed, duplicate and
// hostile entries. Each malformed entry is counted and skipped on its own — the rest of its page and the next page
// are read and the run completes; invisible characters and markup are taken out; a name copying a local listing's
// takes a suffix and nothing local is renamed, hidden or taken over; a remote on a private address is refused; a
// 3.4 MB page of 1,000 servers × 20 remotes is read whole, in one run, and one past the size cap in smaller pages.
import { eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestedServers, ingestSources, listings, type ListingRow } from "@/db/schema";
import { runIngest, type IngestOptions } from "@/lib/ingest/run-ingest";
import { parseIngestSources } from "@/lib/config/ingest-sources";
import { insertListing } from "@/lib/listings/write";
import { listEveryServer, serveRegistryApi, type AgoraRegistryApi } from "../support/agora-registry-api";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { fixture, startFixtureRegistry, type FixtureRegistry } from "../support/fixture-registry";
import { startPricedServer } from "../support/priced-server";

const OFFICIAL = "io.modelcontextprotocol.registry/official";
const options: IngestOptions = { retryDelayMs: 10, timeoutMs: 20_000 };
const base = fixture<Record<string, unknown>>("io.decisionrules.mcp-server.json");
const entry = (server: Record<string, unknown>) => ({
  server: { ...base, ...server },
  _meta: { [OFFICIAL]: { status: "active", updatedAt: "2026-04-01T00:00:00Z", isLatest: true } },
});
const remote = (url: string) => ({ remotes: [{ type: "streamable-http", url }] });

describe.each(drivers())("hostile upstream entries on %s", (driver) => {
  let conn: TestConnection;
  let registry: FixtureRegistry;
  let api: AgoraRegistryApi;
  let local: ListingRow;
  const paid: Array<Awaited<ReturnType<typeof startPricedServer>>> = [];
  let firstRun: Awaited<ReturnType<typeof runIngest>>;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    for (const amount of [0.01, 0.02, 0.03])
      paid.push(
        await startPricedServer({
          items: [{ name: "answer", amount }],
          wallet: "0x8888888888888888888888888888888888888888",
          extraTool: false,
        }),
      );
    // A listing submitted here: "dev.agora-mcp/weather-now" in the registry API.
    local = await insertListing(conn.db, {
      name: "Weather Now",
      slug: "weather-now",
      description: "Local forecasts.",
      categories: ["Weather"],
      status: "approved",
      serverUrl: paid[2]!.url,
    });
    const page1 = [
      entry({ name: "io.github.good/alpha", ...remote(paid[0]!.url) }),
      { _meta: {} }, // no server object
      "just a string",
      { server: { name: 42 } },
      entry({ name: "io.github.good/alpha", ...remote(`${paid[0]!.url}?via=duplicate`) }),
      entry({ name: "dev.agora-mcp/weather-now", title: "Weather Now", ...remote(`${paid[1]!.url}?via=copy`) }),
      entry({
        name: "io.github.attacker/weather",
        title: "Weather Now",
        description: "Mine now.",
        ...remote(paid[2]!.url),
      }),
      entry({
        name: "io.github.big/huge",
        description: "Huge. ".repeat(180_000),
        ...remote(`${paid[0]!.url}?via=huge`),
      }),
      entry({
        name: "io.github.evil/wea\u200bther\u202e",
        title: "Wea\u200bther <b>Now</b>\u202e",
        description: "Fine\u2066 print\u2069, <script>x</script>bold.",
        ...remote(`${paid[1]!.url}?via=evil`),
      }),
      entry({ name: "com.example/private", ...remote("http://10.1.2.3/mcp") }),
    ];
    const page2 = [entry({ name: "io.github.good/omega", ...remote(`${paid[2]!.url}?via=omega`) })];
    registry = await startFixtureRegistry([]);
    registry.misbehave = (_req, res, url) => {
      const second = url.searchParams.get("cursor") === "2";
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ servers: second ? page2 : page1, metadata: second ? {} : { nextCursor: "2" } }));
    };
    // As in production: the source is the operator's (allowed), the servers it names are checked under the guard —
    // which refuses every loopback server here too; a week later (below) they are checked with loopback allowed.
    firstRun = await runIngest(conn.db, sources(), {
      ...options,
      allowPrivateHosts: false,
      sourceAllowPrivateHosts: true,
    });
    await conn.db
      .update(ingestedServers)
      .set({ nextCheckAt: sql`now()` })
      .where(like(ingestedServers.remoteUrl, "http://127.0.0.1%"));
    await runIngest(conn.db, sources(), { ...options, allowPrivateHosts: true });
    api = await serveRegistryApi(conn);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([registry?.close(), api?.close(), ...paid.map((p) => p.close())]);
    await conn?.close();
  });

  const sources = () => parseIngestSources(`mcp-registry=${registry.url}`);
  const listingAt = async (url: string) =>
    (await conn.db.select().from(listings).where(eq(listings.serverUrl, url)))[0];

  it("reads every valid entry of both pages, counts every other one by reason, and completes", () => {
    const run = firstRun.sources[0]!;
    expect(run).toMatchObject({ completed: true, errors: [] });
    expect(run.counts).toMatchObject({
      pages: 2,
      seen: 8,
      malformed: 3,
      duplicateName: 1,
      htmlStripped: 1,
      invisibleStripped: 1,
      candidates: 7,
    });
    expect(firstRun.candidates).toMatchObject({ refused: 7, listed: 0 });
  });

  it("lists the valid paid servers, cleaned, and refuses the private remote", async () => {
    expect(await listingAt(paid[0]!.url)).toMatchObject({
      upstreamName: "io.github.good/alpha",
      registryName: "io.github.good/alpha",
      status: "approved",
    });
    expect(await listingAt(`${paid[2]!.url}?via=omega`)).toMatchObject({
      registryName: "io.github.good/omega",
      status: "approved",
    });
    const evil = await listingAt(`${paid[1]!.url}?via=evil`);
    expect(evil).toMatchObject({
      upstreamName: "io.github.evil/weather",
      registryName: "io.github.evil/weather",
      name: "Weather Now",
      description: "Fine print, x bold.",
    });
    const huge = await listingAt(`${paid[0]!.url}?via=huge`);
    expect(huge!.description.length).toBeLessThanOrEqual(1000);
    expect(huge!.description).toMatch(/^Huge\. Huge\./);
    expect(await listingAt(`${paid[0]!.url}?via=duplicate`)).toBeUndefined();
    const [priv] = await conn.db
      .select()
      .from(ingestedServers)
      .where(eq(ingestedServers.remoteUrl, "http://10.1.2.3/mcp"));
    expect(priv).toMatchObject({ outcome: "refused", listingId: null });
    expect(await listingAt("http://10.1.2.3/mcp")).toBeUndefined();
  });

  it("takes over nothing local: a copied name takes a suffix, a shared remote stays the local listing's", async () => {
    const [after] = await conn.db.select().from(listings).where(eq(listings.id, local.id));
    expect(after).toMatchObject({
      name: local.name,
      slug: local.slug,
      description: local.description,
      status: "approved",
      source: "agora",
      upstreamName: null,
      registryName: null,
      submitterId: local.submitterId,
    });
    expect(await listingAt(`${paid[1]!.url}?via=copy`)).toMatchObject({
      upstreamName: "dev.agora-mcp/weather-now",
      registryName: "dev.agora-mcp/weather-now-2",
    });
    const names = (await listEveryServer(api.url)).map((e) => e.server.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(["dev.agora-mcp/weather-now", "dev.agora-mcp/weather-now-2"]));
    const mine = (await (
      await fetch(`${api.url}/v0.1/servers/dev.agora-mcp%2Fweather-now/versions/latest`)
    ).json()) as { server: { remotes: { url: string }[] } };
    expect(mine.server.remotes).toEqual([{ type: "streamable-http", url: local.serverUrl }]);
  });

  it("leaves nothing half-written: every imported listing has its candidate and its name", async () => {
    const imported = await conn.db.select().from(listings).where(eq(listings.source, "mcp-registry"));
    expect(imported).toHaveLength(5);
    const candidates = await conn.db.select().from(ingestedServers);
    for (const listing of imported) {
      expect(listing.registryName).not.toBeNull();
      expect(candidates.find((c) => c.remoteUrl === listing.serverUrl)?.listingId).toBe(listing.id);
    }
  });

  it("reads a 3.4 MB page of 1,000 servers × 20 remotes in one run, without overflowing the stack", async () => {
    const servers = Array.from({ length: 1000 }, (_, i) =>
      entry({
        name: `io.github.big/server-${i}`,
        remotes: Array.from({ length: 20 }, (_, j) => ({
          type: "streamable-http",
          url: `https://region-${j}.server-${i}.a-very-large-registry.example/mcp/v1/streamable-http?tenant=agents-and-assistants-${j}`,
        })),
      }),
    );
    const body = JSON.stringify({ servers, metadata: {} });
    expect(body.length).toBeGreaterThan(3_400_000);
    registry.misbehave = (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(body);
    await conn.db.delete(ingestSources); // a fresh source state: the whole list, from the first page
    const run = (await runIngest(conn.db, sources(), { ...options, allowPrivateHosts: true, limit: 0 })).sources[0]!;
    expect(run).toMatchObject({ completed: true, errors: [] });
    expect(run.counts).toMatchObject({ pages: 1, seen: 1000, malformed: 0, candidates: 20_000, written: 20_000 });
    const [state] = await conn.db.select().from(ingestSources);
    expect(state).toMatchObject({ cursor: null, runStartedAt: null });

    // Past the size cap (here 1 MB), the page is asked for again in smaller pages: the source is never stuck on it.
    const limits: string[] = [];
    registry.misbehave = (_req, res, url) => {
      const limit = Number(url.searchParams.get("limit"));
      limits.push(String(limit));
      if (limit > 10) return res.writeHead(200, { "content-type": "application/json" }).end(body);
      const start = Number(url.searchParams.get("cursor") ?? "0");
      const small = Array.from({ length: Math.min(limit, 25 - start) }, (_, i) =>
        entry({ name: `io.github.small/server-${start + i}`, ...remote(`http://127.0.0.1:9/small-${start + i}`) }),
      );
      const next = start + limit < 25 ? { nextCursor: String(start + limit) } : {};
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ servers: small, metadata: next }));
    };
    await conn.db.delete(ingestSources);
    const capped = (
      await runIngest(conn.db, sources(), { ...options, allowPrivateHosts: true, limit: 0, sourceMaxBytes: 1_000_000 })
    ).sources[0]!;
    expect(capped).toMatchObject({ completed: true, errors: [] });
    expect(capped.counts).toMatchObject({ seen: 25, candidates: 25 });
    expect(limits.slice(0, 3)).toEqual(["100", "100", "10"]);
  }, 120_000);
});
