// A purchase holds the server to the terms its Agora listing shows: a real kit server on loopback sells at $0.05 to
// its payee, and a registry on loopback answers get_server (in the shape the site's registry answers it) with a
// listing whose latest check showed that price and payee, or another one. A higher price, another payee, or a
// payee on a network the listing does not show is refused before anything is signed; a lower price goes on to the
// spending policy (whose $0.01 maximum then refuses it, so nothing here reaches the chain).
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { generatePrivateKey } from "viem/accounts";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMonetizedServer, type RunningServer } from "@agora-mcp/server";
import { chainReader, Ledger, loadSettings, purchase, walletFromKey, type PurchaseDeps } from "@agora-mcp/client";

const PAYEE = "0x000000000000000000000000000000000000dEaD";
const OTHER = "0x1111111111111111111111111111111111111111";
const CLOSED = "http://127.0.0.1:9";
const delivered: string[] = [];
let kit: RunningServer;
let registry: http.Server;
let registryUrl = "";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-listing-terms-"));

type Terms = {
  pricedItems?: { id: string | null; name: string; priceUsd: number; paymentMethod: string | null; toolName: string }[];
  paymentMethods?: { id: string; payTo: string | null }[];
};
const item = (priceUsd: number) => ({
  id: "quote",
  name: "Quote",
  priceUsd,
  paymentMethod: "USDC_BASE_SEPOLIA",
  toolName: "make-purchase",
});
const tool = (priceUsd: number) => ({
  id: null,
  name: "quote_x402",
  priceUsd,
  paymentMethod: "USDC_BASE_SEPOLIA",
  toolName: "quote_x402",
});
const method = (payTo: string, id = "USDC_BASE_SEPOLIA") => ({ id, network: null, asset: "USDC", payTo });

/** What each listing's latest check showed, by slug. */
const LISTINGS: Record<string, Terms> = {
  "as-listed": { pricedItems: [item(0.05), tool(0.05)], paymentMethods: [method(PAYEE.toLowerCase())] },
  "cheaper-now": { pricedItems: [item(0.1), tool(0.1)], paymentMethods: [method(PAYEE)] },
  "dearer-now": { pricedItems: [item(0.01), tool(0.02)], paymentMethods: [method(PAYEE)] },
  "new-payee": { pricedItems: [item(0.05)], paymentMethods: [method(OTHER)] },
  "other-network": { pricedItems: [item(0.05)], paymentMethods: [method(PAYEE, "USDC_BASE")] },
  unchecked: {},
};

/** Agora's registry as the client reads it: get_server's structured answer, for the listings above. */
function registryServer(): McpServer {
  const server = new McpServer({ name: "agora-registry", version: "1.0.0" });
  server.registerTool("get_server", { inputSchema: { id: z.string() } }, async ({ id }) => {
    const terms = LISTINGS[id];
    if (!terms)
      return { isError: true, content: [{ type: "text", text: `No approved MCP server has the id or slug "${id}".` }] };
    const listing = {
      id: `00000000-0000-4000-8000-${String(Object.keys(LISTINGS).indexOf(id)).padStart(12, "0")}`,
      slug: id,
      name: `Quotes (${id})`,
      description: "Quotes for tests",
      categories: ["AI"],
      price: 0.05,
      free: false,
      verified: true,
      serverUrl: kit.url,
      detailUrl: `https://agora.example/marketplace/${id}`,
      websiteUrl: null,
      createdAt: "2026-11-01T00:00:00.000Z",
      updatedAt: "2026-11-01T00:00:00.000Z",
      ...terms,
    };
    return { content: [{ type: "text", text: listing.name }], structuredContent: listing };
  });
  return server;
}

beforeAll(async () => {
  kit = await createMonetizedServer({
    name: "listing-terms-test",
    walletAddress: PAYEE,
    facilitatorUrl: CLOSED,
    log: () => {},
    items: [
      {
        id: "quote",
        name: "Quote",
        description: "A quote",
        price: "0.05",
        params: { topic: "Example: tea" },
        x402Tool: "quote_x402",
        handler: ({ topic }) => (delivered.push(topic!), `A quote about ${topic}`),
      },
    ],
  }).listen({ port: 0 });
  registry = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const server = registryServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res, JSON.parse(Buffer.concat(chunks).toString("utf8") || "null"));
  });
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
  registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  await kit?.close();
  await new Promise<void>((resolve) => (registry.closeAllConnections(), registry.close(() => resolve())));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A buyer of the registry above whose policy allows at most $0.01 a purchase, so nothing it buys is paid. */
function buyer(): { deps: PurchaseDeps; ledger: Ledger } {
  const folder = fs.mkdtempSync(path.join(dir, "buyer-"));
  fs.writeFileSync(path.join(folder, "policy.json"), JSON.stringify({ maxPerPurchase: "0.01" }));
  const settings = loadSettings({
    AGORA_REGISTRY_URL: registryUrl,
    AGORA_WALLET_FILE: path.join(folder, "wallet.json"),
    ENABLE_REQUEST_ELICITATION: "false",
    AGORA_RPC_URL: CLOSED,
  });
  const ledger = new Ledger(path.join(folder, "ledger.jsonl"));
  return {
    ledger,
    deps: {
      settings,
      wallet: walletFromKey(generatePrivateKey()),
      ledger,
      chain: chainReader(settings.network, settings.rpcUrl),
    },
  };
}

const buy = (server: string, deps: PurchaseDeps, item = "quote") =>
  purchase({ server, item, params: { topic: "tea" } }, deps);

describe("a purchase against the terms its listing shows", () => {
  it("refuses a listed item the server now sells dearer, naming the old and new price, before signing", async () => {
    const { deps, ledger } = buyer();
    const outcome = await buy("dearer-now", deps);
    expect(outcome).toMatchObject({ status: "drift", signed: false, priceUsd: "$0.05", payTo: PAYEE });
    expect(outcome.message).toBe(
      'Quotes (dearer-now) does not sell on the terms its listing shows: it now asks $0.05 for "Quote", more than the $0.01 its Agora listing shows. Nothing was signed or paid.',
    );
    expect(await buy("dearer-now", deps, "quote_x402")).toMatchObject({
      status: "drift",
      signed: false,
      message: expect.stringContaining(
        'it now asks $0.05 for "quote_x402", more than the $0.02 its Agora listing shows',
      ),
    });
    expect(ledger.lines()).toEqual([]);
  });

  it("refuses a payee the listing does not show, naming the old and new payee", async () => {
    const outcome = await buy("new-payee", buyer().deps);
    expect(outcome).toMatchObject({ status: "drift", signed: false, payTo: PAYEE });
    expect(outcome.message).toContain(
      `it now asks to be paid at ${PAYEE}, not at ${OTHER} as its Agora listing shows. Nothing was signed or paid.`,
    );
    const elsewhere = await buy("other-network", buyer().deps);
    expect(elsewhere).toMatchObject({ status: "drift", signed: false });
    expect(elsewhere.message).toContain(
      `it asks to be paid in USDC_BASE_SEPOLIA at ${PAYEE}, but its Agora listing shows no wallet for USDC_BASE_SEPOLIA (it shows USDC_BASE)`,
    );
  });

  it("lets the listed terms, a lower price, or a listing not yet checked go on to the spending policy", async () => {
    for (const listing of ["as-listed", "cheaper-now", "unchecked"]) {
      expect(await buy(listing, buyer().deps)).toMatchObject({
        status: "refused",
        signed: false,
        rule: "maxPerPurchase",
      });
    }
    expect(await buy("as-listed", buyer().deps, "quote_x402")).toMatchObject({
      status: "refused",
      rule: "maxPerPurchase",
    });
    expect(delivered).toEqual([]);
  });
});
