// The provider kit on its own (no chain, no facilitator): the options a provider declares are checked when the
// server is created, and the served endpoint lists exact prices and answers only POST on /mcp.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import {
  createMonetizedServer,
  type ItemDefinition,
  type MonetizedServerOptions,
  type RunningServer,
} from "@agora-mcp/server";

const WALLET = "0x000000000000000000000000000000000000dEaD";
const quote: ItemDefinition = {
  id: "quote",
  name: "Quote",
  description: "A quote",
  price: "0.02",
  params: { topic: "Example: tea" },
  handler: () => "q",
};
const options = (over: Partial<MonetizedServerOptions> = {}): MonetizedServerOptions => ({
  name: "kit-test",
  walletAddress: WALLET,
  facilitatorUrl: "http://127.0.0.1:9",
  items: [quote],
  ...over,
});

describe("provider options", () => {
  it("resolves prices to exact units and the network to Base Sepolia by default", () => {
    const { settings } = createMonetizedServer(options({ items: [quote, { ...quote, id: "tiny", price: 0.000001 }] }));
    expect(settings.network.paymentMethod).toBe("USDC_BASE_SEPOLIA");
    expect(settings.items.map((i) => i.units)).toEqual([20_000n, 1n]);
    expect(settings.facilitatorUrl).toBe("http://127.0.0.1:9");
  });

  it.each([
    [{ walletAddress: "me" }, /walletAddress must be a 0x address/],
    [{ facilitatorUrl: "ftp://facilitator" }, /facilitatorUrl must be an http\(s\) URL/],
    [{ network: "base", facilitatorUrl: undefined }, /Base mainnet needs a facilitatorUrl/],
    [{ items: [quote, quote] }, /Item id "quote" is declared twice/],
    [{ items: [{ ...quote, id: "a b" }] }, /Item id "a b" must be letters/],
    [{ items: [{ ...quote, x402Tool: "make-purchase" }] }, /x402Tool "make-purchase" must be a unique tool name/],
    [{ items: [{ ...quote, price: 0, x402Tool: "free_quote" }] }, /is free: x402 cannot carry a zero amount/],
    [{ items: [{ ...quote, price: 0, async: { checkAfterSeconds: 5 } }] }, /an asynchronous item must be paid/],
    [{ items: [quote, { ...quote, id: "other", x402Tool: "quote" }] }, /x402Tool "quote" must be a unique tool name/],
    [
      { items: [{ ...quote, id: "job-status" }] },
      /x402Tool "job-status" must be a unique tool name .*named after item "job-status"; set x402Tool/,
    ],
    [{ items: [{ ...quote, async: { checkAfterSeconds: 0 } }] }, /checkAfterSeconds must be positive/],
  ])("refuses %o", (over, message) => {
    expect(() => createMonetizedServer(options(over as Partial<MonetizedServerOptions>))).toThrow(message);
  });
});

describe("the served endpoint", () => {
  let server: RunningServer | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    await server?.close();
    client = server = undefined;
  });

  it("answers POST on /mcp only, and lists the items with exact prices and the wallet paid", async () => {
    server = await createMonetizedServer(
      options({ items: [quote, { ...quote, id: "fact", name: "Fact", price: 0, params: {} }] }),
    ).listen({ port: 0 });
    const base = new URL(server.url);
    expect((await fetch(new URL("/elsewhere", base))).status).toBe(404);
    expect((await fetch(base)).status).toBe(405);

    client = new Client({ name: "kit-test-buyer", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(base));
    // Its tool list never changes, so it promises no tools/list_changed notification.
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getServerCapabilities()?.tools?.listChanged).toBeFalsy();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["price-listing", "payment-methods", "make-purchase"]),
    );
    const listing = (await client.callTool({ name: "price-listing", arguments: {} })) as CallToolResult;
    const { items } = JSON.parse((listing.content[0] as { text: string }).text) as {
      items: { id: string; price: { amount: number } }[];
    };
    expect(items.map((i) => [i.id, i.price.amount])).toEqual([
      ["quote", 0.02],
      ["fact", 0],
    ]);
    const methods = (await client.callTool({ name: "payment-methods", arguments: {} })) as CallToolResult;
    expect((methods.content[0] as { text: string }).text).toContain(WALLET);
  });

  it("sells every paid item under a tool of its own through the x402 binding, its parameters required", async () => {
    const items: ItemDefinition[] = [
      quote,
      {
        ...quote,
        id: "deep.report",
        name: "Report",
        price: "1.5",
        params: { topic: "Example: tea", depth: "Example: 2" },
      },
      { ...quote, id: "named", x402Tool: "named_tool" },
      { ...quote, id: "mp-only", x402Tool: false },
      { ...quote, id: "fact", price: 0, params: {} },
    ];
    server = await createMonetizedServer(options({ items })).listen({ port: 0 });
    client = new Client({ name: "kit-test-buyer", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const { tools } = await client.listTools();
    const paidTools = tools.filter((t) => t._meta?.["x402/price"]);
    expect(paidTools.map((t) => t.name)).toEqual(["quote", "deep_report", "named_tool"]);
    expect(paidTools[1]!.inputSchema).toMatchObject({
      type: "object",
      properties: { topic: { type: "string", description: "Example: tea" } },
      required: ["topic", "depth"],
    });

    const listing = (await client.callTool({ name: "price-listing", arguments: {} })) as CallToolResult;
    const listed = (listing.structuredContent as { items: { id: string; x402Tool?: string }[] }).items;
    expect(listed.map((i) => [i.id, i.x402Tool])).toEqual([
      ["quote", "quote"],
      ["deep.report", "deep_report"],
      ["named", "named_tool"],
      ["mp-only", undefined],
      ["fact", undefined],
    ]);

    // Unpaid, with the arguments the schema asks for: PaymentRequired with the item's own price and resource.
    const unpaid = (await client.callTool({
      name: "deep_report",
      arguments: { topic: "tea", depth: "2" },
    })) as CallToolResult;
    expect(unpaid.isError).toBe(true);
    expect(unpaid.structuredContent).toMatchObject({
      x402Version: 2,
      error: "Payment required",
      resource: { url: "mcp://kit-test#deep_report/deep.report" },
      accepts: [
        {
          scheme: "exact",
          network: "eip155:84532",
          amount: "1500000",
          payTo: WALLET,
          maxTimeoutSeconds: 300,
          extra: { name: "USDC", version: "2" },
        },
      ],
    });
    // A required parameter left out is the caller's mistake, said before any payment is asked for.
    const missing = (await client.callTool({ name: "deep_report", arguments: { topic: "tea" } })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toMatch(/depth/);
    expect(missing.structuredContent).toBeUndefined();
  });
});
