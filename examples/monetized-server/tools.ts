// The three MonetizedMCP tools on an McpServer, plus the deliberately odd shapes real servers use
// (for the probe's tests): `pricing-listing` spelling, a single payment-method object, string amounts.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { z } from "zod";
import { catalogue, PAYMENT_METHOD, WALLET_ADDRESS } from "./catalogue";

export type ToolShape = "reference" | "quirky" | "no-pricing";

function json(value: unknown, structured = true): CallToolResult {
  const result: CallToolResult = { content: [{ type: "text", text: JSON.stringify(value) }] };
  // structuredContent must be an object; arrays travel as text only.
  if (structured && value && typeof value === "object" && !Array.isArray(value)) {
    result.structuredContent = value as Record<string, unknown>;
  }
  return result;
}

function failure(message: string, details?: unknown): CallToolResult {
  const text = details === undefined ? message : `${message}\n${JSON.stringify(details)}`;
  return { isError: true, content: [{ type: "text", text }] };
}

function matching(searchQuery: string | undefined) {
  const q = searchQuery?.trim().toLowerCase();
  return q ? catalogue.filter((i) => `${i.name} ${i.description}`.toLowerCase().includes(q)) : catalogue;
}

/** What an x402 client needs to pay for one item (the "accepts" entry of a 402 answer). */
function paymentRequirements(item: (typeof catalogue)[number]) {
  return {
    scheme: "exact",
    network: "base-sepolia",
    paymentMethod: PAYMENT_METHOD,
    maxAmountRequired: String(Math.round(item.amount * 1_000_000)), // USDC has 6 decimals
    asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e", // USDC on Base Sepolia
    payTo: WALLET_ADDRESS,
    resource: `mcp://make-purchase/${item.id}`,
  };
}

// One validator for every per-request server: building an Ajv instance costs more than answering a call.
const validator = new AjvJsonSchemaValidator();

export function buildMcpServer(shape: ToolShape): McpServer {
  const server = new McpServer({ name: "agora-reference-monetized-server", version: "1.0.0" }, { jsonSchemaValidator: validator });

  if (shape === "no-pricing") {
    server.registerTool(
      "echo",
      { description: "Repeats the text it is given.", inputSchema: { text: z.string() } },
      async ({ text }) => ({ content: [{ type: "text", text }] }),
    );
    return server;
  }

  const quirky = shape === "quirky";
  server.registerTool(
    quirky ? "pricing-listing" : "price-listing",
    {
      description: "Lists what this server sells and the price of one call of each, in USDC.",
      inputSchema: { searchQuery: z.string().optional() },
    },
    async ({ searchQuery }) => {
      const items = matching(searchQuery).map((item) =>
        quirky
          ? { name: item.name, description: item.description, price: { amount: item.amount.toFixed(2), paymentMethod: PAYMENT_METHOD }, params: item.params }
          : { id: item.id, name: item.name, description: item.description, price: { amount: item.amount, currency: "USDC", paymentMethod: PAYMENT_METHOD }, params: item.params },
      );
      return json({ items }, !quirky);
    },
  );

  server.registerTool(
    "payment-methods",
    { description: "The payment methods this server accepts and the wallet each pays into." },
    async () => {
      const method = { paymentMethod: PAYMENT_METHOD, walletAddress: WALLET_ADDRESS };
      return json(quirky ? method : [method]);
    },
  );

  server.registerTool(
    "make-purchase",
    {
      description: "Buys one call of an item. Needs a payment for the item's price; without one nothing is delivered.",
      inputSchema: {
        itemId: z.string().describe("The id (or name) of an item from price-listing"),
        params: z.record(z.string(), z.string()).optional(),
        paymentMethod: z.string().optional(),
        payment: z.string().optional().describe("The signed x402 payment payload (base64)"),
      },
    },
    async ({ itemId, payment }) => {
      const item = catalogue.find((i) => i.id === itemId || i.name === itemId);
      if (!item) return failure(`Unknown item: ${itemId}`);
      if (!payment) return failure("Payment required", { accepts: [paymentRequirements(item)] });
      // Settlement is out of scope for this example (see its README): every payment is refused.
      return failure("Payment could not be verified: this reference server does not settle payments", {
        accepts: [paymentRequirements(item)],
      });
    },
  );
  return server;
}
