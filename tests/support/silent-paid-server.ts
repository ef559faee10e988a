// A paid MCP server in the style of x402's MCP transport, on loopback: its tools/list says nothing about which tool
// is paid. `premium` answers an unpaid call with an x402 version 2 PaymentRequired (before it runs); `echo` is free
// and runs whenever it is called; `metered` marks itself paid in its listing (Cloudflare's _meta). Every call is
// counted per tool, so a test can tell which tools the probe called.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { listen, sdkHandler } from "@/examples/x402-transport-server/http";

export const SILENT_PAYEE = "0x000000000000000000000000000000000000dEaD";
const BASE_SEPOLIA_USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

/** What `premium` asks: $0.01 in USDC on Base Sepolia, and a second offer in a scheme Agora does not pay. */
export const PREMIUM_ASK = {
  x402Version: 2,
  error: "Payment required",
  resource: { url: "mcp://tool/premium" },
  accepts: [
    {
      scheme: "exact",
      network: "eip155:84532",
      asset: BASE_SEPOLIA_USDC,
      amount: "10000",
      payTo: SILENT_PAYEE,
      maxTimeoutSeconds: 300,
      extra: { name: "USDC", version: "2" },
    },
    {
      scheme: "upto",
      network: "eip155:84532",
      asset: BASE_SEPOLIA_USDC,
      amount: "50000",
      payTo: SILENT_PAYEE,
      maxTimeoutSeconds: 300,
      extra: {},
    },
  ],
};

export type SilentPaidServer = {
  url: string;
  calls: Record<"premium" | "echo" | "metered", number>;
  close: () => Promise<void>;
};

function build(calls: SilentPaidServer["calls"]): McpServer {
  const server = new McpServer({ name: "silent-paid-server", version: "1.0.0" });
  const ask = () => ({
    isError: true,
    structuredContent: PREMIUM_ASK,
    content: [{ type: "text" as const, text: JSON.stringify(PREMIUM_ASK) }],
  });
  server.registerTool(
    "premium",
    { description: "Answers a question in depth.", inputSchema: { question: z.string() } },
    async (_args, extra) => {
      calls.premium += 1;
      if (!extra._meta?.["x402/payment"]) return ask();
      return { content: [{ type: "text" as const, text: "a deep answer" }] };
    },
  );
  server.registerTool(
    "echo",
    { description: "Says back what it is given.", inputSchema: { text: z.string() } },
    async ({ text }) => {
      calls.echo += 1;
      return { content: [{ type: "text" as const, text }] };
    },
  );
  server.registerTool(
    "metered",
    { description: "Counts things.", _meta: { "agents-x402/paymentRequired": true, "agents-x402/priceUSD": 0.02 } },
    async () => {
      calls.metered += 1;
      return {
        isError: true,
        content: [{ type: "text" as const, text: "payment required" }],
        _meta: { "x402/error": { ...PREMIUM_ASK, accepts: [{ ...PREMIUM_ASK.accepts[0], amount: "20000" }] } },
      };
    },
  );
  return server;
}

export async function startSilentPaidServer(): Promise<SilentPaidServer> {
  const calls = { premium: 0, echo: 0, metered: 0 };
  const { url, close } = await listen(
    0,
    sdkHandler(() => build(calls)),
  );
  return { url, calls, close };
}
