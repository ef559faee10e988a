// A verified listing's paid item as an x402 Bazaar discovery resource (specs/extensions/bazaar.md of the
// x402 specification): type "mcp", the item's x402 version 2 payment requirements in `accepts`, and the
// bazaar extension describing the tool call.
import { findNetwork, usdToUnits } from "@agora-mcp/protocol";
import type { PayableItem } from "@/db/queries/discovery";
import { MAKE_PURCHASE_TOOL } from "@/lib/probe/types";
import { detailUrl } from "./server-details";

export const X402_VERSION = 2;
// How long a signed payment stays valid, as MonetizedMCP servers ask (PROTOCOLS.md §1).
const MAX_TIMEOUT_SECONDS = 300;

/** The JSON Schema the Bazaar extension requires for an MCP tool's discovery info (bazaar.md, "MCP Schema Example"). */
export const MCP_INFO_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    input: {
      type: "object",
      properties: {
        type: { type: "string", const: "mcp" },
        toolName: { type: "string" },
        description: { type: "string" },
        transport: { type: "string", enum: ["streamable-http", "sse"] },
        inputSchema: { type: "object" },
        example: { type: "object" },
      },
      required: ["type", "toolName", "inputSchema"],
      additionalProperties: false,
    },
    output: { type: "object", properties: { type: { type: "string" }, example: {} }, required: ["type"] },
  },
  required: ["input"],
} as const;

// The spec's soft-drop rules for service metadata: printable ASCII, at most 32 characters, at most 5 tags.
const printable = (text: string) => /^[\x20-\x7e]{1,32}$/.test(text);
function tags(categories: string[]): string[] {
  const seen = new Set<string>();
  return categories.filter((c) => printable(c) && !seen.has(c.toLowerCase()) && seen.add(c.toLowerCase())).slice(0, 5);
}

/** The x402 payment requirements for one payable item, one per payment method it can be paid with. */
function accepts(payable: PayableItem) {
  return payable.methods.flatMap((method) => {
    const network = findNetwork(method.paymentMethod);
    if (!network) return [];
    return [
      {
        scheme: "exact",
        network: network.caip2,
        // Exact: the probe's integer units when the server gave them, else the dollar amount converted once.
        amount: payable.item.units ?? usdToUnits(payable.item.amount).toString(),
        asset: network.asset,
        payTo: method.walletAddress,
        maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
        extra: network.eip712,
      },
    ];
  });
}

export function toDiscoveryResource(payable: PayableItem) {
  const toolName = payable.item.toolName ?? MAKE_PURCHASE_TOOL;
  const tool = payable.tools.find((t) => t.name === toolName);
  const inputSchema = tool?.inputSchema && typeof tool.inputSchema === "object" ? tool.inputSchema : { type: "object" };
  const description = `${payable.name}: ${payable.item.name}${payable.item.description ? ` — ${payable.item.description}` : ""}`;
  return {
    resource: payable.serverUrl,
    type: "mcp",
    x402Version: X402_VERSION,
    accepts: accepts(payable),
    lastUpdated: payable.checkedAt,
    description,
    mimeType: "application/json",
    ...(printable(payable.name) ? { serviceName: payable.name } : {}),
    tags: tags(payable.categories),
    extensions: {
      bazaar: {
        info: {
          input: {
            type: "mcp",
            toolName,
            description,
            transport: "streamable-http",
            inputSchema,
            // MonetizedMCP servers sell every item through one tool; the item is its argument.
            ...(toolName === MAKE_PURCHASE_TOOL ? { example: { itemId: payable.item.id ?? payable.item.name, params: payable.item.params ?? {} } } : {}),
          },
          output: { type: "json" },
        },
        schema: MCP_INFO_SCHEMA,
      },
    },
    metadata: {
      listingId: payable.listingId,
      slug: payable.slug,
      detailUrl: detailUrl(payable.slug),
      item: payable.item.name,
      priceUsd: payable.item.amount,
      currency: payable.item.currency,
      paymentMethods: payable.methods.map((m) => m.paymentMethod),
    },
  };
}
