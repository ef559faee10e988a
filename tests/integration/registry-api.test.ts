import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { setDatabase } from "@/lib/database";
import { countApproved } from "@/db/queries/listings";
import { insertListing } from "@/lib/listings/write";
import { listings } from "@/db/schema";
import { seedSynthetic } from "@/lib/sample-catalogue/seed";
import { PLACEHOLDER_WALLET, type ReferenceServer } from "@/examples/monetized-server";
import { GET as listV01 } from "@/app/v0.1/servers/route";
import { GET as oneV01 } from "@/app/v0.1/servers/[...path]/route";
import { GET as listV0 } from "@/app/v0/servers/route";
import { GET as oneV0 } from "@/app/v0/servers/[...path]/route";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { officialSchema } from "../support/official-registry";
import { seedProbedSample } from "../support/probed-sample";

type Entry = {
  server: {
    name: string;
    title: string;
    description: string;
    version: string;
    websiteUrl: string;
    remotes: { type: string; url: string }[];
    _meta: Record<string, Record<string, unknown>>;
  };
  _meta: Record<string, { status: string; publishedAt: string; updatedAt: string; isLatest: boolean }>;
};
type List = { servers: Entry[]; metadata: { count: number; nextCursor?: string } };

const SITE = "https://agora.test";
const OFFICIAL = "io.modelcontextprotocol.registry/official";
const OURS = "dev.agora-mcp/listing";

const list = (query = "", headers: Record<string, string> = {}, handler = listV01) =>
  handler(new Request(`http://localhost/v0.1/servers${query}`, { headers }));
// Next hands a catch-all its decoded segments.
const one = (path: string, handler = oneV01) =>
  handler(new Request(`http://localhost/v0.1/servers/${path}`), {
    params: Promise.resolve({ path: path.split("/").map(decodeURIComponent) }),
  });

/** Every answer is checked against the official schema before any test looks at it. */
async function listBody(res: Response): Promise<List> {
  expect(res.status).toBe(200);
  const body = await res.json();
  officialSchema.assertServerList(body);
  return body as List;
}

async function entryBody(res: Response): Promise<Entry> {
  expect(res.status).toBe(200);
  const body = await res.json();
  officialSchema.assertServerResponse(body);
  officialSchema.assertServerJson(body.server);
  return body as Entry;
}

async function walk(query: string): Promise<Entry[]> {
  const all: Entry[] = [];
  let cursor: string | undefined;
  do {
    const body: List = await listBody(await list(`?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`));
    expect(body.metadata.count).toBe(body.servers.length);
    all.push(...body.servers);
    cursor = body.metadata.nextCursor;
  } while (cursor);
  return all;
}

describe.each(drivers())("official-registry API (/v0.1/servers, /v0/servers) on %s", (driver) => {
  let conn: TestConnection;
  let reference: ReferenceServer;
  let approved: number;

  beforeAll(async () => {
    process.env.SITE_URL = SITE;
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    reference = await seedProbedSample(conn.db);
    // Edge cases: no website, a long description with multi-byte characters, markup.
    await insertListing(conn.db, {
      name: "Émoji Überserver 🚀",
      slug: "emoji-uberserver",
      description: `${"Ünïcödé 🚀 text that goes on ".repeat(6)}and on well past the hundred characters the schema allows for a description.`,
      categories: ["AI"],
      price: null,
      serverUrl: "https://emoji.example.com/mcp",
      status: "approved",
    });
    await insertListing(conn.db, {
      name: "<b>Markup</b> Server",
      slug: "markup-server",
      description: "<script>alert(1)</script> stays text",
      categories: ["Security"],
      price: 0.01,
      serverUrl: "https://markup.example.com/mcp",
      status: "approved",
    });
    approved = await countApproved(conn.db);
  });
  afterAll(async () => {
    await reference?.close();
    await conn?.close();
    delete process.env.SITE_URL;
  });

  it("lists approved servers as server.json entries with official and Agora metadata", async () => {
    const res = await list();
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = await listBody(res);
    expect(body.servers).toHaveLength(30);
    expect(body.metadata).toEqual({ count: 30, nextCursor: expect.any(String) });

    const all = await walk("limit=100");
    expect(all).toHaveLength(approved);
    const boba = all.find((e) => e.server.name === "dev.agora-mcp/boba-order-bot")!;
    expect(boba.server).toMatchObject({
      $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
      title: "Boba Order Bot",
      version: "1.0.0",
      remotes: [{ type: "streamable-http", url: `${reference.url}?sample=boba-order-bot` }],
    });
    // Boba's server is the reference server, probed for real: its tools, prices and wallet travel in _meta.
    expect(boba.server._meta[OURS]).toMatchObject({
      slug: "boba-order-bot",
      detailUrl: `${SITE}/marketplace/boba-order-bot`,
      categories: ["Commerce", "Lifestyle"],
      price: 0.01,
      free: false,
      currency: "USD",
      verified: true,
      reachable: true,
      uptime30d: { percent: 100, checks: 1 },
      paymentMethods: [{ id: "USDC_BASE_SEPOLIA", network: "base-sepolia", asset: "USDC", payTo: PLACEHOLDER_WALLET }],
      lastVerification: { status: "passed", checkedAt: expect.any(String), message: null },
    });
    const meta = boba.server._meta[OURS] as {
      tools: { name: string; priceUsd: number | null }[];
      pricedItems: { name: string; priceUsd: number }[];
    };
    expect(meta.tools.map((t) => [t.name, t.priceUsd])).toEqual([
      ["price-listing", null],
      ["payment-methods", null],
      ["make-purchase", 0.01],
      ["job-status", null],
      ["weather", 0.01],
      ["market-report", 0.25],
      ["logo-render", 0.1],
    ]);
    expect(meta.pricedItems.map((i) => [i.name, i.priceUsd])).toEqual([
      ["Current weather", 0.01],
      ["Market report", 0.25],
      ["Page screenshot", 0],
      ["Logo render", 0.1],
      ["weather", 0.01],
      ["market-report", 0.25],
      ["logo-render", 0.1],
    ]);
    // A listing no probe has reached says so, and claims nothing.
    const scraper = all.find((e) => e.server.name === "dev.agora-mcp/ai-powered-web-scraper")!;
    expect(scraper.server._meta[OURS]).toMatchObject({
      verified: false,
      lastCheckedAt: null,
      reachable: null,
      tools: [],
      paymentMethods: [],
      lastVerification: null,
    });
    expect(boba._meta[OFFICIAL]).toEqual({
      status: "active",
      statusChangedAt: expect.any(String),
      publishedAt: expect.any(String),
      updatedAt: expect.any(String),
      isLatest: true,
    });
    const names = all.map((e) => e.server.name);
    expect(names).not.toContain("dev.agora-mcp/pending-review-example");
    expect(names).not.toContain("dev.agora-mcp/rejected-example");
  });

  it("keeps descriptions and titles within the schema's 100 characters, counting characters, not bytes", async () => {
    const e = await entryBody(await one("dev.agora-mcp%2Femoji-uberserver/versions/latest"));
    expect(Array.from(e.server.description).length).toBeLessThanOrEqual(100);
    expect(e.server.description.endsWith("…")).toBe(true);
    expect(e.server.title).toBe("Émoji Überserver 🚀");
    expect(e.server._meta[OURS]!.description).toMatch(/well past the hundred characters/);
    // Without a website of its own, websiteUrl is the marketplace page.
    expect(e.server.websiteUrl).toBe(`${SITE}/marketplace/emoji-uberserver`);
    const markup = await entryBody(await one("dev.agora-mcp%2Fmarkup-server/versions/latest"));
    expect(markup.server.title).toBe("<b>Markup</b> Server");
  });

  it("pages by cursor in name order without repeats or gaps", async () => {
    const all = await walk("limit=7");
    expect(all).toHaveLength(approved);
    const names = all.map((e) => e.server.name);
    expect(new Set(names).size).toBe(approved);
    expect(names).toEqual([...names].sort());
  });

  it("searches, and serves version=latest", async () => {
    const boba = await listBody(await list("?search=BOBA"));
    expect(boba.servers.map((e) => e.server.name)).toEqual(["dev.agora-mcp/boba-order-bot"]);
    expect(boba.metadata).toEqual({ count: 1 });
    expect((await listBody(await list("?search=zzzz-nothing"))).servers).toEqual([]);
    expect((await walk("version=latest&limit=100")).length).toBe(approved);
    expect((await walk("version=1.0.0&limit=100")).length).toBe(approved);
    expect((await listBody(await list("?version=2.0.0"))).servers).toEqual([]);
  });

  it("filters by updated_since", async () => {
    const since = new Date(Date.now() - 60_000);
    const [changed] = await conn.db
      .update(listings)
      .set({ updatedAt: new Date() })
      .where(eq(listings.slug, "weather-now"))
      .returning();
    const body = await listBody(await list(`?updated_since=${encodeURIComponent(since.toISOString())}`));
    expect(body.servers.map((e) => e.server.name)).toContain("dev.agora-mcp/weather-now");
    expect(body.servers.every((e) => Date.parse(e._meta[OFFICIAL]!.updatedAt) > since.getTime())).toBe(true);
    expect(body.servers.find((e) => e.server.name === "dev.agora-mcp/weather-now")!._meta[OFFICIAL]!.updatedAt).toBe(
      changed!.updatedAt.toISOString(),
    );
    expect(
      (await listBody(await list(`?updated_since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)))
        .servers,
    ).toEqual([]);
  });

  it("answers one server by URL-encoded name, by plain name, and by the first API's id", async () => {
    const latest = await entryBody(await one("dev.agora-mcp%2Fboba-order-bot/versions/latest"));
    expect(latest.server.name).toBe("dev.agora-mcp/boba-order-bot");
    const exact = await entryBody(await one("dev.agora-mcp%2Fboba-order-bot/versions/1.0.0"));
    expect(exact).toEqual(latest);
    expect(await entryBody(await one("dev.agora-mcp/boba-order-bot/versions/latest"))).toEqual(latest);
    expect(await entryBody(await one("dev.agora-mcp%2Fboba-order-bot"))).toEqual(latest);
    const id = latest.server._meta[OURS]!.id as string;
    expect(await entryBody(await one(id, oneV0))).toEqual(latest);
    expect(await entryBody(await one("boba-order-bot", oneV0))).toEqual(latest);

    const versions = await listBody(await one("dev.agora-mcp%2Fboba-order-bot/versions"));
    expect(versions.servers).toEqual([latest]);
    expect(versions.metadata).toEqual({ count: 1 });
  });

  it.each([
    ["dev.agora-mcp%2Fno-such-server/versions/latest", "Server not found"],
    ["dev.agora-mcp%2Fpending-review-example/versions/latest", "Server not found"],
    ["io.github.someone%2Fboba-order-bot/versions/latest", "Server not found"],
    ["00000000-0000-0000-0000-000000000000", "Server not found"],
    ["dev.agora-mcp%2Fboba-order-bot/versions/2.0.0", "Server version not found"],
    ["dev.agora-mcp%2Fboba-order-bot/tags/latest", "Server not found"],
    // Refused by the route's params schema, unread: more segments than a name and a version, a key past 200.
    ["dev.agora-mcp/boba-order-bot/versions/latest/more", "Server not found"],
    ["x".repeat(201), "Server not found"],
  ])("answers %s with 404", async (path, message) => {
    const res = await one(path);
    expect(res.status).toBe(404);
    // The official registry's wording in `error` (its clients show it), and the code a program branches on.
    expect(await res.json()).toEqual({ error: message, message, code: "not_found" });
  });

  it("serves /v0/servers as an alias of /v0.1/servers", async () => {
    const v0 = await listBody(await list("?limit=5", {}, listV0));
    const v01 = await listBody(await list("?limit=5"));
    expect(v0).toEqual(v01);
  });

  it("answers 304 when the ETag still matches, with Cache-Control", async () => {
    const first = await list("?limit=3");
    const etag = first.headers.get("etag")!;
    expect(first.headers.get("cache-control")).toMatch(/max-age=/);
    expect((await list("?limit=3", { "if-none-match": etag })).status).toBe(304);
    expect((await list("?limit=4", { "if-none-match": etag })).status).toBe(200);
    const detail = await one("dev.agora-mcp%2Fboba-order-bot/versions/latest");
    const again = await oneV01(
      new Request("http://localhost/v0.1/servers/x", { headers: { "if-none-match": detail.headers.get("etag")! } }),
      {
        params: Promise.resolve({ path: ["dev.agora-mcp/boba-order-bot", "versions", "latest"] }),
      },
    );
    expect(again.status).toBe(304);
  });

  it.each([
    ["?limit=0", "limit must be at least 1."],
    ["?limit=101", "limit must be at most 100."],
    ["?limit=ten", "limit must be a number."],
    ["?cursor=bogus", "cursor is not valid."],
    ["?updated_since=yesterday", "updated_since must be an RFC 3339 date-time, e.g. 2025-08-07T13:15:04.280Z."],
    ["?search=" + "x".repeat(201), "search must be at most 200 characters."],
  ])("refuses %s with 400", async (query, message) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: message, message });
  });

  it("ignores parameters it does not use, as generic registry clients send them", async () => {
    expect((await listBody(await list("?include_deleted=true&limit=2"))).servers).toHaveLength(2);
  });
});

describe.each(drivers())("official-registry API over a 1,000-listing catalogue on %s", (driver) => {
  let conn: TestConnection;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    await seedSynthetic(conn.db, 1000);
  });
  afterAll(async () => conn?.close());

  it("pages through every approved listing once, each entry valid", async () => {
    const approved = await countApproved(conn.db);
    const all = await walk("limit=100");
    expect(all).toHaveLength(approved);
    expect(new Set(all.map((e) => e.server.name)).size).toBe(approved);
  });

  it("does not skip or repeat when a listing is added mid-walk", async () => {
    const first = await listBody(await list("?limit=50"));
    await insertListing(conn.db, {
      name: "Aaa Early Bird",
      slug: "aaa-early-bird",
      description: "Sorts before every synthetic listing.",
      categories: ["AI"],
      price: null,
      serverUrl: "https://early.example.com/mcp",
      status: "approved",
    });
    const rest = await walk(`limit=100&cursor=${encodeURIComponent(first.metadata.nextCursor!)}`);
    const names = [...first.servers, ...rest].map((e) => e.server.name);
    expect(new Set(names).size).toBe(names.length);
    // Every listing that was there when the walk began, and none twice; the newcomer sorts before the cursor.
    expect(names.length).toBe((await countApproved(conn.db)) - 1);
  });
});
