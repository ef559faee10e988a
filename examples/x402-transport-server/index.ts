// A paid MCP server that is not built on Agora's kit: it speaks x402's own MCP transport (version 2), as x402's
// `@x402/mcp` payment wrapper does, on `@x402/core` and `@x402/evm` (seller.ts). Its tools/list says nothing about
// payment; an unpaid call of `forecast` answers PaymentRequired; a paid one is verified, run, and settled only if
// it succeeded. `npm run sandbox` lists it (its owner names `forecast` as paid), so a newcomer sees Agora read and
// buy a server built with the field's own packages.
// Run alone: `npx tsx examples/x402-transport-server/index.ts` with PORT, HOST, SERVER_WALLET_ADDRESS,
// FACILITATOR_URL and PRICE_UNITS (USDC units, 6 decimals; 10000 = $0.01).
import { pathToFileURL } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { listen, sdkHandler, type Listening } from "./http";
import { v2Seller, type SaleTerms } from "./seller";

export const PAID_TOOL = "forecast";
export const FREE_TOOL = "ping";

export type X402TransportServerOptions = SaleTerms & { port?: number; host?: string };

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });

export async function startX402TransportServer(options: X402TransportServerOptions): Promise<Listening> {
  const description = "Tomorrow's forecast for a city.";
  const sell = await v2Seller(options, { name: PAID_TOOL, description });
  const build = () => {
    const server = new McpServer({ name: "weather-on-x402-transport", version: "1.0.0" });
    server.registerTool(
      PAID_TOOL,
      { description, inputSchema: { city: z.string().min(1).max(100).describe("A city, e.g. Lisbon") } },
      async ({ city }, extra) => {
        const outcome = await sell(extra._meta, async () => text(`Forecast for ${city}: sunny, 21 °C, light wind.`));
        if (outcome.paid) return outcome.result;
        const { paymentRequired } = outcome;
        return {
          isError: true,
          structuredContent: paymentRequired as unknown as Record<string, unknown>,
          content: [{ type: "text", text: JSON.stringify(paymentRequired) }],
        };
      },
    );
    server.registerTool(FREE_TOOL, { description: "Answers pong (free)." }, async () => text("pong"));
    return server;
  };
  return listen(options.port ?? 0, sdkHandler(build), options.host);
}

async function main() {
  const payTo = process.env.SERVER_WALLET_ADDRESS;
  const facilitatorUrl = process.env.FACILITATOR_URL;
  if (!payTo || !/^0x[0-9a-fA-F]{40}$/.test(payTo)) throw new Error("SERVER_WALLET_ADDRESS must be a 0x address");
  if (!facilitatorUrl) throw new Error("FACILITATOR_URL must name an x402 facilitator");
  const units = BigInt(process.env.PRICE_UNITS ?? "10000");
  const server = await startX402TransportServer({
    payTo: payTo as `0x${string}`,
    facilitatorUrl,
    units,
    port: Number(process.env.PORT ?? 8090),
    host: process.env.HOST,
  });
  console.log(`x402 MCP transport server listening on ${server.url}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
