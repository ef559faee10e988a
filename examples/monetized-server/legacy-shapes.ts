// Servers with the odd shapes real MonetizedMCP servers answer, for the probe's tests: `pricing-listing`
// spelling, a single payment-method object, string amounts, JSON text only (`quirky`), and a working MCP
// server without the MonetizedMCP tools (`no-pricing`). Neither sells anything.
import { McpServer } from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { z } from "zod";
import { PAYMENT_METHOD, PLACEHOLDER_WALLET } from "./items";

export type LegacyShape = "quirky" | "no-pricing";

const QUIRKY_ITEMS = [
  {
    name: "Current weather",
    description: "Temperature, wind and sky for a city, right now.",
    amount: "0.01",
    params: { city: "Example: Lisbon" },
  },
  {
    name: "Page summary",
    description: "A five-sentence summary of a public web page.",
    amount: "0.05",
    params: { url: "Example: https://example.com/article" },
  },
  {
    name: "Logo render",
    description: "A 512×512 PNG logo from a short brief.",
    amount: "0.25",
    params: { brief: "Example: a fox" },
  },
];

// One validator for every per-request server: building an Ajv instance costs more than answering a call.
const validator = new AjvJsonSchemaValidator();

const text = (value: unknown) => ({ content: [{ type: "text" as const, text: JSON.stringify(value) }] });

export function buildLegacyServer(shape: LegacyShape, walletAddress = PLACEHOLDER_WALLET): McpServer {
  const server = new McpServer(
    { name: "agora-reference-monetized-server", version: "1.0.0" },
    { jsonSchemaValidator: validator },
  );
  if (shape === "no-pricing") {
    server.registerTool(
      "echo",
      { description: "Repeats the text it is given.", inputSchema: z.object({ text: z.string() }) },
      async ({ text: t }) => ({
        content: [{ type: "text", text: t }],
      }),
    );
    return server;
  }
  server.registerTool(
    "pricing-listing",
    { description: "Lists what this server sells.", inputSchema: z.object({ searchQuery: z.string().optional() }) },
    async () =>
      text({
        items: QUIRKY_ITEMS.map((i) => ({
          name: i.name,
          description: i.description,
          price: { amount: i.amount, paymentMethod: PAYMENT_METHOD },
          params: i.params,
        })),
      }),
  );
  server.registerTool("payment-methods", { description: "The payment method and wallet." }, async () =>
    text({ paymentMethod: PAYMENT_METHOD, walletAddress }),
  );
  server.registerTool(
    "make-purchase",
    {
      description: "Refuses every purchase (an old server that never settled).",
      inputSchema: z.object({
        itemId: z.string(),
        params: z.record(z.string(), z.string()).optional(),
        paymentMethod: z.string().optional(),
        signedTransaction: z.string().optional(),
      }),
    },
    async () => text({ toolResult: "Payment failed" }),
  );
  return server;
}
