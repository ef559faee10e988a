// GET /discovery/resources in the x402 Bazaar discovery format, over listings probed for real on loopback.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabase } from "@/lib/database";
import { insertListing } from "@/lib/listings/write";
import { GET } from "@/app/discovery/resources/route";
import { startReferenceServer, PLACEHOLDER_WALLET, type ReferenceServer } from "@/examples/monetized-server";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { MCP_INFO_SCHEMA } from "@/lib/listings/presenters/discovery-resource";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startPricedServer } from "../support/priced-server";
import { bazaarInfoValid, discoveryResourcesResponse } from "../support/x402-discovery";

const WALLET_A = "0xAAaa000000000000000000000000000000000001";
const USDC_SEPOLIA = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
const loopback = { allowPrivateHosts: true };

type Meta = { metadata: { item: string; slug: string } };
const meta = (item: unknown) => (item as Meta).metadata;

const get = (query = "") => GET(new Request(`http://localhost/discovery/resources${query}`));
async function page(query = "") {
  const res = await get(query);
  expect(res.status).toBe(200);
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  return discoveryResourcesResponse.parse(await res.json());
}

describe.each(drivers())("GET /discovery/resources on %s", (driver) => {
  let conn: TestConnection;
  let reference: ReferenceServer;
  let priced: Awaited<ReturnType<typeof startPricedServer>>;

  beforeAll(async () => {
    process.env.SITE_URL = "https://agora.test";
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    reference = await startReferenceServer({ port: 0 });
    priced = await startPricedServer({ items: [{ name: "Forecast", amount: 0.02 }, { name: "Radar", amount: 1.5 }], wallet: WALLET_A, extraTool: false });
    const add = async (name: string, serverUrl: string, categories = ["Data"]) => {
      const listing = await insertListing(conn.db, { name, description: `${name}, listed for discovery tests.`, categories, serverUrl, status: "approved" });
      return listing.id;
    };
    await checkListing(conn.db, await add("Reference Weather", reference.url, ["Data", "Weather", "data"]), loopback);
    await checkListing(conn.db, await add("Priced Forecasts", priced.url), loopback);
    // Approved but never probed, and approved but not answering: neither is discoverable.
    await add("Never Probed", "https://never-probed.example.com/mcp");
    const gone = await startReferenceServer({ port: 0 });
    await gone.close();
    await checkListing(conn.db, await add("Gone Away", gone.url), { ...loopback, timeoutMs: 2_000 });
  });
  afterAll(async () => {
    await priced?.close();
    await reference?.close();
    await conn?.close();
    delete process.env.SITE_URL;
  });

  it("lists each priced item of each verified listing with its real x402 payment requirements", async () => {
    const body = await page();
    expect(body.x402Version).toBe(2);
    // The free "Page screenshot" needs no payment, so it is not an x402 resource.
    expect(body.pagination).toEqual({ limit: 20, offset: 0, total: 6 });
    expect(body.items.map((i) => meta(i).item)).toEqual(["Forecast", "Radar", "Current weather", "Market report", "Logo render", "weather"]);

    const weather = body.items[2]!;
    expect(weather).toMatchObject({ resource: reference.url, type: "mcp", x402Version: 2, serviceName: "Reference Weather", tags: ["Data", "Weather"] });
    expect(weather.accepts).toEqual([
      { scheme: "exact", network: "eip155:84532", amount: "10000", asset: USDC_SEPOLIA, payTo: PLACEHOLDER_WALLET, maxTimeoutSeconds: 300, extra: { name: "USDC", version: "2" } },
    ]);
    expect(body.items[1]!.accepts[0]).toMatchObject({ amount: "1500000", payTo: WALLET_A });
    expect(body.items[4]!.accepts[0]).toMatchObject({ amount: "100000" });
    expect(Date.parse(weather.lastUpdated)).toBeGreaterThan(Date.now() - 5 * 60_000);

    // The check can fail: info without a tool name or input schema is refused by the extension's schema.
    expect(bazaarInfoValid({ info: { input: { type: "mcp" } }, schema: MCP_INFO_SCHEMA })).toBe(false);
    const input = (item: unknown) => ((item as { extensions: { bazaar: { info: { input: Record<string, unknown> } } } }).extensions.bazaar.info.input);
    for (const item of body.items) {
      expect(bazaarInfoValid((item.extensions as { bazaar: { info: unknown; schema: object } }).bazaar)).toBe(true);
    }
    // Items sold through make-purchase name the item in the example; the x402-paid weather tool is its own tool.
    expect(input(weather)).toMatchObject({ type: "mcp", toolName: "make-purchase", transport: "streamable-http", example: { itemId: "weather-now", params: { city: "Example: Lisbon" } } });
    expect(input(weather).inputSchema).toMatchObject({ type: "object", properties: { itemId: { type: "string" } } });
    expect(input(body.items[0])).toMatchObject({ toolName: "make-purchase", example: { itemId: "Forecast" } });
    expect(input(body.items[5])).toMatchObject({ type: "mcp", toolName: "weather" });
    expect(input(body.items[5]).inputSchema).toMatchObject({ type: "object", properties: { city: { type: "string" } } });
  });

  it("filters by payTo (any letter case), network (CAIP-2 or name), scheme, type and extension", async () => {
    const names = async (query: string) => (await page(query)).items.map((i) => meta(i).slug);
    expect(await names(`?payTo=${WALLET_A}`)).toEqual(["priced-forecasts", "priced-forecasts"]);
    expect(await names(`?payTo=${WALLET_A.toLowerCase()}`)).toHaveLength(2);
    expect(await names(`?payTo=0x${"9".repeat(40)}`)).toEqual([]);
    expect(await names("?network=eip155:84532")).toHaveLength(6);
    expect(await names("?network=base-sepolia")).toHaveLength(6);
    expect(await names("?network=eip155:8453")).toEqual([]);
    expect(await names("?scheme=exact&type=mcp&extensions=bazaar")).toHaveLength(6);
    expect(await names("?scheme=upto")).toEqual([]);
    expect(await names("?type=http")).toEqual([]);
    expect((await page("?type=http")).pagination.total).toBe(0);
  });

  it("pages with limit and offset, and reports the total", async () => {
    const second = await page("?limit=2&offset=2");
    expect(second.pagination).toEqual({ limit: 2, offset: 2, total: 6 });
    expect(second.items.map((i) => meta(i).item)).toEqual(["Current weather", "Market report"]);
    const past = await page("?offset=50");
    expect(past.items).toEqual([]);
    expect(past.pagination.total).toBe(6);
  });

  it.each([
    ["?limit=0", "limit must be at least 1."],
    ["?limit=101", "limit must be at most 100."],
    ["?limit=ten", "limit must be a number."],
    ["?offset=-1", "offset must be 0 or more."],
    ["?offset=1.5", "offset must be a whole number."],
    ["?payTo=alice", "payTo must be an EVM address: 0x and 40 hex digits."],
    ["?network=eip155:84532;drop", "network must be a CAIP-2 id such as eip155:84532, or a name such as base-sepolia."],
    ["?type=%3Cscript%3E", "type must be a short identifier, e.g. mcp."],
  ])("refuses %s with 400 and the reason", async (query, message) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: message, message });
  });
});
