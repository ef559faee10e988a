// A real MonetizedMCP server on loopback whose prices, payee wallet and tools a test can change between
// probes (the reference server's are fixed): the drift tests point listings at it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export type PricedServerState = { items: { name: string; amount: number }[]; wallet: string; extraTool: boolean };

function build(state: PricedServerState): McpServer {
  const server = new McpServer({ name: "changing-priced-server", version: "1.0.0" });
  const text = (value: unknown) => ({ content: [{ type: "text" as const, text: JSON.stringify(value) }] });
  server.registerTool("price-listing", { inputSchema: { searchQuery: z.string().optional() } }, async () =>
    text({
      items: state.items.map((i) => ({
        id: i.name,
        name: i.name,
        price: { amount: i.amount, currency: "USDC", paymentMethod: "USDC_BASE_SEPOLIA" },
      })),
    }),
  );
  server.registerTool("payment-methods", {}, async () =>
    text([{ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: state.wallet }]),
  );
  // MonetizedMCP's make-purchase arguments; this server sells nothing for real, it refuses every payment.
  const purchase = {
    itemId: z.string(),
    params: z.record(z.string(), z.string()),
    signedTransaction: z.string(),
    paymentMethod: z.string(),
  };
  server.registerTool("make-purchase", { inputSchema: purchase }, async () => ({
    isError: true,
    content: [{ type: "text" as const, text: "Payment failed" }],
  }));
  if (state.extraTool) server.registerTool("bonus", {}, async () => text({ ok: true }));
  return server;
}

export async function startPricedServer(
  initial: PricedServerState,
): Promise<{ url: string; state: PricedServerState; close: () => Promise<void> }> {
  const state = { ...initial, items: [...initial.items] };
  const httpServer = http.createServer(async (req, res) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    const server = build(state);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => void Promise.all([transport.close(), server.close()]));
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      }),
  };
}
