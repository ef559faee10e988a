// A listing's 30-day delivery record (its test purchases and buyers' signed receipts: delivered, failed uncharged,
// failed charged, and how many of them buyers reported) reaches every
// surface that publishes the listing's facts: the JSON API (list and one), MCP get_server and search_servers, and
// server.json's `_meta`; a listing never bought from shows zeros, not nothing.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as oneAgent } from "@/app/api/mcp-agents/[id]/route";
import { GET as listAgents } from "@/app/api/mcp-agents/route";
import { DELETE, GET, OPTIONS, POST } from "@/app/api/mcp/route";
import { GET as oneV01 } from "@/app/v0.1/servers/[...path]/route";
import { buyerReceipts, testPurchases } from "@/db/schema";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { insertListing } from "@/lib/listings/write";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { serveRoute } from "../support/route-server";

const OURS = "dev.agora-mcp/listing";
type Delivery = {
  delivered: number;
  failedUncharged: number;
  failedCharged: number;
  buyerReceipts?: { delivered: number; failedCharged: number };
};
type Facts = { id: string; delivery30d: Delivery };

describe.each(drivers())("delivery evidence on every surface (%s)", (driver) => {
  let conn: TestConnection;
  let registry: Awaited<ReturnType<typeof serveRoute>>;
  let client: Client;
  let boughtId: string;
  let untestedId: string;

  beforeAll(async () => {
    process.env.SITE_URL = "https://agora.test";
    process.env.RATE_LIMIT_DISABLED = "1";
    reloadEnv();
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    const bought = await insertListing(conn.db, {
      name: "Evidenced Quotes",
      description: "A listing Agora has bought from.",
      categories: ["Data"],
      serverUrl: "https://evidenced.example.com/mcp",
      status: "approved",
    });
    const untested = await insertListing(conn.db, {
      name: "Evidenced Untried",
      description: "A listing Agora never bought from.",
      categories: ["Data"],
      serverUrl: "https://untried.example.com/mcp",
      status: "approved",
    });
    boughtId = bought.id;
    untestedId = untested.id;
    const day = 86_400_000;
    const row = (outcome: string, money: string, ageMs = 60_000) => ({
      listingId: boughtId,
      item: "quote",
      network: "eip155:84532",
      payTo: "0xabc",
      units: 10_000n,
      outcome,
      money,
      startedAt: new Date(Date.now() - ageMs),
      finishedAt: new Date(Date.now() - ageMs + 1_000),
    });
    await conn.db.insert(testPurchases).values([
      row("delivered", "paid", 3 * day),
      row("delivered", "paid", 2 * day),
      row("delivered", "job-done", day),
      row("refused", "refused", 5 * day),
      row("not-delivered", "disputed", 4 * day),
      row("drift", "none"),
      row("not-delivered", "paid", 40 * day), // outside the window
    ] as never);
    // Buyers' receipts (checked against the chain when they arrived; here, stored as they would be): counted by when the sale was paid.
    const receipt = (n: number, delivered: boolean, ageMs: number) => ({
      listingId: boughtId,
      chainId: 84532,
      txHash: `0x${n.toString(16).padStart(64, "0")}`,
      logIndex: 1,
      payer: "0x0000000000000000000000000000000000000001",
      payee: "0x0000000000000000000000000000000000000002",
      amount: "10000",
      blockNumber: BigInt(n),
      paidAt: new Date(Date.now() - ageMs),
      delivered,
      signature: "0x",
      signedAt: new Date(),
    });
    await conn.db
      .insert(buyerReceipts)
      .values([receipt(1, true, day), receipt(2, false, 2 * day), receipt(3, true, 40 * day)]);
    registry = await serveRoute({ POST, GET, DELETE, OPTIONS });
    client = new Client({ name: "delivery-evidence-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${registry.url}/api/mcp`)));
  });

  afterAll(async () => {
    await client?.close();
    await registry?.close();
    await conn?.close();
    delete process.env.SITE_URL;
    delete process.env.RATE_LIMIT_DISABLED;
    reloadEnv();
  });

  const expected = {
    delivered: 4,
    failedUncharged: 1,
    failedCharged: 2,
    buyerReceipts: { delivered: 1, failedCharged: 1 },
  };
  const none = { delivered: 0, failedUncharged: 0, failedCharged: 0 };

  it("the JSON API lists and shows each listing's 30-day delivery counts", async () => {
    const listed = (await (
      await listAgents(new Request("http://localhost/api/mcp-agents?q=evidenced"))
    ).json()) as Facts[];
    const byId = new Map(listed.map((f) => [f.id, f.delivery30d]));
    expect(byId.get(boughtId)).toEqual(expected);
    expect(byId.get(untestedId)).toEqual(none);
    const one = (await (
      await oneAgent(new Request(`http://localhost/api/mcp-agents/${boughtId}`), {
        params: Promise.resolve({ id: boughtId }),
      })
    ).json()) as Facts;
    expect(one.delivery30d).toEqual(expected);
  });

  it("MCP get_server and search_servers carry the same counts", async () => {
    const details = ((await client.callTool({ name: "get_server", arguments: { id: boughtId } })) as CallToolResult)
      .structuredContent as unknown as Facts;
    expect(details.delivery30d).toEqual(expected);
    const untried = ((await client.callTool({ name: "get_server", arguments: { id: untestedId } })) as CallToolResult)
      .structuredContent as unknown as Facts;
    expect(untried.delivery30d).toEqual(none);
    const found = (await client.callTool({
      name: "search_servers",
      arguments: { query: "evidenced quotes" },
    })) as CallToolResult;
    const servers = (found.structuredContent as { servers: Facts[] }).servers;
    expect(servers.find((s) => s.id === boughtId)?.delivery30d).toEqual(expected);
  });

  it("server.json's _meta carries them under Agora's namespace", async () => {
    const name = "dev.agora-mcp/evidenced-quotes";
    const res = await oneV01(new Request(`http://localhost/v0.1/servers/${encodeURIComponent(name)}`), {
      params: Promise.resolve({ path: [name] }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { server: { _meta: Record<string, Facts> } };
    expect(body.server._meta[OURS]!.delivery30d).toEqual(expected);
  });
});
