// A paid MCP server built with MCPay's SDK, `mcpay` 0.1.17: `createMcpPaidHandler(init, {recipient, facilitator},
// serverOptions, handlerConfig)` from `mcpay/handler`, on Vercel's `mcp-handler` (a web `(Request) => Response`
// handler), adapted here to node:http. Its README passes the price as `{price, currency}`; its types and code take
// a plain price (dollars, or a token amount), and x402 reads the README's object as neither (no amount, no asset).
// Wire format (x402 version 1, network name "base-sepolia", x402 0.6's facilitator client):
// - tools/list: the paid tool's annotations `{paymentHint: true, paymentPriceUSD: <price>, paymentNetworks:
//   [{network, recipient, maxAmountRequired, asset: {address, symbol?, decimals?}, type: "evm"}], paymentVersion: 1}`
//   (keys MCP does not define: the MCP SDK's Client drops them).
// - unpaid tools/call: `{isError: true, _meta: {"x402/error": {x402Version: 1, error: "PAYMENT_REQUIRED", accepts:
//   [requirements v1, resource "mcp://<tool>"]}}, content: [{type: "text", text: the same JSON}]}`.
// - payment: `params._meta["x402/payment"]` = the v1 X-PAYMENT value (base64 of JSON), or the `X-PAYMENT` header.
// - paid answer: the result with `_meta["x402/payment-response"] = {success, transaction, network, payer}`;
//   settled only when the tool did not answer isError; a failed settlement (success false, or thrown) answers the
//   unpaid shape again with the facilitator's errorReason (or SETTLEMENT_FAILED), without the output.
// mcpay pins mcp-handler 1.0.2, which cannot serve on this project's MCP SDK 1.32; package.json overrides it to
// 1.1.0 (see the test's header).
import { createMcpPaidHandler } from "mcpay/handler";
import { BASE_SEPOLIA } from "@agora-mcp/protocol";
import { listen, webHandler, type Listening } from "@/examples/x402-transport-server/http";
import {
  cityShapeV3,
  dollars,
  FREE_DESCRIPTION,
  FREE_TOOL,
  PAID_DESCRIPTION,
  PAID_TOOL,
  type PaidToolServer,
  type SaleTerms,
  type WeatherDesk,
} from "./weather-desk";

function handler(desk: WeatherDesk, terms: SaleTerms) {
  const initialize = (server: PaidToolServer<number>) => {
    server.paidTool(PAID_TOOL, PAID_DESCRIPTION, dollars(terms.units), cityShapeV3, {}, async ({ city }) =>
      desk.forecast(city),
    );
    server.tool(FREE_TOOL, FREE_DESCRIPTION, cityShapeV3, async ({ city }) => desk.subscribe(city));
  };
  return createMcpPaidHandler(
    initialize as unknown as Parameters<typeof createMcpPaidHandler>[0],
    {
      recipient: { [BASE_SEPOLIA.v1Network]: terms.payTo },
      facilitator: { url: terms.facilitatorUrl as `${string}://${string}` },
    },
    { serverInfo: { name: "weather-mcpay", version: "1.0.0" } },
    { disableSse: true },
  );
}

export function serveMcpay(desk: WeatherDesk, terms: SaleTerms, port: number): Promise<Listening> {
  return listen(port, webHandler(handler(desk, terms)));
}
