// The wallet buys from every style of paid MCP server the field builds (paid-styles.ts), through its own
// explore_server reading and purchase(): small servers on loopback speak each style's wire format exactly
// (test/support/style-servers.ts) and verify each payment's EIP-712 signature; the chain reader here answers from
// what the servers settled. Each purchase pays exactly the quoted offer, once; a server that asks again, asks terms
// this wallet cannot pay, raises its price between the ask and the payment, or runs without asking is reported so,
// and nothing is signed twice. On a real chain with the field's own packages: tests/integration/wallet-field-servers.test.ts.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { generatePrivateKey } from "viem/accounts";
import { z } from "zod";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { PAID_STYLE_NAMES } from "@agora-mcp/protocol";
import {
  buildClientServer,
  Ledger,
  loadSettings,
  purchase,
  walletFromKey,
  type ChainReader,
  type PurchaseDeps,
} from "@agora-mcp/client";
import { STYLES, startStyleServer, type Behaviour, type Style, type StyleServer } from "./support/style-servers.js";

const PAYEE = "0x000000000000000000000000000000000000dEaD" as const;
const UNITS = 10_000n; // $0.01
/** Styles whose tools/list says nothing: the wallet calls them unpaid only when told they are paid. */
const SILENT: ReadonlySet<Style> = new Set(["x402-mcp", "jsonrpc-402"]);

const dirs: string[] = [];
let servers: StyleServer[] = [];
let registry: http.Server | undefined;

afterEach(async () => {
  for (const s of servers) await s.close();
  servers = [];
  await new Promise<void>((r) => (registry ? (registry.closeAllConnections(), registry.close(() => r())) : r()));
  registry = undefined;
});
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function start(style: Style, behaviour: Behaviour = "normal"): Promise<StyleServer> {
  const server = await startStyleServer(style, { payTo: PAYEE, units: UNITS, behaviour });
  servers.push(server);
  return server;
}

/** A chain that knows what the servers settled: a transaction pays what its authorisation said, a nonce is used once settled. */
function chainOf(): ChainReader {
  const all = () => servers.flatMap((s) => s.settled);
  return {
    usdcBalance: async () => 1_000_000_000n,
    ethBalance: async () => 0n,
    authorizationUsed: async (_from, nonce) => all().some((s) => s.nonce === nonce),
    // These servers take exact payments only.
    permit2NonceUsed: async () => false,
    readContract: async () => {
      throw new Error("these servers take exact payments only: nothing reads a contract");
    },
    checkPayment: async ({ transaction, from, payTo, units }) => {
      const hit = all().find((s) => s.transaction === transaction);
      if (!hit) return { ok: false, reason: "no such transaction" };
      return hit.from.toLowerCase() === from.toLowerCase() &&
        hit.to.toLowerCase() === payTo.toLowerCase() &&
        hit.units === units
        ? { ok: true, moved: units }
        : { ok: false, reason: "it moved other terms" };
    },
  };
}

function buyer(env: Record<string, string> = {}): { deps: PurchaseDeps; ledger: Ledger } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-styles-"));
  dirs.push(dir);
  const settings = loadSettings({
    AGORA_WALLET_FILE: path.join(dir, "wallet.json"),
    ENABLE_UNSAFE_DIRECT_ACCESS: "true",
    ENABLE_REQUEST_ELICITATION: "false",
    AGORA_RPC_URL: "http://127.0.0.1:9",
    ...env,
  });
  const ledger = new Ledger(path.join(dir, "ledger.jsonl"));
  return { ledger, deps: { settings, wallet: walletFromKey(generatePrivateKey()), ledger, chain: chainOf() } };
}

const buy = (deps: PurchaseDeps, server: StyleServer, extra: Partial<Parameters<typeof purchase>[0]> = {}) =>
  purchase(
    {
      server: server.url,
      item: server.paidTool,
      params: { city: "Porto" },
      ...(SILENT.has(server.style) ? { paidTool: {} } : {}),
      ...extra,
    },
    deps,
  );

describe.each(STYLES)("a %s server", (style) => {
  it("is bought once: the quoted offer signed in its version, sent in the style's encoding, settled, checked and kept in the ledger", async () => {
    const server = await start(style);
    const { deps, ledger } = buyer();
    const outcome = await buy(deps, server);
    expect(outcome).toMatchObject({
      status: "delivered",
      signed: true,
      priceUsd: "$0.01",
      payTo: PAYEE,
      item: server.paidTool,
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(String(outcome.result)).toContain("Forecast for Porto");
    expect(server.counts).toEqual({ unpaidCalls: 1, payments: 1, paidRuns: 1, freeCalls: 0 });
    expect(server.signedValues).toEqual([{ value: "10000", to: PAYEE }]);
    expect(ledger.attempts().map((a) => [a.status, a.units, a.item, a.transaction])).toEqual([
      ["paid", "10000", server.paidTool, outcome.transaction],
    ]);
  });

  it("charges nothing when the paid run fails: the authorisation is unused and the ledger says refused", async () => {
    const server = await start(style);
    const { deps, ledger } = buyer();
    server.failNext();
    const outcome = await buy(deps, server);
    expect(outcome).toMatchObject({ status: "failed", signed: true });
    expect(outcome.message).toMatch(/The payment was not used; nothing was paid\./);
    expect(server.settled).toEqual([]);
    expect(ledger.attempts().map((a) => a.status)).toEqual(["refused"]);
  });

  it("signs once when the paid call asks for payment again, and reports the refusal with its reason", async () => {
    const server = await start(style, "ask-again");
    const { deps, ledger } = buyer();
    const outcome = await buy(deps, server);
    expect(outcome).toMatchObject({ status: "failed", signed: true });
    expect(outcome.message).toContain("another request for payment");
    expect(outcome.message).toContain("payment refused: try again");
    expect(server.counts).toMatchObject({ unpaidCalls: 1, payments: 1, paidRuns: 0 });
    expect(ledger.attempts().map((a) => a.status)).toEqual(["refused"]);
  });

  it("pays only the quoted terms when the price rises between the ask and the payment: the server refuses them and nothing moves", async () => {
    const server = await start(style, "raise-price");
    const { deps, ledger } = buyer();
    const outcome = await buy(deps, server);
    // One signature, for the quoted $0.01; the server now wants $0.05, so its check fails and nothing settles.
    expect(server.signedValues).toEqual([{ value: "10000", to: PAYEE }]);
    expect(outcome).toMatchObject({ status: "failed", signed: true, priceUsd: "$0.01" });
    expect(outcome.message).toContain("another request for payment");
    expect(server.settled).toEqual([]);
    expect(server.counts.paidRuns).toBe(0);
    expect(ledger.attempts().map((a) => a.status)).toEqual(["refused"]);
  });

  it("refuses before signing when no offer is payable, naming each offer's reason", async () => {
    const server = await start(style, "unpayable");
    const { deps, ledger } = buyer();
    const outcome = await buy(deps, server);
    expect(outcome).toMatchObject({ status: "refused", signed: false });
    expect(outcome.message).toContain("no offer is one this wallet can pay on Base Sepolia");
    expect(outcome.message).toMatch(/offer 1: an upto offer (names no facilitatorAddress|must be x402 version 2);/);
    expect(outcome.message).toContain("offer 2: it is paid on Base; this wallet pays on Base Sepolia");
    expect(outcome.message).toContain("offer 3: asset is not USDC on Base Sepolia");
    expect(outcome.message).toContain("offer 4: it asks for a permit2 transfer");
    expect(outcome.message).toContain("Nothing was signed.");
    expect(server.counts.payments).toBe(0);
    expect(ledger.lines()).toEqual([]);
  });

  it("reports a tool that answers without asking for payment as run, with nothing signed", async () => {
    const server = await start(style, "no-ask");
    const { deps } = buyer();
    const outcome = await buy(deps, server);
    expect(outcome).toMatchObject({ status: "free", signed: false, priceUsd: "$0.00" });
    expect(outcome.message).toContain("ran without asking for payment");
    expect(String(outcome.result)).toContain("Forecast for Porto");
    expect(server.counts.payments).toBe(0);
  });

  it("keeps every rule before signing: the spending policy, the buyer's expected terms, the maximum price", async () => {
    const server = await start(style);
    const capped = buyer({ AGORA_MAX_PER_PURCHASE: "0.005" });
    expect(await buy(capped.deps, server)).toMatchObject({ status: "refused", signed: false, rule: "maxPerPurchase" });
    const drift = await buy(buyer().deps, server, { expectTerms: { units: "5000", payTo: PAYEE } });
    expect(drift).toMatchObject({ status: "drift", signed: false });
    expect(await buy(buyer().deps, server, { maxPriceUsd: "0.005" })).toMatchObject({
      status: "refused",
      signed: false,
    });
    expect(server.counts).toMatchObject({ unpaidCalls: 3, payments: 0, paidRuns: 0, freeCalls: 0 });
  });
});

/** explore_server's structured answer for `server`, through the wallet's own MCP server in process. */
async function explore(deps: PurchaseDeps, server: string) {
  const mcp = buildClientServer({
    settings: deps.settings,
    wallet: deps.wallet,
    ledger: deps.ledger as Ledger,
    chain: deps.chain,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverSide);
  const client = new Client({ name: "host", version: "1.0.0" });
  await client.connect(clientSide);
  try {
    const result = await client.callTool({ name: "explore_server", arguments: { server } });
    const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("\n");
    return {
      text,
      data: result.structuredContent as {
        x402Tools: { name: string; style?: string; styleName?: string; priceUsd?: string }[];
      },
    };
  } finally {
    await client.close();
  }
}

describe("which tools the wallet takes for paid", () => {
  it("explore_server lists each paid tool with its style's name and the price its listing gives, calling none of them", async () => {
    const { deps } = buyer();
    const seen: Record<string, unknown> = {};
    for (const style of STYLES) {
      const server = await start(style);
      const { data, text } = await explore(deps, server.url);
      seen[style] = data.x402Tools;
      if (!SILENT.has(style)) expect(text).toContain(`- paid tool ${server.paidTool} (${PAID_STYLE_NAMES[style]})`);
      expect(server.counts).toEqual({ unpaidCalls: 0, payments: 0, paidRuns: 0, freeCalls: 0 });
    }
    expect(seen).toEqual({
      "agora-kit": [
        {
          name: "agora_kit_forecast",
          description: "A weather forecast",
          style: "agora-kit",
          styleName: "Agora provider kit",
          priceUsd: "0.01",
        },
      ],
      "cloudflare-agents": [
        {
          name: "cloudflare_agents_forecast",
          description: "A weather forecast",
          style: "cloudflare-agents",
          styleName: "Cloudflare Agents SDK (x402)",
          priceUsd: "0.01",
        },
      ],
      "vercel-x402-mcp": [
        {
          name: "vercel_x402_mcp_forecast",
          description: "A weather forecast",
          style: "vercel-x402-mcp",
          styleName: "Vercel x402-mcp",
        },
      ],
      mcpay: [
        {
          name: "mcpay_forecast",
          description: "A weather forecast",
          style: "mcpay",
          styleName: "MCPay",
          priceUsd: "0.01",
        },
      ],
      // Nothing in their listing says they are paid: by URL alone the wallet does not take them for paid.
      "x402-mcp": [],
      "jsonrpc-402": [],
    });
  });

  it("calls a tool whose listing says nothing only when told it is paid, and never calls the free tool", async () => {
    for (const style of SILENT) {
      const server = await start(style);
      const outcome = await purchase(
        { server: server.url, item: server.paidTool, params: { city: "Porto" } },
        buyer().deps,
      );
      expect(outcome).toMatchObject({
        status: "refused",
        signed: false,
        message: expect.stringContaining(`"${server.paidTool}" is not sold by`),
      });
      expect(server.counts).toEqual({ unpaidCalls: 0, payments: 0, paidRuns: 0, freeCalls: 0 });
      const free = await purchase({ server: server.url, item: server.freeTool, params: {} }, buyer().deps);
      expect(free).toMatchObject({ status: "refused", signed: false });
      expect(server.counts.freeCalls).toBe(0);
    }
  });

  it("takes the registry listing's word for a paid tool, and its style, when the wallet resolved the server there", async () => {
    const server = await start("jsonrpc-402");
    registry = await registryServing(server, "jsonrpc-402");
    const { port } = registry.address() as AddressInfo;
    const { deps, ledger } = buyer({
      AGORA_REGISTRY_URL: `http://127.0.0.1:${port}/api`,
      ENABLE_UNSAFE_DIRECT_ACCESS: "false",
    });
    const explored = await explore(deps, "forecasts");
    expect(explored.data.x402Tools).toEqual([
      {
        name: server.paidTool,
        description: "A weather forecast",
        style: "jsonrpc-402",
        styleName: "x402 JSON-RPC 402",
        priceUsd: "0.01",
      },
    ]);
    expect(server.counts.unpaidCalls).toBe(0);
    const outcome = await purchase({ server: "forecasts", item: server.paidTool, params: { city: "Porto" } }, deps);
    expect(outcome).toMatchObject({ status: "delivered", signed: true, priceUsd: "$0.01", server: "Forecasts" });
    expect(ledger.attempts().map((a) => a.status)).toEqual(["paid"]);
    expect(server.counts).toEqual({ unpaidCalls: 1, payments: 1, paidRuns: 1, freeCalls: 0 });
  });
});

/** Agora's registry as the wallet reads it (get_server), listing `server` with its paid tool as a priced item of `style`. */
async function registryServing(server: StyleServer, style: Style): Promise<http.Server> {
  const build = () => {
    const mcp = new McpServer({ name: "agora-registry", version: "1.0.0" });
    mcp.registerTool("get_server", { inputSchema: { id: z.string() } }, async ({ id }) => {
      if (id !== "forecasts")
        return {
          isError: true,
          content: [{ type: "text", text: `No approved MCP server has the id or slug "${id}".` }],
        };
      const listing = {
        id: "00000000-0000-4000-8000-000000000001",
        slug: "forecasts",
        name: "Forecasts",
        description: `Forecasts, paid in the ${PAID_STYLE_NAMES[style]} style`,
        categories: ["AI"],
        price: 0.01,
        free: false,
        verified: true,
        serverUrl: server.url,
        detailUrl: "https://agora.example/marketplace/forecasts",
        websiteUrl: null,
        createdAt: "2026-11-01T00:00:00.000Z",
        updatedAt: "2026-11-01T00:00:00.000Z",
        pricedItems: [
          {
            id: null,
            name: server.paidTool,
            priceUsd: 0.01,
            paymentMethod: "USDC_BASE_SEPOLIA",
            toolName: server.paidTool,
            style,
          },
        ],
        paymentMethods: [{ id: "USDC_BASE_SEPOLIA", network: "base-sepolia", asset: "USDC", payTo: PAYEE }],
      };
      return { content: [{ type: "text", text: JSON.stringify(listing) }], structuredContent: listing };
    });
    return mcp;
  };
  const httpServer = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const mcp = build();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => void transport.close().then(() => mcp.close()));
    await mcp.connect(transport);
    const text = Buffer.concat(chunks).toString("utf8");
    await transport.handleRequest(req, res, text ? JSON.parse(text) : undefined);
  });
  await new Promise<void>((r) => httpServer.listen(0, "127.0.0.1", () => r()));
  return httpServer;
}
