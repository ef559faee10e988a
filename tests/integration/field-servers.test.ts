// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).
// Paid MCP servers built with the field's libraries (tests/support/field-servers), each bought by that library's
// own client on the local chain: the buyer's USDC goes down and the payee's up by exactly the price, the answer
// carries the settlement's transaction, a run that fails moves no money, and the free tool runs only when called.
// Clients: x402's own for its MCP transport (x402Client + the exact EVM scheme, the retry driven by hand as its
// x402MCPClient does, the payment object in `_meta["x402/payment"]`), and the same for the JSON-RPC 402 transport;
// Cloudflare's `withX402Client` (agents 0.32); Vercel's `withPayment` (x402-mcp 0.0.5, which wraps an AI SDK MCP
// client's tools: an unpaid call, `generatePaymentAuthorization`, the call again with `paymentAuthorization`, the
// steps a model takes); MCPay's `withX402Client` (mcpay 0.1.17).
// What the libraries could not do on Node, and where their wire differs from PROTOCOLS.md (each fixture's header
// gives its whole wire format; the "before it is paid" tests pin it):
// - Cloudflare's servers live in a McpAgent (a Durable Object), which Node cannot run; `withX402` wraps any MCP SDK
//   McpServer, and that is what runs here. Its unpaid answer has no structuredContent (PaymentRequired is in
//   `_meta["x402/error"]` and as text) and its resource URL is `x402://<tool>`.
// - x402-mcp and mcpay serve through Vercel's mcp-handler. 1.0.2 (mcpay pins it; npm picks it for x402-mcp too
//   beside this project's MCP SDK 1.32) answers 415 to every POST on SDK 1.32 and reuses one stateless transport,
//   which SDK 1.26+ refuses; package.json overrides it to 1.1.0 (x402-mcp's own range, a transport per request).
//   mcp-handler answers every POST as an event stream, even a single message.
// - x402-mcp's and mcpay's paid signal is in tools/list `annotations` (paymentHint; mcpay adds paymentPriceUSD,
//   paymentNetworks, paymentVersion), keys MCP does not define: the MCP SDK's Client (1.32) strips them when it
//   parses tools/list, so a reader must look at the raw answer.
// - x402-mcp speaks x402 version 1 with dotted keys (`x402.payment`, `x402.payment-response`), with no `resource`
//   object and no `_meta` in the unpaid answer. Its client needs an AI SDK MCP client (`@ai-sdk/mcp` 1.x: `ai` 6 no
//   longer has `experimental_createMCPClient`) and makes a viem wallet client on the chain's public RPC, never asked
//   here (this file refuses any fetch off loopback). mcpay's client entry (`mcpay/client`) imports its module
//   without an extension, which Node's ESM loader refuses (vitest inlines mcpay). mcpay's README prices a tool with
//   `{price, currency}`; its code takes a plain price or a token amount, and reads that object as neither.
// - A settlement the facilitator refuses with an ordinary answer (200, success false) after the tool ran: only
//   Cloudflare's and mcpay's wrappers answer PaymentRequired again. x402's own MCP wrapper treats only a thrown
//   settlement as failed, so it returns the output with `success: false` in the payment-response (so do this file's
//   JSON-RPC 402 fixture, which sells the same way); x402-mcp returns the output with no payment-response at all.
// - The JSON-RPC 402 transport cannot be written on the SDK's McpServer (it turns a thrown error into an isError
//   result and keeps the data only for code -32042); it is on the low-level Server. The SDK's Client reports the
//   error's message as "MCP error 402: Payment required".
// - x402's own `@x402/mcp` is not in the registry here: its fixture is written from the package's source.
import { createMCPClient } from "@ai-sdk/mcp";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { x402Client } from "@x402/core/client";
import type { PaymentRequired } from "@x402/core/types";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { withX402Client as cloudflareClient } from "agents/x402";
import { withX402Client as mcpayClient } from "mcpay/client";
import { createWalletClient, http, publicActions } from "viem";
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
    if (!["127.0.0.1", "localhost", "[::1]"].includes(url.hostname))
      return Promise.reject(new Error(`refused off-loopback fetch: ${url.origin}`));
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
const balances = async (buyer: PrivateKeyAccount, style: FieldStyle) => ({
  buyer: await usdc(buyer.address),
  payee: await usdc(payees[style]),
});
const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

type RpcAnswer = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
type ListedTool = { name: string; annotations?: Record<string, unknown>; _meta?: Record<string, unknown> };

/**
 * One JSON-RPC request as the wire carries it, without an MCP client: the SDK's Client parses tools/list through
 * its schemas, which drop annotation keys MCP does not define (x402-mcp's and mcpay's price hints among them).
 * mcp-handler answers as an event stream even for one message; the SDK's own servers here answer plain JSON.
 */
async function rpc(url: string, method: string, params?: Record<string, unknown>): Promise<RpcAnswer> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = await res.text();
  const message = res.headers.get("content-type")?.startsWith("text/event-stream")
    ? body
        .split("\n")
        .find((line) => line.startsWith("data: "))!
        .slice(6)
    : body;
  return JSON.parse(message) as RpcAnswer;
}

async function listedPaidTool(style: FieldStyle): Promise<ListedTool> {
  const { result } = await rpc(servers[style].url, "tools/list");
  return (result!.tools as ListedTool[]).find((tool) => tool.name === servers[style].paidTool)!;
}

const unpaidCall = (style: FieldStyle) =>
  rpc(servers[style].url, "tools/call", { name: servers[style].paidTool, arguments: CITY });

/** The requirements every style offers for one cent to its payee, in x402 version 2's words and in version 1's. */
const acceptsV2 = (style: FieldStyle) => ({
  scheme: "exact",
  network: BASE_SEPOLIA.caip2,
  amount: String(UNITS),
  asset: BASE_SEPOLIA.asset,
  payTo: payees[style],
  maxTimeoutSeconds: 300,
  extra: BASE_SEPOLIA.eip712,
});
const acceptsV1 = (style: FieldStyle, resource: string) => ({
  scheme: "exact",
  network: BASE_SEPOLIA.v1Network,
  maxAmountRequired: String(UNITS),
  asset: BASE_SEPOLIA.asset,
  payTo: payees[style],
  maxTimeoutSeconds: 300,
  resource,
  mimeType: "application/json",
  description: "Tomorrow's forecast for a city (paid).",
  extra: BASE_SEPOLIA.eip712,
});
const resourceV2 = (url: string) => ({
  url,
  description: "Tomorrow's forecast for a city (paid).",
  mimeType: "application/json",
});

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
  const result = (await client.callTool({
    name: server.paidTool,
    arguments: CITY,
    _meta: { "x402/payment": payment },
  })) as CallToolResult;
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
  const result = (await client.callTool({
    name: server.paidTool,
    arguments: CITY,
    _meta: { "x402/payment": payment },
  })) as CallToolResult;
  return { result, settlement: result._meta?.["x402/payment-response"] as Settlement | undefined };
}

/** Cloudflare's client pays by itself: one callTool, the confirmation callback says yes. */
async function buyCloudflareAgents(server: FieldServer, buyer: PrivateKeyAccount): Promise<Purchase> {
  const client = cloudflareClient(await sdkClient(server.url), {
    account: buyer,
    network: BASE_SEPOLIA.v1Network,
    maxPaymentValue: 100_000n,
  });
  const result = await client.callTool(async () => true, { name: server.paidTool, arguments: CITY });
  return { result, settlement: result._meta?.["x402/payment-response"] as Settlement | undefined };
}

/** Vercel's client gives a model the tools it needs; these are the model's three steps. */
async function buyVercelX402Mcp(server: FieldServer, buyer: PrivateKeyAccount): Promise<Purchase> {
  const mcp = await createMCPClient({ transport: { type: "http", url: server.url } });
  closing.push(() => mcp.close());
  const tools = await (
    await withPayment(mcp, { account: buyer, network: BASE_SEPOLIA.v1Network, maxPaymentValue: 100_000 })
  ).tools();
  const step = { toolCallId: "call", messages: [] };
  const unpaid = (await tools[server.paidTool].execute(CITY, step)) as CallToolResult;
  expect(unpaid.isError).toBe(true);
  const [requirements] = (unpaid.structuredContent as { accepts: unknown[] }).accepts;
  const { paymentAuthorization } = await tools.generatePaymentAuthorization.execute(
    { paymentRequirements: requirements },
    step,
  );
  const result = (await tools[server.paidTool].execute({ ...CITY, paymentAuthorization }, step)) as CallToolResult;
  return { result, settlement: result._meta?.["x402.payment-response"] as Settlement | undefined };
}

/** MCPay's client pays by itself, signing with a viem wallet client with public actions, as its own helper makes one. */
async function buyMcpay(server: FieldServer, buyer: PrivateKeyAccount): Promise<Purchase> {
  type McpayConfig = Parameters<typeof mcpayClient>[1];
  // mcpay's declarations name the viem and MCP SDK copies it pins for itself (2.37, 1.18); at run time it signs with
  // any viem wallet client and wraps whatever MCP Client it is given. The wallet's RPC is the local chain's.
  const wallet = createWalletClient({ account: buyer, chain: baseSepolia, transport: http(stack.chain.rpcUrl) }).extend(
    publicActions,
  );
  const client = mcpayClient((await sdkClient(server.url)) as unknown as Parameters<typeof mcpayClient>[0], {
    wallet: { evm: wallet as unknown as McpayConfig["wallet"]["evm"] },
    maxPaymentValue: 100_000n,
  });
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
      servers[style] = await startFieldServer(style, {
        facilitatorUrl: stack.facilitator.url,
        payTo: payees[style],
        units: UNITS,
      });
      refusedServers[style] = await startFieldServer(style, {
        facilitatorUrl: refusing.url,
        payTo: payees[style],
        units: UNITS,
      });
    }),
  );
});

afterAll(async () => {
  for (const close of closing.reverse()) await close().catch(() => {});
  for (const server of [...Object.values(servers), ...Object.values(refusedServers)]) await server.close();
  await stack?.stop();
  globalThis.fetch = realFetch;
});

describe("what each style says before it is paid, as the wire carries it (an unpaid call runs nothing)", () => {
  it("x402-mcp-v2: a plain tool in tools/list; PaymentRequired v2 in the isError result's structuredContent and as its text", async () => {
    const tool = await listedPaidTool("x402-mcp-v2");
    expect(tool._meta).toBeUndefined();
    expect(tool.annotations).toBeUndefined();
    const { result } = await unpaidCall("x402-mcp-v2");
    const required = {
      x402Version: 2,
      error: "Payment required to access this tool",
      resource: resourceV2("mcp://tool/forecast"),
      accepts: [acceptsV2("x402-mcp-v2")],
    };
    expect(result).toEqual({
      isError: true,
      structuredContent: required,
      content: [{ type: "text", text: expect.any(String) }],
    });
    expect(JSON.parse(text(result as CallToolResult))).toEqual(required);
    expect(servers["x402-mcp-v2"].counts.paidRuns).toBe(0);
  });

  it("jsonrpc-402: a plain tool in tools/list; no result, a JSON-RPC error 402 whose data is PaymentRequired v2", async () => {
    expect(await listedPaidTool("jsonrpc-402")).toEqual({
      name: "forecast",
      description: expect.any(String),
      inputSchema: expect.any(Object),
    });
    const answer = await unpaidCall("jsonrpc-402");
    expect(answer.result).toBeUndefined();
    expect(answer.error).toEqual({
      code: 402,
      message: "Payment required",
      data: {
        x402Version: 2,
        error: "Payment required to access this tool",
        resource: resourceV2("mcp://tool/forecast"),
        accepts: [acceptsV2("jsonrpc-402")],
      },
    });
    expect(servers["jsonrpc-402"].counts.paidRuns).toBe(0);
  });

  it("cloudflare-agents: _meta flags the tool paid with its dollar price; PaymentRequired v2 in the result's _meta[x402/error]", async () => {
    const tool = await listedPaidTool("cloudflare-agents");
    expect(tool._meta).toEqual({ "agents-x402/paymentRequired": true, "agents-x402/priceUSD": 0.01 });
    const { result } = await unpaidCall("cloudflare-agents");
    const required = {
      x402Version: 2,
      error: "PAYMENT_REQUIRED",
      resource: resourceV2("x402://forecast"),
      accepts: [acceptsV2("cloudflare-agents")],
    };
    expect(result).toEqual({
      isError: true,
      _meta: { "x402/error": required },
      content: [{ type: "text", text: expect.any(String) }],
    });
    expect(JSON.parse(text(result as CallToolResult))).toEqual(required);
    expect(servers["cloudflare-agents"].counts.paidRuns).toBe(0);
  });

  it("vercel-x402-mcp: annotations.paymentHint, no price; PaymentRequired v1 (no resource object) in structuredContent", async () => {
    expect((await listedPaidTool("vercel-x402-mcp")).annotations).toEqual({ paymentHint: true });
    const { result } = await unpaidCall("vercel-x402-mcp");
    const required = {
      x402Version: 1,
      error: "_meta.x402.payment is required",
      accepts: [acceptsV1("vercel-x402-mcp", "mcp://tool/forecast")],
    };
    expect(result).toEqual({
      isError: true,
      structuredContent: required,
      content: [{ type: "text", text: expect.any(String) }],
    });
    expect(JSON.parse(text(result as CallToolResult))).toEqual(required);
    expect(servers["vercel-x402-mcp"].counts.paidRuns).toBe(0);
  });

  it("mcpay: annotations give the hint, price, networks and version; PaymentRequired v1 in the result's _meta[x402/error]", async () => {
    expect((await listedPaidTool("mcpay")).annotations).toEqual({
      paymentHint: true,
      paymentPriceUSD: 0.01,
      paymentNetworks: [
        {
          network: "base-sepolia",
          recipient: payees.mcpay,
          maxAmountRequired: String(UNITS),
          asset: { address: BASE_SEPOLIA.asset, decimals: 6 },
          type: "evm",
        },
      ],
      paymentVersion: 1,
    });
    const { result } = await unpaidCall("mcpay");
    const required = { x402Version: 1, error: "PAYMENT_REQUIRED", accepts: [acceptsV1("mcpay", "mcp://forecast")] };
    expect(result).toEqual({
      isError: true,
      _meta: { "x402/error": required },
      content: [{ type: "text", text: expect.any(String) }],
    });
    expect(JSON.parse(text(result as CallToolResult))).toEqual(required);
    expect(servers.mcpay.counts.paidRuns).toBe(0);
  });
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
    expect(settlement).toMatchObject({
      success: true,
      transaction: expect.stringMatching(TX_HASH),
      payer: buyer.address,
    });
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
const WHEN_SETTLEMENT_REFUSED: Record<
  FieldStyle,
  | "the output, with a payment-response saying success false"
  | "the output, with no payment-response"
  | "PaymentRequired again, without the output"
> = {
  // @x402/mcp treats only a thrown settlement as failed; @x402/core 2.27 returns a 200 `success: false` as it is.
  "x402-mcp-v2": "the output, with a payment-response saying success false",
  "jsonrpc-402": "the output, with a payment-response saying success false",
  "cloudflare-agents": "PaymentRequired again, without the output",
  // x402-mcp adds the payment-response only when success is true and returns the output either way.
  "vercel-x402-mcp": "the output, with no payment-response",
  mcpay: "PaymentRequired again, without the output",
};

describe.each(FIELD_STYLES)(
  "a %s server whose facilitator refuses the settlement after verifying the payment",
  (style) => {
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
          expect(JSON.parse(text(result))).toMatchObject({
            error: REFUSED_REASON,
            accepts: [expect.objectContaining({ payTo: payees[style] })],
          });
          expect(settlement).toBeUndefined();
          break;
      }
      expect(await balances(buyer, style)).toEqual(before);
      expect(server.counts).toEqual({ paidRuns: 1, freeCalls: 0 });
    });
  },
);
