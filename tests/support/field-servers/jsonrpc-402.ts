// A paid MCP server in x402's earlier MCP transport, where payment is asked for with a JSON-RPC error (as
// mark3labs/mcp-go-x402 does, and as `@x402/mcp`'s `createPaymentRequiredError` still builds): written on the MCP
// SDK 1.32's low-level Server, because its McpServer turns any error a tool throws into an isError result and drops
// the error's data (it lets only code -32042, URL elicitation, through). x402 v2 on `@x402/core` 2.27.
// Wire format (x402 version 2, CAIP-2 network eip155:84532):
// - tools/list: nothing marks the paid tool.
// - unpaid tools/call: no result; the JSON-RPC error `{code: 402, message: "Payment required", data: PaymentRequired}`,
//   PaymentRequired = `{x402Version: 2, error, resource: {url: "mcp://tool/<tool>", …}, accepts: [requirements v2]}`.
// - payment: `params._meta["x402/payment"]` = the PaymentPayload object.
// - paid answer: the result with `_meta["x402/payment-response"]` = SettleResponse; settled only when the tool did
//   not answer isError; a refused payment or a settlement that throws is the 402 error again (one answered
//   `success: false` comes back beside the output, as in x402's MCP wrapper).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { PaymentRequired } from "@x402/core/types";
import { listen, sdkHandler, type Listening } from "@/examples/x402-transport-server/http";
import { v2Seller } from "@/examples/x402-transport-server/seller";
import {
  cityJsonSchema,
  FREE_DESCRIPTION,
  FREE_TOOL,
  PAID_DESCRIPTION,
  PAID_TOOL,
  type SaleTerms,
  type WeatherDesk,
} from "./weather-desk";

type Sell = Awaited<ReturnType<typeof v2Seller>>;

/**
 * The SDK answers a handler's error with its code, message and data as they are; an McpError would prefix its
 * message with "MCP error 402: ", so this is a plain Error carrying code and data.
 */
function paymentRequiredError(paymentRequired: PaymentRequired): Error {
  return Object.assign(new Error("Payment required"), { code: 402, data: paymentRequired });
}

function build(desk: WeatherDesk, sell: Sell): Server {
  const server = new Server({ name: "weather-jsonrpc-402", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: PAID_TOOL, description: PAID_DESCRIPTION, inputSchema: cityJsonSchema },
      { name: FREE_TOOL, description: FREE_DESCRIPTION, inputSchema: cityJsonSchema },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }): Promise<CallToolResult> => {
    const city = params.arguments?.city;
    if (typeof city !== "string") throw new McpError(ErrorCode.InvalidParams, "city (a string) is required");
    if (params.name === FREE_TOOL) return desk.subscribe(city);
    if (params.name !== PAID_TOOL) throw new McpError(ErrorCode.InvalidParams, `Tool ${params.name} not found`);
    const outcome = await sell(params._meta, async () => desk.forecast(city));
    if (!outcome.paid) throw paymentRequiredError(outcome.paymentRequired);
    return outcome.result;
  });
  return server;
}

export async function serveJsonRpc402(desk: WeatherDesk, terms: SaleTerms, port: number): Promise<Listening> {
  const sell = await v2Seller(terms, { name: PAID_TOOL, description: PAID_DESCRIPTION });
  return listen(
    port,
    sdkHandler(() => build(desk, sell)),
  );
}
