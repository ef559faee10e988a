// Paid MCP servers built with the field's libraries (tests/support/field-servers), each bought by that library's
// own client on the local chain: the buyer's USDC goes down and the payee's up by exactly the price, the answer
// carries the settlement's transaction, a run that fails moves no money, and the free tool runs only when called.
// Clients: x402's own for its MCP transport (x402Client + the exact EVM scheme, the retry driven by hand as its
// x402MCPClient does, the payment object in `_meta["x402/payment"]`), and the same for the JSON-RPC 402 transport;
// Cloudflare's `withX402Client` (agents 0.32); Vercel's `withPayment` (x402-mcp 0.0.5, which wraps an AI SDK MCP
// client's tools: an unpaid call, `generatePaymentAuthorization`, the call again with `paymentAuthorization`, the
// steps a model takes); MCPay's `withX402Client` (mcpay 0.1.17).
// What the libraries could not do on Node, and where their wire differs from what PROTOCOLS.md says:
// - Cloudflare's servers live in a McpAgent (a Durable Object) that Node cannot run; `withX402` wraps any MCP SDK
//   McpServer, and that is what runs here. Its unpaid answer has no structuredContent: PaymentRequired is in
//   `_meta["x402/error"]` and as text; its resource URL is `x402://<tool>`, not `mcp://tool/<tool>`.
// - x402-mcp and mcpay run on Vercel's mcp-handler 1.0.2, which keeps one stateless transport for all requests;
//   MCP SDK 1.26 and later (this project has 1.32) refuse it after the first request, so each fixture makes its
//   handler per request. x402-mcp's client needs the AI SDK's MCP client (`@ai-sdk/mcp` 1.x beside `ai` 6, where
//   `experimental_createMCPClient` left `ai`), and it creates its viem wallet client on the chain's public RPC
//   (unused for signing; this file refuses any fetch off loopback, so a stray call would fail the test).
// - x402-mcp speaks x402 version 1 with dotted keys (`x402.payment`, `x402.payment-response`), no `resource` object
//   and no `_meta` on the unpaid answer; and when the facilitator answers a settlement with success false (not an
//   HTTP error) it returns the tool's output without a payment-response: delivered unpaid.
// - mcpay speaks version 1 with slash keys, PaymentRequired in `_meta["x402/error"]` (no structuredContent, no
//   `resource`), announces the price in tools/list annotations (paymentHint, paymentPriceUSD, paymentNetworks),
//   and its README's `{price, currency}` price object would price nothing: its code takes a plain price.
// - The JSON-RPC 402 transport cannot be written on the SDK's McpServer (it turns a thrown error into an isError
//   result and drops its data, except for code -32042); it is on the low-level Server.
// - x402's own `@x402/mcp` is not in the registry here; its fixture is written from the package's source.
import { createMCPClient } from "@ai-sdk/mcp";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { x402Client } from "@x402/core/client";
import type { PaymentRequired } from "@x402/core/types";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { withX402Client as cloudflareClient } from "agents/x402";
import { withX402Client as mcpayClient } from "mcpay/client";
import { createWalletClient, http } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { baseSepolia } from "viem/chains";
import { withPayment } from "x402-mcp/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_SEPOLIA } from "@agora-mcp/protocol";
import { FIELD_STYLES, startFieldServer, type FieldServer, type FieldStyle } from "../support/field-servers";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";
import { REFUSED_REASON, startRefusingFacilitator } from "../support/refusing-facilitator";

const UNITS = 10_000n; // one cent
const CITY = { city: "Lisbon" };
const TX_HASH = /^0x[0-9a-f]{64}$/;

type Settlement = { success: boolean; transaction: string; network: string; payer: string };
/** What a library's client hands back for one paid call: the tool's result and the settlement it carries. */
type Purchase = { result: CallToolResult; settlement: Settlement | undefined };

let stack: PaymentStack;
/** One server of each style paid through the real facilitator, and one whose facilitator refuses every settlement. */
const servers = {} as Record<FieldStyle, FieldServer>;
const refusedServers = {} as Record<FieldStyle, FieldServer>;
const payees = {} as Record<FieldStyle, `0x${string}`>;
const closing: (() => Promise<void>)[] = [];
const realFetch = globalThis.fetch;

/** Every fetch in this file's process (viem, the facilitator clients, the MCP clients) may reach loopback only. */
function loopbackOnlyFetch(): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) return Promise.reject(new Error(`refused off-loopback fetch: ${url.origin}`));
    return realFetch(input, init);
  };
}

async function sdkClient(url: string): Promise<Client> {
  const client = new Client({ name: "field-buyer", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  closing.push(() => client.close());
  return client;
}

const usdc = (address: `0x${string}`) => stack.chain.usdcBalance(address);
const balances = async (buyer: PrivateKeyAccount, style: FieldStyle) => ({ buyer: await usdc(buyer.address), payee: await usdc(payees[style]) });
const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

/** x402's own client: version 2 on Base Sepolia's CAIP-2 id (and version 1 on its v1 name), for one wallet. */
function x402Buyer(buyer: PrivateKeyAccount): x402Client {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: buyer });
  return client;
}

/** x402's MCP transport: PaymentRequired in the isError result's structuredContent, the payload object back in _meta. */
async function buyX402McpV2(server: FieldServer, buyer: PrivateKeyAccount): Promise<Purchase> {
  const client = await sdkClient(server.url);
  const unpaid = (await client.callTool({ name: server.paidTool, arguments: CITY })) as CallToolResult;
  expect(unpaid.isError).toBe(true);
  const payment = await x402Buyer(buyer).createPaymentPayload(unpaid.structuredContent as PaymentRequired);
  const result = (await client.callTool({ name: server.paidTool, arguments: CITY, _meta: { "x402/payment": payment } })) as CallToolResult;
  return { result, settlement: result._meta?.["x402/payment-response"] as Settlement | undefined };
}

/** The earlier transport: PaymentRequired as the data of a JSON-RPC error 402, the payload object back in _meta. */
async function buyJsonRpc402(server: FieldServer, buyer: PrivateKeyAccount): Promise<Purchase> {
  const client = await sdkClient(server.url);
  const refusal = await client.callTool({ name: server.paidTool, arguments: CITY }).then(
    () => expect.fail("an unpaid call must be refused"),
    (error: unknown) => error,
  );
  expect(refusal).toBeInstanceOf(McpError);
  expect((refusal as McpError).code).toBe(402);
  const payment = await x402Buyer(buyer).createPaymentPayload((refusal as McpError).data as PaymentRequired);
  const result = (await client.callTool({ name: server.paidTool, arguments: CITY, _meta: { "x402/payment": payment } })) as CallToolResult;
  return { result, settlement: result._meta?.["x402/payment-response"] as Settlement | undefined };
}

/** Cloudflare's client pays by itself: one callTool, the confirmation callback says yes. */
async function buyCloudflareAgents(server: FieldServer, buyer: PrivateKeyAccount): Promise<Purchase> {
  const client = cloudflareClient(await sdkClient(server.url), { account: buyer, network: BASE_SEPOLIA.v1Network, maxPaymentValue: 100_000n });
  const result = await client.callTool(async () => true, { name: server.paidTool, arguments: CITY });
  return { result, settlement: result._meta?.["x402/payment-response"] as Settlement | undefined };
}

/** Vercel's client gives a model the tools it needs; these are the model's three steps. */
async function buyVercelX402Mcp(server: FieldServer, buyer: PrivateKeyAccount): Promise<Purchase> {
  const mcp = await createMCPClient({ transport: { type: "http", url: server.url } });
  closing.push(() => mcp.close());
  const tools = await (await withPayment(mcp, { account: buyer, network: BASE_SEPOLIA.v1Network, maxPaymentValue: 100_000 })).tools();
  const step = { toolCallId: "call", messages: [] };
  const unpaid = (await tools[server.paidTool].execute(CITY, step)) as CallToolResult;
  expect(unpaid.isError).toBe(true);
  const [requirements] = (unpaid.structuredContent as { accepts: unknown[] }).accepts;
  const { paymentAuthorization } = await tools.generatePaymentAuthorization.execute({ paymentRequirements: requirements }, step);
  const result = (await tools[server.paidTool].execute({ ...CITY, paymentAuthorization }, step)) as CallToolResult;
  return { result, settlement: result._meta?.["x402.payment-response"] as Settlement | undefined };
}

/** MCPay's client pays by itself, signing with a viem wallet client (on the local chain's RPC). */
async function buyMcpay(server: FieldServer, buyer: PrivateKeyAccount): Promise<Purchase> {
  const wallet = createWalletClient({ account: buyer, chain: baseSepolia, transport: http(stack.chain.rpcUrl) });
  // mcpay's declarations name the MCP SDK 1.18.2 it pins for itself; at run time it wraps whatever Client it is given.
  const client = mcpayClient((await sdkClient(server.url)) as unknown as Parameters<typeof mcpayClient>[0], { wallet: { evm: wallet }, maxPaymentValue: 100_000n });
  const result = (await client.callTool({ name: server.paidTool, arguments: CITY })) as CallToolResult;
  return { result, settlement: result._meta?.["x402/payment-response"] as Settlement | undefined };
}

const BUY: Record<FieldStyle, (server: FieldServer, buyer: PrivateKeyAccount) => Promise<Purchase>> = {
  "x402-mcp-v2": buyX402McpV2,
  "jsonrpc-402": buyJsonRpc402,
  "cloudflare-agents": buyCloudflareAgents,
  "vercel-x402-mcp": buyVercelX402Mcp,
  mcpay: buyMcpay,
};

beforeAll(async () => {
  globalThis.fetch = loopbackOnlyFetch();
  stack = await startPaymentStack();
  const refusing = await startRefusingFacilitator(stack.facilitator.url);
  closing.push(refusing.close);
  await Promise.all(
    FIELD_STYLES.map(async (style) => {
      payees[style] = stack.freshAddress();
      servers[style] = await startFieldServer(style, { facilitatorUrl: stack.facilitator.url, payTo: payees[style], units: UNITS });
      refusedServers[style] = await startFieldServer(style, { facilitatorUrl: refusing.url, payTo: payees[style], units: UNITS });
    }),
  );
});

afterAll(async () => {
  for (const close of closing.reverse()) await close().catch(() => {});
  for (const server of [...Object.values(servers), ...Object.values(refusedServers)]) await server.close();
  await stack?.stop();
  globalThis.fetch = realFetch;
});

describe.each(FIELD_STYLES)("a %s server, bought by its library's own client", (style) => {
  it("is paid exactly its price, on chain, and answers with the tool's output and the settlement's transaction", async () => {
    const server = servers[style];
    const buyer = await stack.fundedBuyer(1_000_000n);
    const before = await balances(buyer, style);
    const runs = server.counts.paidRuns;
    const { result, settlement } = await BUY[style](server, buyer);
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(text(result)).toBe("Forecast for Lisbon: sunny, 21 °C, light wind.");
    expect(settlement).toMatchObject({ success: true, transaction: expect.stringMatching(TX_HASH), payer: buyer.address });
    expect(await balances(buyer, style)).toEqual({ buyer: before.buyer - UNITS, payee: before.payee + UNITS });
    expect(server.counts).toEqual({ paidRuns: runs + 1, freeCalls: 0 });
  });

  it("settles nothing when the paid tool fails: the failure comes back and no money moves", async () => {
    const server = servers[style];
    const buyer = await stack.fundedBuyer(1_000_000n);
    const before = await balances(buyer, style);
    const runs = server.counts.paidRuns;
    server.failNext();
    const { result, settlement } = await BUY[style](server, buyer);
    expect(result.isError).toBe(true);
    expect(text(result)).toBe("No forecast for Lisbon: the weather service is down.");
    expect(settlement).toBeUndefined();
    expect(await balances(buyer, style)).toEqual(before);
    expect(server.counts).toEqual({ paidRuns: runs + 1, freeCalls: 0 });
  });

  it("runs the free tool only when it is called, without payment", async () => {
    const server = servers[style];
    const runs = server.counts.paidRuns;
    const client = await sdkClient(server.url);
    const result = (await client.callTool({ name: server.freeTool, arguments: CITY })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(text(result)).toBe("Subscribed to storm alerts for Lisbon.");
    expect(server.counts).toEqual({ paidRuns: runs, freeCalls: 1 });
  });
});

/** What a server's facilitator refusing the settlement makes of a paid call that ran: the styles differ. */
const WHEN_SETTLEMENT_REFUSED: Record<FieldStyle, "the output, with a payment-response saying success false" | "the output, with no payment-response" | "PaymentRequired again, without the output"> = {
  // @x402/mcp treats only a thrown settlement as failed; @x402/core 2.27 returns a 200 `success: false` as it is.
  "x402-mcp-v2": "the output, with a payment-response saying success false",
  "jsonrpc-402": "the output, with a payment-response saying success false",
  "cloudflare-agents": "PaymentRequired again, without the output",
  // x402-mcp adds the payment-response only when success is true and returns the output either way.
  "vercel-x402-mcp": "the output, with no payment-response",
  mcpay: "PaymentRequired again, without the output",
};

describe.each(FIELD_STYLES)("a %s server whose facilitator refuses the settlement after verifying the payment", (style) => {
  it(`answers ${WHEN_SETTLEMENT_REFUSED[style]}, and no money moves`, async () => {
    const server = refusedServers[style];
    const buyer = await stack.fundedBuyer(1_000_000n);
    const before = await balances(buyer, style);
    const { result, settlement } = await BUY[style](server, buyer);
    switch (WHEN_SETTLEMENT_REFUSED[style]) {
      case "the output, with a payment-response saying success false":
        expect(text(result)).toBe("Forecast for Lisbon: sunny, 21 °C, light wind.");
        expect(settlement).toMatchObject({ success: false, errorReason: REFUSED_REASON, transaction: "" });
        break;
      case "the output, with no payment-response":
        expect(text(result)).toBe("Forecast for Lisbon: sunny, 21 °C, light wind.");
        expect(settlement).toBeUndefined();
        break;
      case "PaymentRequired again, without the output":
        expect(result.isError).toBe(true);
        expect(JSON.parse(text(result))).toMatchObject({ error: REFUSED_REASON, accepts: [expect.objectContaining({ payTo: payees[style] })] });
        expect(settlement).toBeUndefined();
        break;
    }
    expect(await balances(buyer, style)).toEqual(before);
    expect(server.counts).toEqual({ paidRuns: 1, freeCalls: 0 });
  });
});
