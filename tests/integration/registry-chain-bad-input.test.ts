// Upstreams that misbehave, read by a real Agora (its own database, /v0.1 on loopback) with a real paid MCP server as
// every entry's remote: an entry flipped between active and deleted on every page, dates in the future or out of
// order, a name spelled with another case or a trailing slash, 10,000 versions of one server, and two Agoras reading
// each other. No entry is duplicated, lost, resurrected after its deletion or dated in the future; the loop is named
// in the run's log.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type http from "node:http";
import { ingestSources, listings, upstreamVersions } from "@/db/schema";
import { parseIngestSources } from "@/lib/config/ingest-sources";
import { runIngest } from "@/lib/ingest/run-ingest";
import { insertListing } from "@/lib/listings/write";
import { serveRegistryApi, type AgoraRegistryApi } from "../support/agora-registry-api";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startFixtureRegistry, type FixtureRegistry } from "../support/fixture-registry";
import { startPricedServer } from "../support/priced-server";

const OFFICIAL = "io.modelcontextprotocol.registry/official";
type Entry = {
  server: { name: string; version: string; remotes: { url: string }[] };
  _meta: { [OFFICIAL]: { status: string; updatedAt: string; publishedAt: string } };
};
type Page = {
  status?: "active" | "deleted" | "deprecated";
  name: string;
  version?: string;
  updatedAt: string;
  publishedAt?: string;
  isLatest?: boolean;
  remote: string;
};

/** Serves the given pages in order, one per cursor, whatever the query asks (a misbehaving upstream). */
function servePages(registry: FixtureRegistry, pages: Page[][]) {
  registry.misbehave = (_req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    const index = Number(url.searchParams.get("cursor") ?? 0);
    const body = {
      servers: (pages[index] ?? []).map((p) => ({
        server: {
          name: p.name,
          description: "A paid server.",
          version: p.version ?? "1.0.0",
          remotes: [{ type: "streamable-http", url: p.remote }],
        },
        _meta: {
          [OFFICIAL]: {
            status: p.status ?? "active",
            publishedAt: p.publishedAt ?? p.updatedAt,
            updatedAt: p.updatedAt,
            isLatest: p.isLatest ?? true,
          },
        },
      })),
      metadata: index + 1 < pages.length ? { nextCursor: String(index + 1) } : {},
    };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  };
}

async function everyEntry(api: AgoraRegistryApi): Promise<Entry[]> {
  const res = await fetch(`${api.url}/v0.1/servers?updated_since=2000-01-01T00:00:00Z&limit=100`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { servers: Entry[] }).servers;
}

describe.each(drivers())("misbehaving upstreams on %s", (driver) => {
  let paid: Array<Awaited<ReturnType<typeof startPricedServer>>>;
  let upstream: FixtureRegistry;
  let conn: TestConnection;
  let api: AgoraRegistryApi;
  const ingest = (db = conn.db, url = upstream.url) =>
    runIngest(db, parseIngestSources(`mcp-registry=${url}`), {
      allowPrivateHosts: true,
      retryDelayMs: 10,
      timeoutMs: 20_000,
    });

  beforeAll(async () => {
    paid = await Promise.all(
      [0, 1, 2, 3].map(() =>
        startPricedServer({
          items: [{ name: "answer", amount: 0.03 }],
          wallet: "0x5555555555555555555555555555555555555555",
          extraTool: false,
        }),
      ),
    );
    upstream = await startFixtureRegistry([], 10);
  });
  afterAll(async () => {
    await Promise.all([upstream?.close(), ...(paid ?? []).map((p) => p.close())]);
  });
  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    api = await serveRegistryApi(conn);
  });
  afterAll(async () => {
    await api?.close();
    await conn?.close();
  });
  afterEach(() => vi.restoreAllMocks());

  it("an entry flipped between active and deleted on every page ends deleted, listed once, and stays deleted", async () => {
    const at = "2026-02-01T00:00:00.000Z";
    const flip = (status: "active" | "deleted") => [
      { name: "io.github.flipper/weather", status, updatedAt: at, remote: paid[0]!.url },
    ];
    // First listed, so the flips have a listing to take down and bring back.
    servePages(upstream, [flip("active")]);
    expect((await ingest()).candidates.listed).toBe(1);
    servePages(upstream, [flip("active"), flip("deleted"), flip("active"), flip("deleted"), flip("active")]);
    await ingest();
    await ingest();
    const entries = (await everyEntry(api)).filter((e) => e.server.remotes[0]!.url === paid[0]!.url);
    expect(entries).toHaveLength(1);
    expect(entries[0]!._meta[OFFICIAL].status).toBe("deleted");
    expect((await conn.db.select().from(listings)).filter((l) => l.serverUrl === paid[0]!.url)).toHaveLength(1);
  });

  it("dates in the future are never served, and out-of-order pages change nothing", async () => {
    servePages(upstream, [
      [
        {
          name: "io.github.future/weather",
          updatedAt: "2099-01-01T00:00:00.000Z",
          publishedAt: "2098-01-01T00:00:00.000Z",
          remote: paid[1]!.url,
        },
      ],
    ]);
    await ingest();
    const [entry] = (await everyEntry(api)).filter((e) => e.server.name === "io.github.future/weather");
    expect(entry).toBeDefined();
    for (const date of [entry!._meta[OFFICIAL].updatedAt, entry!._meta[OFFICIAL].publishedAt])
      expect(new Date(date).getTime()).toBeLessThanOrEqual(Date.now());
    const [state] = await conn.db.select().from(ingestSources);
    expect(state!.highWaterMark!.getTime()).toBeLessThanOrEqual(Date.now());
    // Deprecated now, then an older page says active: the deprecation stands.
    servePages(upstream, [
      [
        {
          name: "io.github.future/weather",
          status: "deprecated",
          updatedAt: new Date().toISOString(),
          remote: paid[1]!.url,
        },
      ],
      [{ name: "io.github.future/weather", updatedAt: "2026-01-01T00:00:00.000Z", remote: paid[1]!.url }],
    ]);
    await ingest();
    const [after] = (await everyEntry(api)).filter((e) => e.server.name === "io.github.future/weather");
    expect(after!._meta[OFFICIAL].status).toBe("deprecated");
  });

  it("a name spelled with another case or a trailing slash is the same entry, listed once", async () => {
    const at = "2026-03-01T00:00:00.000Z";
    servePages(upstream, [
      [{ name: "io.github.Caser/Weather/", updatedAt: at, remote: paid[2]!.url }],
      [{ name: "io.github.caser/weather", updatedAt: at, remote: paid[2]!.url }],
      [{ name: "io.github.caser/weather//", updatedAt: "2026-03-02T00:00:00.000Z", remote: paid[2]!.url }],
    ]);
    await ingest();
    await ingest();
    const entries = (await everyEntry(api)).filter((e) => e.server.remotes[0]!.url === paid[2]!.url);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.server.name.endsWith("/")).toBe(false);
    expect(entries[0]!._meta[OFFICIAL].status).toBe("active");
  });

  it("10,000 versions of one server: one listing, every version recorded, the newest listed first", async () => {
    const name = "io.github.prolific/weather";
    const versions = Array.from({ length: 10_000 }, (_, i) => `1.0.${i}`);
    const base = Date.parse("2025-01-01T00:00:00.000Z");
    const page = (from: number) =>
      versions.slice(from, from + 1000).map((version, j) => {
        const at = new Date(base + (from + j) * 1000).toISOString();
        return {
          name,
          version,
          updatedAt: at,
          publishedAt: at,
          isLatest: from + j === versions.length - 1,
          remote: paid[3]!.url,
        };
      });
    servePages(
      upstream,
      Array.from({ length: 10 }, (_, k) => page(k * 1000)),
    );
    const summary = await ingest();
    expect(summary.sources[0]).toMatchObject({ completed: true, errors: [] });
    const entries = (await everyEntry(api)).filter((e) => e.server.remotes[0]!.url === paid[3]!.url);
    expect(entries.map((e) => e.server.version)).toEqual(["1.0.9999"]);
    const seen = await conn.db.select({ version: upstreamVersions.version }).from(upstreamVersions);
    expect(new Set(seen.filter((v) => v.version.startsWith("1.0.")).map((v) => v.version)).size).toBe(10_000);
    const res = await fetch(`${api.url}/v0.1/servers/${encodeURIComponent(name)}/versions`);
    const listed = ((await res.json()) as { servers: Entry[] }).servers.map((s) => s.server.version);
    expect(listed[0]).toBe("1.0.9999");
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.length).toBe(1000);
  }, 180_000);

  it("two Agoras reading each other: nothing is listed twice, and the loop is named in the log", async () => {
    const b = await openTestDatabase(driver);
    const apiB = await serveRegistryApi(b);
    try {
      const own = await insertListing(conn.db, {
        name: "Own weather",
        slug: "own-weather",
        description: "Submitted here.",
        categories: ["Weather"],
        websiteUrl: null,
        price: 0.03,
        serverUrl: paid[0]!.url.replace("127.0.0.1", "localhost"),
        status: "approved",
      });
      // B reads A (its own listing and its imports), then A reads B.
      await ingest(b.db, api.url);
      const warn = vi.spyOn(console, "warn");
      const summary = await ingest(conn.db, apiB.url);
      const run = summary.sources[0]! as { counts: { loops: number } };
      expect(run.counts.loops).toBeGreaterThan(0);
      const logged = warn.mock.calls.map((c) => String(c[0])).filter((line) => line.includes("registry loop detected"));
      expect(logged.length).toBeGreaterThan(0);
      expect(logged.join("\n")).toContain(apiB.url);
      // Every server listed once on A, its own listing untouched.
      const rows = await conn.db.select().from(listings);
      expect(new Set(rows.map((r) => r.serverUrl)).size).toBe(rows.length);
      expect(rows.find((r) => r.id === own.id)).toMatchObject({ source: "agora", status: "approved" });
    } finally {
      await apiB.close();
      await b.close();
    }
  });
});
