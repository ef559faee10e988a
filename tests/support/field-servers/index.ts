// Paid MCP servers built with the field's libraries, as their users build them, on loopback: one entry point that
// starts a fixture of a given style selling a forecast (paid) beside an alert subscription (free, with a side
// effect), paid through the facilitator a test names. Each style's module header gives its exact wire format.
import { serveCloudflareAgents } from "./cloudflare-agents";
import type { Listening } from "@/examples/x402-transport-server/http";
import { serveJsonRpc402 } from "./jsonrpc-402";
import { serveMcpay } from "./mcpay";
import { serveVercelX402Mcp } from "./vercel-x402-mcp";
import { FREE_TOOL, PAID_TOOL, weatherDesk, type FieldCounts, type SaleTerms, type WeatherDesk } from "./weather-desk";
import { serveX402McpV2 } from "./x402-mcp-v2";

export type { FieldCounts } from "./weather-desk";

export const FIELD_STYLES = ["x402-mcp-v2", "cloudflare-agents", "vercel-x402-mcp", "jsonrpc-402", "mcpay"] as const;
export type FieldStyle = (typeof FIELD_STYLES)[number];

export type FieldServerOptions = {
  facilitatorUrl: string;
  payTo: `0x${string}`;
  /** The paid tool's price in USDC units (6 decimals); 10,000 is one cent. */
  units?: bigint;
  port?: number;
};

export type FieldServer = {
  style: FieldStyle;
  /** The MCP endpoint over Streamable HTTP: http://127.0.0.1:PORT/mcp. */
  url: string;
  paidTool: string;
  freeTool: string;
  /** How often the paid tool really ran, and how often the free tool was called. */
  counts: FieldCounts;
  /** The paid tool's next run answers isError. */
  failNext: () => void;
  close: () => Promise<void>;
};

const SERVE: Record<FieldStyle, (desk: WeatherDesk, terms: SaleTerms, port: number) => Promise<Listening>> = {
  "x402-mcp-v2": serveX402McpV2,
  "cloudflare-agents": serveCloudflareAgents,
  "vercel-x402-mcp": serveVercelX402Mcp,
  "jsonrpc-402": serveJsonRpc402,
  mcpay: serveMcpay,
};

export async function startFieldServer(
  style: FieldStyle,
  { facilitatorUrl, payTo, units = 10_000n, port = 0 }: FieldServerOptions,
): Promise<FieldServer> {
  const desk = weatherDesk();
  const { url, close } = await SERVE[style](desk, { facilitatorUrl, payTo, units }, port);
  return { style, url, paidTool: PAID_TOOL, freeTool: FREE_TOOL, counts: desk.counts, failNext: desk.failNext, close };
}
