// GET /discovery/resources in the x402 Bazaar discovery format, over listings probed for real on loopback: one
// entry per x402-paid tool, with the requirements its unpaid call answers, and only offers someone can be paid for.
import Ajv2020 from "ajv/dist/2020";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readPaymentRequired } from "@agora-mcp/protocol";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { insertListing } from "@/lib/listings/write";
import { GET } from "@/app/discovery/resources/route";
import { startReferenceServer, PLACEHOLDER_WALLET, type ReferenceServer } from "@/examples/monetized-server";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { recordCheck } from "@/lib/listings/checks/drift";
import { probeServer } from "@/lib/probe";
import { sampleReferenceUrl } from "@/lib/sample-catalogue/probes";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startPricedServer } from "../support/priced-server";
import { bazaarInfoValid, discoveryResourcesResponse } from "../support/x402-discovery";

const WALLET_A = "0xAAaa000000000000000000000000000000000001";
const WALLET_B = "0xbBbB000000000000000000000000000000000002";
const USDC_SEPOLIA = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";
const loopback = { allowPrivateHosts: true };

type Input = {
  type: string;
  toolName: string;
  inputSchema: Record<string, unknown>;
  example?: Record<string, unknown>;
  description?: string;
};
type Entry = ReturnType<typeof discoveryResourcesResponse.parse>["items"][number];
const meta = (entry: Entry) =>
  (entry as unknown as { metadata: { item: string; itemId?: string; slug: string; detailUrl: string } }).metadata;
const input = (entry: Entry) => (entry.extensions as { bazaar: { info: { input: Input } } }).bazaar.info.input;

const get = (query = "") => GET(new Request(`http://localhost/discovery/resources${query}`));
async function page(query = "") {
  const res = await get(query);
  expect(res.status).toBe(200);
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  return discoveryResourcesResponse.parse(await res.json());
}

function setPrivateHosts(on: boolean) {
  if (on) process.env.PROBE_ALLOW_PRIVATE_HOSTS = "true";
  else delete process.env.PROBE_ALLOW_PRIVATE_HOSTS;
  reloadEnv();
}

describe.each(drivers())("GET /discovery/resources on %s", (driver) => {
  let conn: TestConnection;
  const servers: { close: () => Promise<void> }[] = [];
  let weather: ReferenceServer;
  let studio: ReferenceServer;

  beforeAll(async () => {
    process.env.SITE_URL = "https://agora.test";
    setPrivateHosts(true);
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    weather = await startReferenceServer({ port: 0, walletAddress: WALLET_A });
    studio = await startReferenceServer({ port: 0, walletAddress: WALLET_B });
    const placeholder = await startReferenceServer({ port: 0 });
    const plain = await startPricedServer({
      items: [
        { name: "Forecast", amount: 0.02 },
        { name: "Radar", amount: 1.5 },
      ],
      wallet: WALLET_A,
      extraTool: false,
    });
    servers.push(weather, studio, placeholder, plain);
    const add = async (name: string, serverUrl: string, categories = ["Data"]) => {
      const listing = await insertListing(conn.db, {
        name,
        description: `${name}, listed for discovery tests.`,
        categories,
        serverUrl,
        status: "approved",
      });
      return listing.id;
    };
    await checkListing(conn.db, await add("Reference Weather", weather.url, ["Data", "Weather", "data"]), loopback);
    await checkListing(conn.db, await add("Reference Studio", studio.url), loopback);
    // Verified, but not offers a generic x402 client can pay: a payee nobody can be paid at, a sample listing,
    // and a plain MonetizedMCP server (make-purchase only).
    await checkListing(conn.db, await add("Burning Weather", placeholder.url), loopback);
    await checkListing(conn.db, await add("Weather Now", sampleReferenceUrl(weather.url, "Weather Now")), loopback);
    await checkListing(conn.db, await add("Plain Forecasts", plain.url), loopback);
    // Approved but never probed, and approved but not answering: neither is discoverable.
    await add("Never Probed", "https://never-probed.example.com/mcp");
    const gone = await startReferenceServer({ port: 0 });
    await gone.close();
    await checkListing(conn.db, await add("Gone Away", gone.url), { ...loopback, timeoutMs: 2_000 });
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await conn?.close();
    delete process.env.SITE_URL;
    setPrivateHosts(false);
  });

  it("lists one entry per x402-paid tool of each verified listing, with the requirements its unpaid call answers", async () => {
    const body = await page();
    expect(body.x402Version).toBe(2);
    // Free "Page screenshot" has no tool (x402 cannot carry zero); the other three items each have their own.
    expect(body.pagination).toEqual({ limit: 20, offset: 0, total: 6 });
    expect(body.items.map((i) => [meta(i).slug, input(i).toolName])).toEqual([
      ["reference-studio", "weather"],
      ["reference-studio", "market-report"],
      ["reference-studio", "logo-render"],
      ["reference-weather", "weather"],
      ["reference-weather", "market-report"],
      ["reference-weather", "logo-render"],
    ]);
    // Catalogues key entries on (resource, toolName): every pair is unique.
    expect(new Set(body.items.map((i) => `${i.resource} ${input(i).toolName}`)).size).toBe(body.items.length);

    const entry = body.items[3]!;
    expect(entry).toMatchObject({
      resource: weather.url,
      type: "mcp",
      x402Version: 2,
      serviceName: "Reference Weather",
      tags: ["Data", "Weather"],
    });
    expect(entry.accepts).toEqual([
      {
        scheme: "exact",
        network: "eip155:84532",
        amount: "10000",
        asset: USDC_SEPOLIA,
        payTo: WALLET_A,
        maxTimeoutSeconds: 300,
        extra: { name: "USDC", version: "2" },
      },
    ]);
    expect(meta(entry)).toMatchObject({
      item: "Current weather",
      itemId: "weather-now",
      detailUrl: "https://agora.test/marketplace/reference-weather",
    });
    expect(input(entry)).toMatchObject({
      type: "mcp",
      toolName: "weather",
      transport: "streamable-http",
      example: { city: "Lisbon" },
    });
    expect(input(entry).inputSchema).toMatchObject({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    });
    expect(body.items[4]!.accepts[0]).toMatchObject({ amount: "250000", payTo: WALLET_A });
    expect(body.items[0]!.accepts[0]).toMatchObject({ amount: "10000", payTo: WALLET_B });
    expect(Date.parse(entry.lastUpdated)).toBeGreaterThan(Date.now() - 5 * 60_000);
  });

  it("gives every entry an example its own input schema accepts, and valid bazaar info", async () => {
    // JSON Schema 2020-12, the dialect the MCP SDK v2 advertises tool schemas in (the schemas name it in $schema).
    const ajv = new Ajv2020({ strict: false });
    const body = await page();
    // The checks can fail: an example without the required parameter, info without a tool name.
    expect(ajv.validate(input(body.items[0]!).inputSchema, {})).toBe(false);
    const served = (body.items[0]!.extensions as { bazaar: { schema: object } }).bazaar.schema;
    expect(bazaarInfoValid({ info: { input: { type: "mcp" } }, schema: served })).toBe(false);
    for (const entry of body.items) {
      const { example, inputSchema } = input(entry);
      expect(example, input(entry).toolName).toBeDefined();
      expect(ajv.validate(inputSchema, example), `${input(entry).toolName}: ${ajv.errorsText()}`).toBe(true);
      expect(bazaarInfoValid((entry.extensions as { bazaar: { info: unknown; schema: object } }).bazaar)).toBe(true);
    }
  });

  it("is what the tool answers: an unpaid call with the example gets PaymentRequired with the entry's requirements", async () => {
    const client = new Client({ name: "discovery-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(weather.url)));
    try {
      for (const entry of (await page(`?payTo=${WALLET_A}`)).items) {
        const answer = await client.callTool({ name: input(entry).toolName, arguments: input(entry).example });
        expect(answer.isError).toBe(true);
        expect(readPaymentRequired(answer)?.accepts).toEqual(entry.accepts);
      }
    } finally {
      await client.close();
    }
  });

  it("filters by payTo (any letter case), network (CAIP-2 or name), scheme, type and extension", async () => {
    const names = async (query: string) => (await page(query)).items.map((i) => meta(i).slug);
    expect(await names(`?payTo=${WALLET_A}`)).toEqual(["reference-weather", "reference-weather", "reference-weather"]);
    expect(await names(`?payTo=${WALLET_A.toLowerCase()}`)).toHaveLength(3);
    expect(await names(`?payTo=${PLACEHOLDER_WALLET}`)).toEqual([]);
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
    expect(second.items.map((i) => [meta(i).slug, meta(i).item])).toEqual([
      ["reference-studio", "Logo render"],
      ["reference-weather", "Current weather"],
    ]);
    const past = await page("?offset=50");
    expect(past.items).toEqual([]);
    expect(past.pagination.total).toBe(6);
  });

  it("lists no server on a loopback or private address where the probe may not reach one (production)", async () => {
    // What a check of the weather server read, recorded as if read at other addresses (the probe refuses private
    // ones in production, so only a database shared with a development deployment could hold such rows).
    const read = await probeServer(weather.url, loopback);
    const at = async (serverUrl: string) => {
      const id = await insertListing(conn.db, {
        name: `At ${serverUrl}`,
        description: "The weather server's check, at another address.",
        categories: ["Data"],
        serverUrl,
        status: "approved",
      });
      await recordCheck(conn.db, { id: id.id, revision: id.revision }, { ...read, url: serverUrl });
    };
    const privateUrls = [
      "https://10.1.2.3/mcp",
      "https://192.168.0.7/mcp",
      "https://172.20.0.1/mcp",
      "http://[::1]:9/mcp",
      "https://[fd00::1]/mcp",
      "https://box.internal/mcp",
      "https://printer.local./mcp",
      "https://169.254.1.1/mcp",
      "https://100.64.1.1/mcp",
      "http://0.0.0.0:8080/mcp",
    ];
    const publicUrls = ["https://weather.example.org/mcp", "https://172.32.0.1/mcp", "https://10.example.com/mcp"];
    for (const url of [...privateUrls, ...publicUrls]) await at(url);
    setPrivateHosts(false);
    try {
      const body = await page("?limit=100");
      expect(new Set(body.items.map((i) => i.resource))).toEqual(new Set(publicUrls));
    } finally {
      setPrivateHosts(true);
    }
    expect((await page("?limit=100")).pagination.total).toBe(6 + 3 * (privateUrls.length + publicUrls.length));
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
    [
      "?network=notanetwork",
      'network "notanetwork" names no network: give a CAIP-2 id such as eip155:84532 (an EVM chain\'s is eip155:<chain id>) or an x402 version 1 name such as base-sepolia.',
    ],
    [
      "?network=eip155:base",
      'network "eip155:base" names no network: give a CAIP-2 id such as eip155:84532 (an EVM chain\'s is eip155:<chain id>) or an x402 version 1 name such as base-sepolia.',
    ],
  ])("refuses %s with 400 and the reason", async (query, message) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: message, message });
  });
});
