// Small MCP servers on loopback, paid the way the field's libraries make them (../shared/PROTOCOLS.md section 2),
// written from their wire format rather than with the libraries:
//   x402-mcp           x402's MCP transport: nothing in tools/list; an unpaid call answers `isError: true` with
//                      PaymentRequired (version 2) in `structuredContent` and the same JSON as text content.
//   cloudflare-agents  tools/list `_meta["agents-x402/paymentRequired"]: true`; PaymentRequired in `_meta["x402/error"]`.
//   vercel-x402-mcp    tools/list `annotations.paymentHint: true`; version 1 requirements in `structuredContent`.
// No payment is ever taken: a paid tool answers PaymentRequired to every call (a failing one, a JSON-RPC error).
// Every tool counts its calls, so a test sees exactly which tools the probe called.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export const USDC_BASE_SEPOLIA = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

export type ToolStyle = "x402-mcp" | "cloudflare-agents" | "vercel-x402-mcp";

export type StyledTool = {
  name: string;
  /** How the tool is paid; omitted, it is free (it answers its input). */
  style?: ToolStyle;
  /** USDC units asked (default "10000", $0.01), read at every call: a test may change it between two. */
  amount?: () => string;
  /** The network asked in (default Base Sepolia, `eip155:84532`). */
  network?: string;
  /** Every call of the tool fails with a JSON-RPC error (a server that breaks, not one that asks). */
  fails?: boolean;
};

export type PaidStyleServer = { url: string; calls: Record<string, number>; close: () => Promise<void> };

/** What a version 2 paid tool asks: x402's PaymentRequired with one offer in USDC on Base Sepolia. */
export function paymentRequiredV2(url: string, payTo: string, amount: string, network = "eip155:84532") {
  return {
    x402Version: 2,
    error: "Payment required",
    resource: { url },
    accepts: [
      {
        scheme: "exact",
        network,
        asset: USDC_BASE_SEPOLIA,
        amount,
        payTo,
        maxTimeoutSeconds: 300,
        extra: { name: "USDC", version: "2" },
      },
    ],
  };
}

export function paymentRequiredV1(url: string, payTo: string, amount: string) {
  return {
    x402Version: 1,
    error: "Payment required",
    accepts: [
      {
        scheme: "exact",
        network: "base-sepolia",
        maxAmountRequired: amount,
        resource: url,
        description: "a paid tool",
        mimeType: "application/json",
        payTo,
        maxTimeoutSeconds: 300,
        asset: USDC_BASE_SEPOLIA,
        extra: { name: "USDC", version: "2" },
      },
    ],
  };
}

/** The unpaid answer of a paid tool, in its style. */
function askForPayment(tool: StyledTool, url: string, payTo: string) {
  const amount = tool.amount?.() ?? "10000";
  if (tool.style === "vercel-x402-mcp") {
    const required = paymentRequiredV1(url, payTo, amount);
    return {
      isError: true,
      structuredContent: required,
      content: [{ type: "text" as const, text: JSON.stringify(required) }],
    };
  }
  const required = paymentRequiredV2(url, payTo, amount, tool.network);
  if (tool.style === "cloudflare-agents")
    return {
      isError: true,
      _meta: { "x402/error": required },
      content: [{ type: "text" as const, text: "Payment required" }],
    };
  return {
    isError: true,
    structuredContent: required,
    content: [{ type: "text" as const, text: JSON.stringify(required) }],
  };
}

/** What tools/list shows of the tool: the style's own signal, if it has one. */
function listedSignal(tool: StyledTool) {
  if (tool.style === "cloudflare-agents")
    return { _meta: { "agents-x402/paymentRequired": true, "agents-x402/priceUSD": "0.01" } };
  if (tool.style === "vercel-x402-mcp") return { annotations: { paymentHint: true } as Record<string, unknown> };
  return {};
}

function build(tools: StyledTool[], url: () => string, payTo: string, calls: Record<string, number>): McpServer {
  const server = new McpServer({ name: "paid-style-server", version: "1.0.0" });
  for (const tool of tools) {
    const inputSchema = { topic: z.string().describe("Example: tea") };
    server.registerTool(
      tool.name,
      { description: `The ${tool.name} tool.`, inputSchema, ...listedSignal(tool) },
      async (args) => {
        calls[tool.name] = (calls[tool.name] ?? 0) + 1;
        if (!tool.style) return { content: [{ type: "text" as const, text: JSON.stringify(args) }] };
        return askForPayment(tool, url(), payTo);
      },
    );
  }
  return server;
}

type JsonRpcRequest = { id?: unknown; method?: string; params?: { name?: string } };

async function readBody(req: http.IncomingMessage): Promise<JsonRpcRequest | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as JsonRpcRequest;
  } catch {
    return undefined;
  }
}

/** Starts a server with these tools on loopback, paid to `payTo`; `calls` counts every call by tool name. */
export async function startPaidStyleServer(tools: StyledTool[], payTo: string): Promise<PaidStyleServer> {
  const calls: Record<string, number> = Object.fromEntries(tools.map((t) => [t.name, 0]));
  let url = "";
  const failing = new Set(tools.filter((t) => t.fails).map((t) => t.name));
  const httpServer = http.createServer(async (req, res) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    const body = await readBody(req);
    const called = body?.method === "tools/call" ? body.params?.name : undefined;
    if (called && failing.has(called)) {
      calls[called] = (calls[called] ?? 0) + 1;
      return void res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: body?.id, error: { code: -32603, message: "Internal error" } }));
    }
    const server = build(tools, () => url, payTo, calls);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => void Promise.all([transport.close(), server.close()]));
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
  return {
    url,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      }),
  };
}
