// x402's own client packages pay the discovery entries of servers built with the field's libraries, as a stranger to
// this project would: read /discovery/resources over HTTP, call the entry's tool unpaid or pay the entry's terms
// directly, sign, and call with the payment where the entry's style takes it. Each server is listed through the site's
// own path (its owner named the paid tool where tools/list says nothing) and checked once for real; balances on the
// local chain move by exactly the price, and the free tool is never called. Version 2 servers are paid with
// @x402/core's client and @x402/evm's exact scheme; Vercel's x402-mcp and MCPay answer x402 version 1 only, so their
// entries are version 1 ones, read and paid with x402's version 1 package (`x402` 1.2: useFacilitator().list and
// createPaymentHeader), the payment signed from the entry's own requirements (the unpaid call only shows that the
// server asks exactly those). On both databases.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  paymentMeta,
  readPaymentAsk,
  readPaymentAskError,
  readSettlement,
  VERCEL_PAYMENT_META,
  X402_PAYMENT_META,
  type PaidStyle,
} from "@agora-mcp/protocol";
import { x402Client } from "@x402/core/client";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPaymentHeader } from "x402/client";
import { PaymentRequirementsSchema } from "x402/types";
import { useFacilitator } from "x402/verify";
import { GET } from "@/app/discovery/resources/route";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { insertListing } from "@/lib/listings/write";
import { drivers, openTestDatabase, type Driver } from "../support/databases";
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
/** The field servers that answer x402 version 1 only, and the `_meta` key each takes the version 1 payment in. */
const V1_STYLES: { style: FieldStyle; paidStyle: PaidStyle; paymentKey: string }[] = [
  { style: "vercel-x402-mcp", paidStyle: "vercel-x402-mcp", paymentKey: VERCEL_PAYMENT_META },
  { style: "mcpay", paidStyle: "mcpay", paymentKey: X402_PAYMENT_META },
];

type Entry = {
  resource: string;
  x402Version: number;
  accepts: PaymentRequired["accepts"];
  extensions: { bazaar: { info: { input: { toolName: string; example?: Record<string, unknown> } } } };
  metadata: { slug: string; paidStyle?: PaidStyle };
};

let stack: PaymentStack;
const closing: { close: () => Promise<void> }[] = [];

beforeAll(async () => {
  stack = await startPaymentStack();
  process.env.SITE_URL = "https://agora.test";
  process.env.PROBE_ALLOW_PRIVATE_HOSTS = "true"; // the servers are on loopback, as in the sandbox
  reloadEnv();
}, 60_000);

afterAll(async () => {
  for (const c of closing.reverse()) await c.close();
  await stack?.stop();
  delete process.env.SITE_URL;
  delete process.env.PROBE_ALLOW_PRIVATE_HOSTS;
  reloadEnv();
});

/** A site on `driver` whose discovery lists one server of each style, each submitted and checked as the site does. */
async function siteWith(driver: Driver, styles: { style: FieldStyle; silent?: boolean }[]) {
  const conn = await openTestDatabase(driver);
  closing.push(conn);
  setDatabase(conn);
  const site = await serveRoute({ GET });
  closing.push(site);
  const servers = new Map<FieldStyle, FieldServer>();
  for (const { style, silent } of styles) {
    const server = await startFieldServer(style, {
      facilitatorUrl: stack.facilitator.url,
      payTo: stack.freshAddress(),
      units: PRICE,
    });
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
  return { conn, discoveryUrl: site.url, servers };
}

/** The unpaid call's ask, read the way the entry's style carries it (a tool result, or a JSON-RPC error 402). */
async function unpaidAsk(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  style: PaidStyle,
): Promise<PaymentRequired> {
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

describe.each(drivers())(
  "x402's own client pays the discovery entries of servers built with other libraries, on %s",
  (driver) => {
    let site: Awaited<ReturnType<typeof siteWith>>;
    beforeAll(async () => {
      site = await siteWith(driver, [...STYLES, ...V1_STYLES]);
    }, 120_000);

    it.each(STYLES)(
      "$style: the entry carries the server's own terms and style, and a payment signed from it buys the tool",
      async ({ style, paidStyle }) => {
        setDatabase(site.conn);
        const server = site.servers.get(style)!;
        const res = await fetch(`${site.discoveryUrl}/discovery/resources?type=mcp&limit=100`);
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
          const payment = (await new x402Client()
            .register("eip155:84532", new ExactEvmScheme(buyer))
            .createPaymentPayload(required)) as PaymentPayload;
          const paid = (await client.callTool({
            name: toolName,
            arguments: example,
            _meta: paymentMeta(paidStyle, payment as never),
          })) as CallToolResult;
          expect(paid.isError, JSON.stringify(paid.content)).toBeFalsy();
          expect(await stack.chain.usdcBalance(buyer.address)).toBe(1_000_000n - PRICE);
          expect(await stack.chain.usdcBalance(payTo as `0x${string}`)).toBe(PRICE);
          expect(server.counts).toEqual({ paidRuns: 1, freeCalls: 0 });
        } finally {
          await client.close();
        }
      },
    );

    it.each(V1_STYLES)(
      "$style: the entry is a version 1 one with the server's own requirements, and x402's version 1 client pays it straight from discovery",
      async ({ style, paidStyle, paymentKey }) => {
        setDatabase(site.conn);
        const server = site.servers.get(style)!;
        // x402's own version 1 discovery reader, pointed at the site as at any Bazaar.
        const { items } = await useFacilitator({ url: site.discoveryUrl as `${string}://${string}` }).list({
          type: "mcp",
          limit: 100,
        });
        const entry = (items as unknown as Entry[]).find((e) => e.resource === server.url);
        expect(entry, `no discovery entry for ${server.url}`).toBeDefined();
        expect(entry!).toMatchObject({ type: "mcp", x402Version: 1, metadata: { paidStyle } });
        expect(entry!.extensions.bazaar.info.input.toolName).toBe(server.paidTool);
        expect(entry!.accepts).toHaveLength(1);
        // Version 1 requirements as x402's version 1 package defines them, exactly what the tool's unpaid call asks.
        const requirements = PaymentRequirementsSchema.parse(entry!.accepts[0]);
        expect(requirements).toMatchObject({
          scheme: "exact",
          network: "base-sepolia",
          maxAmountRequired: PRICE.toString(),
        });
        expect(server.counts).toEqual({ paidRuns: 0, freeCalls: 0 });

        const client = new Client({ name: "generic-x402-v1-buyer", version: "1" });
        await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
        try {
          const { example = {} } = entry!.extensions.bazaar.info.input;
          const asked = await unpaidAsk(client, server.paidTool, example, paidStyle);
          expect(asked.accepts).toEqual(entry!.accepts);

          const buyer = await stack.fundedBuyer(1_000_000n);
          // Signed from the discovery entry alone: the entry's terms are the server's, so the server takes them.
          const header = await createPaymentHeader(buyer as never, 1, requirements);
          const paid = (await client.callTool({
            name: server.paidTool,
            arguments: example,
            _meta: { [paymentKey]: header },
          })) as CallToolResult;
          expect(paid.isError, JSON.stringify(paid)).toBeFalsy();
          expect(readSettlement(paid._meta)).toMatchObject({ success: true, network: "base-sepolia" });
          expect(await stack.chain.usdcBalance(buyer.address)).toBe(1_000_000n - PRICE);
          expect(await stack.chain.usdcBalance(requirements.payTo as `0x${string}`)).toBe(PRICE);
          expect(server.counts).toEqual({ paidRuns: 1, freeCalls: 0 });
        } finally {
          await client.close();
        }
      },
    );
  },
);
