// A paid MCP server built with Cloudflare's Agents SDK, `agents` 0.32.0, its `agents/x402` export: `withX402` on an
// MCP SDK (1.32) McpServer, then `paidTool(name, description, priceUSD, shape, annotations, callback)`. On Workers
// the server lives in a McpAgent (a Durable Object), which Node cannot run; `withX402` itself wraps any McpServer,
// so here it is served statelessly over Streamable HTTP on node:http.
// Wire format (x402 version 2, CAIP-2 network eip155:84532):
// - tools/list: the paid tool carries `_meta: {"agents-x402/paymentRequired": true, "agents-x402/priceUSD": <number>}`.
// - unpaid tools/call: a result `{isError: true, _meta: {"x402/error": PaymentRequired}, content: [{type: "text",
//   text: JSON of PaymentRequired}]}`, PaymentRequired = `{x402Version: 2, error: "PAYMENT_REQUIRED", resource:
//   {url: "x402://<tool>", description, mimeType}, accepts: [requirements v2]}`; no structuredContent.
// - payment: `params._meta["x402/payment"]` = base64 of the PaymentPayload's JSON (a string; an object is refused
//   with PAYMENT_REQUIRED); the `PAYMENT-SIGNATURE` / `X-PAYMENT` headers are read too.
// - paid answer: the tool's result with `_meta["x402/payment-response"] = {success, transaction, network, payer}`;
//   settled only when the tool did not answer isError (an isError run is returned as it is, unsettled); a failed
//   settlement (success false, or thrown) answers the unpaid shape again with the facilitator's errorReason.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { withX402 } from "agents/x402";
import { BASE_SEPOLIA } from "@agora-mcp/protocol";
import { listen, sdkHandler, type Listening } from "@/examples/x402-transport-server/http";
import {
  cityShape,
  dollars,
  FREE_DESCRIPTION,
  FREE_TOOL,
  PAID_DESCRIPTION,
  PAID_TOOL,
  type SaleTerms,
  type WeatherDesk,
} from "./weather-desk";

function build(desk: WeatherDesk, terms: SaleTerms): McpServer {
  const server = withX402(new McpServer({ name: "weather-cloudflare-agents", version: "1.0.0" }), {
    network: BASE_SEPOLIA.caip2,
    recipient: terms.payTo,
    facilitator: { url: terms.facilitatorUrl },
  });
  server.paidTool(PAID_TOOL, PAID_DESCRIPTION, dollars(terms.units), cityShape, {}, async ({ city }) =>
    desk.forecast(city),
  );
  server.registerTool(FREE_TOOL, { description: FREE_DESCRIPTION, inputSchema: cityShape }, async ({ city }) =>
    desk.subscribe(city),
  );
  return server;
}

export function serveCloudflareAgents(desk: WeatherDesk, terms: SaleTerms, port: number): Promise<Listening> {
  return listen(
    port,
    sdkHandler(() => build(desk, terms)),
  );
}
