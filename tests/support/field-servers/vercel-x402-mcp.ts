// A paid MCP server built with Vercel's `x402-mcp` 0.0.5: `createPaidMcpHandler(init, serverOptions, {recipient,
// network: "base-sepolia", facilitator: {url}})` from `x402-mcp/server`, on Vercel's `mcp-handler` (a web
// `(Request) => Response` handler for a Next.js route), adapted here to node:http.
// Wire format (x402 version 1, network name "base-sepolia", x402 0.5's facilitator client):
// - tools/list: the paid tool's `annotations: {paymentHint: true}` (no price there; the MCP SDK's Client drops it).
// - unpaid tools/call: `{isError: true, structuredContent: {x402Version: 1, error: "_meta.x402.payment is required",
//   accepts: [requirements v1: maxAmountRequired, resource "mcp://tool/<tool>", extra {name, version}]}, content:
//   [{type: "text", text: the same JSON}]}`; no `resource` object at the top, no `_meta`.
// - payment: `params._meta["x402.payment"]` (a dot, not a slash) = the v1 X-PAYMENT header value, base64 of JSON.
// - paid answer: the tool's result with `_meta["x402.payment-response"] = {success, transaction, network, payer}`;
//   settled only when the tool did not answer isError. A settlement answered `success: false` returns the output
//   with no payment-response (delivered unpaid); one that throws answers the unpaid shape with "Settlement failed".
// - mcp-handler answers POSTs as an event stream (text/event-stream), even a single message.
// mcp-handler is 1.1.0 here (package.json overrides it), what x402-mcp's range resolves to on its own; see the test.
import { createPaidMcpHandler } from "x402-mcp/server";
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
  const initialize = (server: PaidToolServer<{ price: number }>) => {
    server.paidTool(PAID_TOOL, PAID_DESCRIPTION, { price: dollars(terms.units) }, cityShapeV3, {}, async ({ city }) =>
      desk.forecast(city),
    );
    server.tool(FREE_TOOL, FREE_DESCRIPTION, cityShapeV3, async ({ city }) => desk.subscribe(city));
  };
  return createPaidMcpHandler(
    initialize as unknown as Parameters<typeof createPaidMcpHandler>[0],
    { serverInfo: { name: "weather-vercel-x402-mcp", version: "1.0.0" } },
    {
      recipient: terms.payTo,
      network: BASE_SEPOLIA.v1Network,
      facilitator: { url: terms.facilitatorUrl as `${string}://${string}` },
      disableSse: true,
    },
  );
}

export function serveVercelX402Mcp(desk: WeatherDesk, terms: SaleTerms, port: number): Promise<Listening> {
  return listen(port, webHandler(handler(desk, terms)));
}
