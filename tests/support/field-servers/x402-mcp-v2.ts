// A paid MCP server as x402's own MCP package builds one (`@x402/mcp`, x402-foundation/x402's
// typescript/packages/mcp: `createPaymentWrapper(resourceServer, {accepts})` around a tool callback). That package
// is not in the npm registry reachable here, so this is written from its source on the packages it builds on:
// `@x402/core` 2.27 (x402ResourceServer, HTTPFacilitatorClient), `@x402/evm` 2.27 (exact scheme), MCP SDK 1.32.
// Wire format (x402 version 2, CAIP-2 network eip155:84532):
// - tools/list: nothing marks the paid tool (a plain tool with its input schema).
// - unpaid tools/call: `{isError: true, structuredContent: PaymentRequired, content: [{type: "text", text: JSON of
//   PaymentRequired}]}`, PaymentRequired = `{x402Version: 2, error: "Payment required to access this tool",
//   resource: {url: "mcp://tool/<tool>", description, mimeType: "application/json"}, accepts: [requirements v2]}`.
// - payment: `params._meta["x402/payment"]` = the PaymentPayload **object** (with `accepted`), not base64.
// - paid answer: the result with `_meta["x402/payment-response"]` = the facilitator's SettleResponse `{success,
//   transaction, network, payer}`; settled only when the tool did not answer isError (that result comes back as
//   it is, unsettled); a settlement that throws answers the unpaid shape again with error "Payment settlement
//   failed: …", while one answered `success: false` comes back beside the output in the payment-response.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { listen, sdkHandler, type Listening } from "@/examples/x402-transport-server/http";
import { v2Seller } from "@/examples/x402-transport-server/seller";
import {
  cityShape,
  FREE_DESCRIPTION,
  FREE_TOOL,
  PAID_DESCRIPTION,
  PAID_TOOL,
  type SaleTerms,
  type WeatherDesk,
} from "./weather-desk";

type Sell = Awaited<ReturnType<typeof v2Seller>>;

function build(desk: WeatherDesk, sell: Sell): McpServer {
  const server = new McpServer({ name: "weather-x402-mcp", version: "1.0.0" });
  server.registerTool(
    PAID_TOOL,
    { description: PAID_DESCRIPTION, inputSchema: cityShape },
    async ({ city }, extra): Promise<CallToolResult> => {
      const outcome = await sell(extra._meta, async () => desk.forecast(city));
      if (outcome.paid) return outcome.result;
      const { paymentRequired } = outcome;
      return {
        isError: true,
        structuredContent: paymentRequired,
        content: [{ type: "text", text: JSON.stringify(paymentRequired) }],
      };
    },
  );
  server.registerTool(FREE_TOOL, { description: FREE_DESCRIPTION, inputSchema: cityShape }, async ({ city }) =>
    desk.subscribe(city),
  );
  return server;
}

export async function serveX402McpV2(desk: WeatherDesk, terms: SaleTerms, port: number): Promise<Listening> {
  const sell = await v2Seller(terms, { name: PAID_TOOL, description: PAID_DESCRIPTION });
  return listen(
    port,
    sdkHandler(() => build(desk, sell)),
  );
}
