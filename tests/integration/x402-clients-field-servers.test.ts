// x402's own client packages (@x402/core's client, @x402/evm's exact scheme) pay the discovery entries of servers
// built with the field's libraries, as a stranger to this project would: read /discovery/resources over HTTP, call the
// entry's tool unpaid, sign what it answers, call again with the payment where the entry's style takes it. Each
// server is listed through the site's own path (its owner named the paid tool where tools/list says nothing) and
// checked once for real; balances on the local chain move by exactly the price, and the free tool is never called.
// Vercel's x402-mcp and MCPay answer x402 version 1 only: they are listed and bought by the wallet
// (test-purchases-field-servers, wallet-field-servers) but have no version 2 discovery entry to pay.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { paymentMeta, readPaymentAsk, readPaymentAskError, type PaidStyle } from "@agora-mcp/protocol";
import { x402Client } from "@x402/core/client";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/discovery/resources/route";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { insertListing } from "@/lib/listings/write";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startFieldServer, type FieldServer, type FieldStyle } from "../support/field-servers";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";
import { serveRoute } from "../support/route-server";

const PRICE = 20_000n; // $0.02
/** The field servers that answer x402 version 2, and whether their tools/list says the tool is paid. */
const STYLES: { style: FieldStyle; silent: boolean; paidStyle: PaidStyle }[] = [
  { style: "x402-mcp-v2", silent: true, paidStyle: "x402-mcp" },
  { style: "jsonrpc-402", silent: true, paidStyle: "jsonrpc-402" },
  { style: "cloudflare-agents", silent: false, paidStyle: "cloudflare-agents" },
];

type Entry = {
  resource: string;
  x402Version: number;
  accepts: PaymentRequired["accepts"];
  extensions: { bazaar: { info: { input: { toolName: string; example?: Record<string, unknown> } } } };
  metadata: { slug: string; paidStyle?: PaidStyle };
};

let stack: PaymentStack;
let conn: TestConnection;
let discoveryUrl = "";
const servers = new Map<FieldStyle, FieldServer>();
const closing: { close: () => Promise<void> }[] = [];

beforeAll(async () => {
  stack = await startPaymentStack();
  process.env.SITE_URL = "https://agora.test";
  process.env.PROBE_ALLOW_PRIVATE_HOSTS = "true"; // the servers are on loopback, as in the sandbox
  reloadEnv();
  conn = await openTestDatabase(drivers()[0]!);
  setDatabase(conn);
  const site = await serveRoute({ GET });
  closing.push(site);
  discoveryUrl = site.url;
  for (const { style, silent } of STYLES) {
    const server = await startFieldServer(style, { facilitatorUrl: stack.facilitator.url, payTo: stack.freshAddress(), units: PRICE });
    servers.set(style, server);
    closing.push(server);
    const listing = await insertListing(conn.db, {
      name: `Forecasts (${style})`,
      description: `Forecasts paid per call, built with ${style}.`,
      categories: ["Data"],
      serverUrl: server.url,
      status: "approved",
      ...(silent ? { paidTools: [server.paidTool], paidToolsConsentedAt: new Date() } : {}),
    });
    await checkListing(conn.db, listing.id, { allowPrivateHosts: true });
  }
}, 120_000);

afterAll(async () => {
  for (const c of closing.reverse()) await c.close();
  await conn?.close();
  await stack?.stop();
  delete process.env.SITE_URL;
  delete process.env.PROBE_ALLOW_PRIVATE_HOSTS;
  reloadEnv();
});

/** The unpaid call's ask, read the way the entry's style carries it (a tool result, or a JSON-RPC error 402). */
async function unpaidAsk(client: Client, tool: string, args: Record<string, unknown>, style: PaidStyle): Promise<PaymentRequired> {
  try {
    const answer = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
    const ask = readPaymentAsk(answer, style);
    expect(ask, JSON.stringify(answer)).toBeDefined();
    return ask!.required as unknown as PaymentRequired;
  } catch (error) {
    const ask = readPaymentAskError(error);
    expect(ask, String(error)).toBeDefined();
    return ask!.required as unknown as PaymentRequired;
  }
}

describe("x402's own client pays the discovery entries of servers built with other libraries", () => {
  it.each(STYLES)("$style: the entry carries the server's own terms and style, and a payment signed from it buys the tool", async ({ style, paidStyle }) => {
    const server = servers.get(style)!;
    const res = await fetch(`${discoveryUrl}/discovery/resources?type=mcp&limit=100`);
    expect(res.status).toBe(200);
    const entry = ((await res.json()) as { items: Entry[] }).items.find((e) => e.resource === server.url);
    expect(entry, `no discovery entry for ${server.url}`).toBeDefined();
    expect(entry!).toMatchObject({ type: "mcp", x402Version: 2, metadata: { paidStyle } });
    const { toolName, example = {} } = entry!.extensions.bazaar.info.input;
    expect(toolName).toBe(server.paidTool);
    const payTo = entry!.accepts[0]!.payTo;

    const client = new Client({ name: "generic-x402-buyer", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const required = await unpaidAsk(client, toolName, example, paidStyle);
      // What the server asks is what the entry says: Agora never rewrites the terms.
      expect(required.accepts).toEqual(entry!.accepts);
      const buyer = await stack.fundedBuyer(1_000_000n);
      const payment = (await new x402Client().register("eip155:84532", new ExactEvmScheme(buyer)).createPaymentPayload(required)) as PaymentPayload;
      const paid = (await client.callTool({ name: toolName, arguments: example, _meta: paymentMeta(paidStyle, payment as never) })) as CallToolResult;
      expect(paid.isError, JSON.stringify(paid.content)).toBeFalsy();
      expect(await stack.chain.usdcBalance(buyer.address)).toBe(1_000_000n - PRICE);
      expect(await stack.chain.usdcBalance(payTo as `0x${string}`)).toBe(PRICE);
      expect(server.counts).toEqual({ paidRuns: 1, freeCalls: 0 });
    } finally {
      await client.close();
    }
  });
});
