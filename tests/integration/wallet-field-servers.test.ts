// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).
// The wallet client buys from paid MCP servers built with the field's own libraries (tests/support/field-servers:
// x402's MCP transport, Cloudflare's agents/x402, Vercel's x402-mcp, the JSON-RPC 402 transport, MCPay), driven as
// a host drives it: the built client started over stdio, explore_server then purchase, on the local chain through
// the loopback facilitator. For each style: exactly the price leaves the buyer and reaches the payee, the ledger
// keeps the receipt with the settlement's transaction, the free tool (which has a side effect) is never called, and
// a paid run that fails charges nothing (the authorisation stays unused, the ledger says refused).
// A server whose tools/list says nothing about payment (x402's transport, JSON-RPC 402) is bought through a
// registry listing that names its tool as a paid item (get_server in the site's shape, on loopback): the wallet
// never calls unpaid a tool nothing says is paid. The others are reached by URL (ENABLE_UNSAFE_DIRECT_ACCESS).
// Then the same fixtures whose facilitator verifies the payment but refuses to settle it: nothing moves, and the
// wallet says so. Last, a server raising its price between the unpaid call and the paid one is paid nothing.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STYLES, startStyleServer } from "../../packages/client/test/support/style-servers";
import { FIELD_STYLES, startFieldServer, type FieldServer, type FieldStyle } from "../support/field-servers";
import { REFUSED_REASON, startRefusingFacilitator } from "../support/refusing-facilitator";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";

const BIN = path.resolve("packages/client/dist/bin.js");
const UNITS = 10_000n; // $0.01
const TX_HASH = /^0x[0-9a-f]{64}$/;
/** Styles whose tools/list does not say the tool is paid: bought through a registry listing naming it. */
const SILENT: ReadonlySet<FieldStyle> = new Set(["x402-mcp-v2", "jsonrpc-402"]);
/** The style explore_server shows for each fixture, and its name. */
const SHOWN: Record<FieldStyle, { style: string; name: string } | undefined> = {
  "x402-mcp-v2": { style: "x402-mcp", name: "x402 MCP transport" },
  "jsonrpc-402": { style: "jsonrpc-402", name: "x402 JSON-RPC 402" },
  "cloudflare-agents": { style: "cloudflare-agents", name: "Cloudflare Agents SDK (x402)" },
  "vercel-x402-mcp": { style: "vercel-x402-mcp", name: "Vercel x402-mcp" },
  mcpay: { style: "mcpay", name: "MCPay" },
};

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agora-wallet-field-"));
let stack: PaymentStack;
let registry: http.Server;
let registryUrl = "";
const servers = {} as Record<FieldStyle, FieldServer>;
const payees = {} as Record<FieldStyle, `0x${string}`>;
let host: Client;
let buyer: `0x${string}`;
let walletFile = "";

/** A registry listing: the server, its paid tool as a priced item (with the style the site's check read), its payee. */
type Listed = { url: string; tool: string; payTo: `0x${string}`; style?: string };
const listed = new Map<string, Listed>();

/** Agora's registry as the wallet reads it: get_server for the listings above (slug → listing). */
function registryServer(): McpServer {
  const mcp = new McpServer({ name: "agora-registry", version: "1.0.0" });
  mcp.registerTool("get_server", { inputSchema: { id: z.string() } }, async ({ id }) => {
    const entry = listed.get(id);
    if (!entry)
      return {
        isError: true,
        content: [{ type: "text" as const, text: `No approved MCP server has the id or slug "${id}".` }],
      };
    const listing = {
      id: `00000000-0000-4000-8000-${String([...listed.keys()].indexOf(id)).padStart(12, "0")}`,
      slug: id,
      name: `Weather (${id})`,
      description: "Forecasts, paid per call",
      categories: ["Data"],
      price: 0.01,
      free: false,
      verified: true,
      serverUrl: entry.url,
      detailUrl: `https://agora.example/marketplace/${id}`,
      websiteUrl: null,
      createdAt: "2026-11-01T00:00:00.000Z",
      updatedAt: "2026-11-01T00:00:00.000Z",
      pricedItems: [
        {
          id: null,
          name: entry.tool,
          priceUsd: 0.01,
          paymentMethod: "USDC_BASE_SEPOLIA",
          toolName: entry.tool,
          ...(entry.style ? { style: entry.style } : {}),
        },
      ],
      paymentMethods: [{ id: "USDC_BASE_SEPOLIA", network: "base-sepolia", asset: "USDC", payTo: entry.payTo }],
    };
    return { content: [{ type: "text" as const, text: listing.name }], structuredContent: listing };
  });
  return mcp;
}

function importKey(env: Record<string, string>, key: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "import-key"], { env: { ...process.env, ...env } });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(err))));
    child.stdin.end(key);
  });
}

async function call(name: string, args: Record<string, unknown>) {
  const result = (await host.callTool({ name, arguments: args })) as CallToolResult;
  return {
    result,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    data: result.structuredContent as Record<string, any>,
    text: result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"),
  };
}

/** The purchase attempts in the wallet's ledger (one JSON line per state; the last line of an id wins). */
function ledger(): {
  id: string;
  status: string;
  units: string;
  item: string;
  transaction?: string;
  serverUrl?: string;
}[] {
  const file = path.join(path.dirname(walletFile), `ledger-base-sepolia-${buyer.toLowerCase()}.jsonl`);
  const lines = fs.existsSync(file)
    ? fs
        .readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
  const last = new Map<string, (typeof lines)[number]>();
  for (const line of lines) last.set(line.id, { ...last.get(line.id), ...line });
  return [...last.values()];
}

async function balances(style: FieldStyle) {
  return balancesOf(payees[style]);
}

async function balancesOf(payee: `0x${string}`) {
  return { buyer: await stack.chain.usdcBalance(buyer), payee: await stack.chain.usdcBalance(payee) };
}

/** How the wallet names the fixture: its registry listing when nothing in its tools/list says it is paid, else its URL. */
const serverKey = (style: FieldStyle) => (SILENT.has(style) ? style : servers[style].url);

beforeAll(async () => {
  stack = await startPaymentStack();
  for (const style of FIELD_STYLES) {
    payees[style] = stack.freshAddress();
    servers[style] = await startFieldServer(style, {
      facilitatorUrl: stack.facilitator.url,
      payTo: payees[style],
      units: UNITS,
    });
    listed.set(style, {
      url: servers[style].url,
      tool: servers[style].paidTool,
      payTo: payees[style],
      style: SHOWN[style]?.style,
    });
  }
  registry = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const mcp = registryServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => void transport.close().then(() => mcp.close()));
    await mcp.connect(transport);
    const text = Buffer.concat(chunks).toString("utf8");
    await transport.handleRequest(req, res, text ? JSON.parse(text) : undefined);
  });
  await new Promise<void>((r) => registry.listen(0, "127.0.0.1", () => r()));
  registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/api`;

  const key = generatePrivateKey();
  buyer = privateKeyToAccount(key).address;
  walletFile = path.join(tmp, ".agora-mcp", "wallet.json");
  const env = {
    AGORA_REGISTRY_URL: registryUrl,
    AGORA_RPC_URL: stack.chain.rpcUrl,
    AGORA_WALLET_FILE: walletFile,
    ENABLE_UNSAFE_DIRECT_ACCESS: "true",
    ENABLE_REQUEST_ELICITATION: "false",
    AGORA_MAX_PER_PURCHASE: "0.05",
    AGORA_DAILY_CAP: "1.00",
  };
  await importKey(env, key);
  await stack.chain.mintUsdc(buyer, 1_000_000n);
  host = new Client({ name: "host", version: "1.0.0" });
  await host.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN],
      env: { ...process.env, ...env } as Record<string, string>,
      stderr: "ignore",
    }),
  );
});

afterAll(async () => {
  await host?.close();
  for (const server of Object.values(servers)) await server.close();
  await new Promise<void>((r) => (registry ? (registry.closeAllConnections(), registry.close(() => r())) : r()));
  await stack?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe.each(FIELD_STYLES)("a %s server", (style) => {
  it("is explored, then bought once: exactly the price moves on chain, the ledger keeps the receipt, the free tool is never called", async () => {
    const server = servers[style];
    const explored = await call("explore_server", { server: serverKey(style) });
    expect(explored.result.isError).toBeFalsy();
    const shown = SHOWN[style]!;
    expect(explored.data.x402Tools).toEqual([
      expect.objectContaining({ name: server.paidTool, style: shown.style, styleName: shown.name }),
    ]);
    expect(explored.text).toContain(`- paid tool ${server.paidTool} (${shown.name})`);
    expect(server.counts).toEqual({ paidRuns: 0, freeCalls: 0 });

    const before = await balances(style);
    const bought = await call("purchase", {
      server: serverKey(style),
      item: server.paidTool,
      params: { city: "Lisbon" },
    });
    expect(bought.data).toMatchObject({
      status: "delivered",
      signed: true,
      priceUsd: "$0.01",
      item: server.paidTool,
      transaction: expect.stringMatching(TX_HASH),
    });
    expect(bought.data.payTo?.toLowerCase()).toBe(payees[style].toLowerCase());
    expect(bought.text).toContain("Lisbon");
    expect(await balances(style)).toEqual({ buyer: before.buyer - UNITS, payee: before.payee + UNITS });
    expect(ledger().filter((a) => a.item === server.paidTool && a.serverUrl === server.url)).toEqual([
      expect.objectContaining({ status: "paid", units: UNITS.toString(), transaction: bought.data.transaction }),
    ]);
    expect(server.counts).toEqual({ paidRuns: 1, freeCalls: 0 });
  });

  it("charges nothing when the paid run fails: the authorisation stays unused and the ledger says refused", async () => {
    const server = servers[style];
    const before = await balances(style);
    const attempts = ledger().length;
    server.failNext();
    const failed = await call("purchase", {
      server: serverKey(style),
      item: server.paidTool,
      params: { city: "Porto" },
    });
    expect(failed.result.isError).toBe(true);
    expect(failed.data).toMatchObject({ status: "failed", signed: true });
    expect(failed.data.message).toContain("The payment was not used; nothing was paid.");
    expect(await balances(style)).toEqual(before);
    expect(ledger().slice(attempts)).toEqual([expect.objectContaining({ status: "refused", item: server.paidTool })]);
    // The failed run ran (and was counted); nothing was settled for it.
    expect(server.counts).toEqual({ paidRuns: 2, freeCalls: 0 });
  });
});

describe.each(FIELD_STYLES)("a %s server whose facilitator refuses the settlement", (style) => {
  it("is paid nothing: the wallet reports the refusal and the chain shows the authorisation unused", async () => {
    const refusing = await startRefusingFacilitator(stack.facilitator.url);
    const payTo = stack.freshAddress();
    const server = await startFieldServer(style, { facilitatorUrl: refusing.url, payTo, units: UNITS });
    try {
      const slug = `refused-${style}`;
      listed.set(slug, { url: server.url, tool: server.paidTool, payTo, style: SHOWN[style]?.style });
      const before = await balancesOf(payTo);
      const attempts = ledger().length;
      const bought = await call("purchase", {
        server: SILENT.has(style) ? slug : server.url,
        item: server.paidTool,
        params: { city: "Lisbon" },
      });
      expect(bought.data).toMatchObject({ status: "failed", signed: true, priceUsd: "$0.01" });
      expect(bought.data.message).toContain("The payment was not used; nothing was paid.");
      // Each library says it its own way: a failed settlement response, no settlement at all, or another request for payment.
      expect(bought.data.message).toMatch(
        new RegExp(`${REFUSED_REASON}|no successful settlement|another request for payment`),
      );
      expect(await balancesOf(payTo)).toEqual(before);
      expect(ledger().slice(attempts)).toEqual([
        expect.objectContaining({ status: "refused", units: UNITS.toString() }),
      ]);
      expect(server.counts.freeCalls).toBe(0);
    } finally {
      await server.close();
      await refusing.close();
    }
  });
});

// A server that asks one price unpaid and checks the payment against a higher one (its own servers, one per style's
// wire format, settling through the same facilitator): the wallet signs only the quoted terms, once; the
// facilitator finds them short of the new price, nothing settles, and no money moves.
describe.each(STYLES)("a %s server that raises its price between the ask and the payment", (style) => {
  it("is paid nothing: one authorisation for the quoted amount, refused, unused on chain", async () => {
    const payTo = stack.freshAddress();
    const server = await startStyleServer(style, {
      payTo,
      units: UNITS,
      behaviour: "raise-price",
      facilitatorUrl: stack.facilitator.url,
    });
    try {
      const slug = `rising-${style}`;
      listed.set(slug, { url: server.url, tool: server.paidTool, payTo });
      const before = await balancesOf(payTo);
      const attempts = ledger().length;
      const bought = await call("purchase", { server: slug, item: server.paidTool, params: { city: "Lisbon" } });
      expect(bought.data).toMatchObject({ status: "failed", signed: true, priceUsd: "$0.01" });
      expect(bought.data.message).toContain("another request for payment");
      expect(bought.data.message).toContain("The payment was not used; nothing was paid.");
      expect(server.signedValues).toEqual([
        { value: UNITS.toString(), to: expect.stringMatching(new RegExp(`^${payTo}$`, "i")) },
      ]);
      expect(server.settled).toEqual([]);
      expect(server.counts.paidRuns).toBe(0);
      expect(await balancesOf(payTo)).toEqual(before);
      expect(ledger().slice(attempts)).toEqual([
        expect.objectContaining({ status: "refused", units: UNITS.toString() }),
      ]);
    } finally {
      await server.close();
    }
  });
});
