// GET /discovery/search: the x402 Bazaar's search, answered by the marketplace's own search over
// the same payable resources GET /discovery/resources lists, for listings probed for real on loopback.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as RESOURCES } from "@/app/discovery/resources/route";
import { GET as SEARCH } from "@/app/discovery/search/route";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { insertListing } from "@/lib/listings/write";
import { limits } from "@/lib/rate-limit";
import { startReferenceServer, type ReferenceServer } from "@/examples/monetized-server";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startPricedServer } from "../support/priced-server";
import { discoveryResourcesResponse, discoverySearchResponse } from "../support/x402-discovery";

const loopback = { allowPrivateHosts: true };
const slug = (r: object) => (r as { metadata: { slug: string } }).metadata.slug;
const key = (r: object) =>
  `${slug(r)} ${(r as { extensions: { bazaar: { info: { input: { toolName: string } } } } }).extensions.bazaar.info.input.toolName}`;

async function search(query: string, peer = "198.51.100.7") {
  return SEARCH(
    new Request(`http://localhost/discovery/search${query}`, { headers: { "x-agora-client-address": peer } }),
  );
}
async function found(query: string) {
  const res = await search(query);
  expect(res.status, await res.clone().text()).toBe(200);
  return discoverySearchResponse.parse(await res.json());
}

describe.each(drivers())("GET /discovery/search on %s", (driver) => {
  let conn: TestConnection;
  const servers: { close: () => Promise<void> }[] = [];

  beforeAll(async () => {
    process.env.SITE_URL = "https://agora.test";
    process.env.PROBE_ALLOW_PRIVATE_HOSTS = "true";
    process.env.RATE_LIMIT_DISABLED = "1";
    reloadEnv();
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    const weather: ReferenceServer = await startReferenceServer({
      port: 0,
      walletAddress: "0xAAaa000000000000000000000000000000000001",
    });
    const studio: ReferenceServer = await startReferenceServer({
      port: 0,
      walletAddress: "0xbBbB000000000000000000000000000000000002",
    });
    const placeholder = await startReferenceServer({ port: 0 });
    const plain = await startPricedServer({
      items: [{ name: "Forecast", amount: 0.02 }],
      wallet: "0xAAaa000000000000000000000000000000000001",
      extraTool: false,
    });
    servers.push(weather, studio, placeholder, plain);
    const add = async (name: string, description: string, serverUrl: string) =>
      (await insertListing(conn.db, { name, description, categories: ["Data"], serverUrl, status: "approved" })).id;
    await checkListing(
      conn.db,
      await add("Reference Weather", "Forecasts and current weather for any city.", weather.url),
      loopback,
    );
    await checkListing(
      conn.db,
      await add("Reference Studio", "Logos and market reports, also the weather.", studio.url),
      loopback,
    );
    // Matching words, but nothing a generic x402 client can pay: a placeholder payee, a MonetizedMCP-only
    // server, and a listing never probed.
    await checkListing(conn.db, await add("Burning Weather", "Weather paid to nobody.", placeholder.url), loopback);
    await checkListing(
      conn.db,
      await add("Plain Weather Forecasts", "Weather through make-purchase only.", plain.url),
      loopback,
    );
    await add("Weather Never Probed", "Weather, never checked.", "https://never-probed.example.com/mcp");
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await conn?.close();
    delete process.env.SITE_URL;
    delete process.env.PROBE_ALLOW_PRIVATE_HOSTS;
    delete process.env.RATE_LIMIT_DISABLED;
    reloadEnv();
  });

  it("finds the payable resources of matching listings, best match first, exactly as /discovery/resources lists them", async () => {
    const body = await found("?query=weather");
    expect(body.x402Version).toBe(2);
    expect(body.partialResults).toBe(false);
    expect(body.pagination.cursor).toBeNull();
    // The name match ranks above a description match; each listing's three x402 tools, none of the unpayable ones.
    expect(body.resources.map(slug)).toEqual([
      "reference-weather",
      "reference-weather",
      "reference-weather",
      "reference-studio",
      "reference-studio",
      "reference-studio",
    ]);
    const all = discoveryResourcesResponse.parse(
      await (await RESOURCES(new Request("http://localhost/discovery/resources"))).json(),
    );
    for (const resource of body.resources) expect(all.items).toContainEqual(resource);
  });

  it("is the marketplace's search: a misspelt word is corrected, a word only one listing holds finds that one", async () => {
    expect(new Set((await found("?query=wether")).resources.map(slug))).toEqual(
      new Set(["reference-weather", "reference-studio"]),
    );
    expect(new Set((await found("?query=logos")).resources.map(slug))).toEqual(new Set(["reference-studio"]));
    expect((await found("?query=nothing%20like%20this")).resources).toEqual([]);
    // No text: every payable listing.
    expect(new Set((await found("?query=")).resources.map(slug))).toEqual(
      new Set(["reference-weather", "reference-studio"]),
    );
  });

  it("pages by entries with an opaque cursor until it is null, each entry once, in the order of one long page", async () => {
    // `limit` counts entries (x402's search client reads it so), even where a page ends inside a listing's tools.
    const whole = (await found("?query=weather&limit=50")).resources;
    const seen: typeof whole = [];
    let cursor: string | null = null;
    do {
      const page = await found(`?query=weather&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(page.pagination.limit).toBe(4);
      expect(page.resources.length).toBeLessThanOrEqual(4);
      seen.push(...page.resources);
      cursor = page.pagination.cursor;
    } while (cursor);
    expect(seen.map(key)).toEqual(whole.map(key));
    expect(seen).toHaveLength(6);
  });

  it("answers bad input with a precise 400, and text without letters with nothing", async () => {
    const refused = async (query: string, message: RegExp) => {
      const res = await search(query);
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toMatch(message);
    };
    await refused(`?query=${"a".repeat(10_000)}`, /query must be at most 200 characters/);
    await refused("?query=weather&cursor=not-a-cursor", /cursor is not valid/);
    await refused("?query=weather&limit=500", /limit must be at most 50/);
    await refused("?query=weather&type=%3Cscript%3E", /type must be a short identifier/);
    for (const text of ["%25%25%25", "')%3B drop table listings%3B--", ".*(a|b)+$"]) {
      expect((await found(`?query=${text}`)).resources, text).toEqual([]);
    }
  });

  it("is rate-limited per address like the MCP endpoint (429 with Retry-After)", async () => {
    delete process.env.RATE_LIMIT_DISABLED;
    reloadEnv();
    try {
      const peer = "203.0.113.99";
      for (let i = 0; i < limits.discoverySearchPerIp.max; i++)
        expect((await search(`?query=w${i}`, peer)).status).toBe(200);
      const over = await search("?query=weather", peer);
      expect(over.status).toBe(429);
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
      // Another address is not affected.
      expect((await search("?query=weather", "203.0.113.100")).status).toBe(200);
    } finally {
      process.env.RATE_LIMIT_DISABLED = "1";
      reloadEnv();
    }
  });
});
