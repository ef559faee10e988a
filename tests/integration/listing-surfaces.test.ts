// One listing, probed for real on loopback, read through every surface: the marketplace JSON API, the MCP
// registry tools and the official-registry API all carry the same tools, prices and payment methods.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabase } from "@/lib/database";
import { insertListing } from "@/lib/listings/write";
import { GET as listAgents } from "@/app/api/mcp-agents/route";
import { GET as oneAgent } from "@/app/api/mcp-agents/[id]/route";
import { DELETE, GET, OPTIONS, POST } from "@/app/api/mcp/route";
import { GET as oneV01 } from "@/app/v0.1/servers/[...path]/route";
import { GET as listV01 } from "@/app/v0.1/servers/route";
import { startReferenceServer, PLACEHOLDER_WALLET, type ReferenceServer } from "@/examples/monetized-server";
import { reloadEnv } from "@/lib/env";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { serveRoute } from "../support/route-server";

const OURS = "dev.agora-mcp/listing";
const loopback = { allowPrivateHosts: true };

// What the reference server (examples/monetized-server) sells, as every surface must report it.
const sepolia = { currency: "USDC", paymentMethod: "USDC_BASE_SEPOLIA", scheme: "exact" };
const expectedItems = [
  {
    id: "weather-now",
    name: "Current weather",
    priceUsd: 0.01,
    ...sepolia,
    toolName: "make-purchase",
    style: "monetized-mcp",
  },
  {
    id: "market-report",
    name: "Market report",
    priceUsd: 0.25,
    ...sepolia,
    toolName: "make-purchase",
    style: "monetized-mcp",
  },
  {
    id: "page-screenshot",
    name: "Page screenshot",
    priceUsd: 0,
    ...sepolia,
    toolName: "make-purchase",
    style: "monetized-mcp",
  },
  {
    id: "logo-render",
    name: "Logo render",
    priceUsd: 0.1,
    ...sepolia,
    toolName: "make-purchase",
    style: "monetized-mcp",
  },
  // Each paid item is also sold per call over x402's MCP binding, under a tool of its own.
  { id: null, name: "weather", priceUsd: 0.01, ...sepolia, toolName: "weather", style: "agora-kit", description: null },
  {
    id: null,
    name: "market-report",
    priceUsd: 0.25,
    ...sepolia,
    toolName: "market-report",
    style: "agora-kit",
    description: null,
  },
  {
    id: null,
    name: "logo-render",
    priceUsd: 0.1,
    ...sepolia,
    toolName: "logo-render",
    style: "agora-kit",
    description: null,
  },
];
const expectedMethods = [
  { id: "USDC_BASE_SEPOLIA", network: "base-sepolia", asset: "USDC", payTo: PLACEHOLDER_WALLET },
];

type Facts = {
  tools: { name: string; priceUsd: number | null; paymentMethods: string[] }[];
  pricedItems: Record<string, unknown>[];
  paymentMethods: Record<string, unknown>[];
  lastCheckedAt: string | null;
  reachable: boolean | null;
  uptime30d: { percent: number | null; checks: number; medianLatencyMs: number | null };
  lastVerification: { status: string; checkedAt: string } | null;
  verified: boolean;
  drift: unknown[];
  delivery30d: { delivered: number; failedUncharged: number; failedCharged: number };
};

const offer = (f: Facts) => ({
  tools: f.tools,
  pricedItems: f.pricedItems,
  paymentMethods: f.paymentMethods,
  lastCheckedAt: f.lastCheckedAt,
  verified: f.verified,
  drift: f.drift,
});
/** The offer without descriptions: what server.json's `_meta` keeps when it is over the registry's 4 KB budget. */
const terms = (f: Facts) => {
  const o = offer(f);
  return {
    ...o,
    tools: o.tools.map((t) => ({ ...t, description: null })),
    pricedItems: o.pricedItems.map((i) => ({ ...i, description: null })),
  };
};

describe.each(drivers())("a probed listing on every surface (%s)", (driver) => {
  let conn: TestConnection;
  let reference: ReferenceServer;
  let registry: Awaited<ReturnType<typeof serveRoute>>;
  let client: Client;
  let id: string;

  beforeAll(async () => {
    process.env.SITE_URL = "https://agora.test";
    process.env.RATE_LIMIT_DISABLED = "1";
    reloadEnv();
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    reference = await startReferenceServer({ port: 0 });
    const listing = await insertListing(conn.db, {
      name: "Reference Weather",
      description: "The reference MonetizedMCP server, probed for real on loopback.",
      categories: ["Data"],
      serverUrl: reference.url,
      status: "approved",
    });
    id = listing.id;
    const probed = await checkListing(conn.db, id, loopback);
    expect(probed?.listing).toEqual({ price: 0.01, verified: true });
    registry = await serveRoute({ POST, GET, DELETE, OPTIONS });
    client = new Client({ name: "surfaces-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${registry.url}/api/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await registry?.close();
    await reference?.close();
    await conn?.close();
    delete process.env.SITE_URL;
    delete process.env.RATE_LIMIT_DISABLED;
    reloadEnv();
  });

  it("carries the same tools, prices, payment methods and last check everywhere", async () => {
    const listed = (
      (await (await listAgents(new Request("http://localhost/api/mcp-agents?q=reference%20weather"))).json()) as Facts[]
    )[0]!;
    const single = (await (
      await oneAgent(new Request(`http://localhost/api/mcp-agents/${id}`), { params: Promise.resolve({ id }) })
    ).json()) as Facts;
    const details = ((await client.callTool({ name: "get_server", arguments: { id } })) as CallToolResult)
      .structuredContent as unknown as Facts;
    const registryList = (await (
      await listV01(new Request("http://localhost/v0.1/servers?search=reference-weather"))
    ).json()) as {
      servers: { server: { _meta: Record<string, Facts> } }[];
    };
    const registryOne = (await (
      await oneV01(new Request("http://localhost/v0.1/servers/dev.agora-mcp%2Freference-weather"), {
        params: Promise.resolve({ path: ["dev.agora-mcp/reference-weather"] }),
      })
    ).json()) as { server: { _meta: Record<string, Facts> } };

    expect(listed.pricedItems).toEqual(expectedItems.map((i) => ({ description: expect.any(String), ...i })));
    expect(listed.paymentMethods).toEqual(expectedMethods);
    expect(listed.tools.map((t) => [t.name, t.priceUsd])).toEqual([
      ["price-listing", null],
      ["payment-methods", null],
      ["make-purchase", 0.01],
      ["job-status", null],
      ["weather", 0.01],
      ["market-report", 0.25],
      ["logo-render", 0.1],
    ]);
    expect(listed.tools[2]!.paymentMethods).toEqual(["USDC_BASE_SEPOLIA"]);
    expect(listed).toMatchObject({ verified: true, reachable: true, lastVerification: { status: "passed" } });
    expect(listed.uptime30d).toMatchObject({ percent: 100, checks: 1 });
    expect(listed.delivery30d).toEqual({ delivered: 0, failedUncharged: 0, failedCharged: 0 });
    expect(Date.parse(listed.lastCheckedAt!)).toBeGreaterThan(Date.now() - 60_000);

    for (const other of [
      single,
      details,
      registryList.servers[0]!.server._meta[OURS]!,
      registryOne.server._meta[OURS]!,
    ]) {
      // Every name, price, payee and check is the same everywhere; the descriptions too unless _meta had to shed them.
      if ((other as { truncated?: boolean }).truncated) expect(terms(other)).toEqual(terms(listed));
      else expect(offer(other)).toEqual(offer(listed));
      expect(other.uptime30d).toEqual(listed.uptime30d);
      expect(other.lastVerification).toEqual(listed.lastVerification);
      expect(other.delivery30d).toEqual(listed.delivery30d);
    }
  });

  it("search_servers says when each server was last checked and whether it answered", async () => {
    const result = (await client.callTool({
      name: "search_servers",
      arguments: { query: "reference weather" },
    })) as CallToolResult;
    const [summary] = (result.structuredContent as { servers: (Facts & { price: number })[] }).servers;
    expect(summary).toMatchObject({
      price: 0.01,
      verified: true,
      reachable: true,
      uptime30d: { percent: 100, checks: 1 },
    });
    expect(summary!.lastCheckedAt).toEqual(expect.any(String));
  });

  it("shows a server that stopped answering as unreachable and unverified on every surface", async () => {
    await reference.close();
    const probed = await checkListing(conn.db, id, { ...loopback, timeoutMs: 3_000 });
    expect(probed?.result.reachable).toBe(false);
    const single = (await (
      await oneAgent(new Request(`http://localhost/api/mcp-agents/${id}`), { params: Promise.resolve({ id }) })
    ).json()) as Facts;
    expect(single).toMatchObject({
      verified: false,
      reachable: false,
      lastVerification: { status: "failed" },
      uptime30d: { percent: 50, checks: 2 },
    });
    const details = ((await client.callTool({ name: "get_server", arguments: { id } })) as CallToolResult)
      .structuredContent as unknown as Facts;
    expect(details).toMatchObject({ verified: false, reachable: false, uptime30d: { percent: 50, checks: 2 } });
  });
});
