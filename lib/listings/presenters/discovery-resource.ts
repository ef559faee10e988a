// A verified listing's x402-paid tool as an x402 Bazaar discovery resource (specs/extensions/bazaar.md of the
// x402 specification): type "mcp", the requirements the tool's unpaid call answered in `accepts` under the x402
// version they were answered in (an entry's version is its accepts'; the answer's own version is 2), and the bazaar
// extension describing the tool call, with an example that satisfies the tool's input schema.
import { exampleArguments, findNetwork } from "@agora-mcp/protocol";
import type { PayableItem } from "@/db/queries/discovery";
import type { DeliveryCounts, SalesSummary } from "@/lib/listings/model";
import type { TestPurchaseView } from "@/lib/listings/test-purchase-view";
import { provenanceFacts } from "./provenance";
import { detailUrl } from "./server-details";
import { salesFacts } from "./sales-facts";
import { AGORA_META_KEY } from "./server-json";

/** The version of the discovery answer itself; each entry says its own. */
export const X402_VERSION = 2;

/** The JSON Schema the Bazaar extension requires for an MCP tool's discovery info (bazaar.md, "MCP Schema Example"). */
const MCP_INFO_SCHEMA = {
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

/** Agora's evidence about the listing an entry belongs to (lib/registry/discovery-entries.ts reads it). */
type DiscoveryFacts = {
  sales: SalesSummary;
  testPurchase: TestPurchaseView | null;
  buyerRating: { count: number; average: number | null };
  delivery30d: DeliveryCounts;
};

/**
 * The listing's evidence, read the way the field reads it: Coinbase's Bazaar's `quality` (paid calls and distinct
 * paying wallets over 30 days, the last paid call; sales read from the chain, the site's own test-purchase wallet
 * never counted), and beside them, under Agora's own key, what Agora checked itself.
 */
function quality(payable: PayableItem, { sales, testPurchase, buyerRating, delivery30d }: DiscoveryFacts) {
  return {
    l30DaysTotalCalls: sales.last30d.sales,
    l30DaysUniquePayers: sales.last30d.buyers,
    lastCalledAt: sales.lastSale?.at ?? null,
    [AGORA_META_KEY]: {
      // Discovery lists verified listings only; a test purchase that paid and got nothing back takes it away.
      verified: testPurchase?.outcome !== "not-delivered",
      lastCheckedAt: payable.checkedAt,
      deliveryTested: testPurchase
        ? { outcome: testPurchase.outcome, at: testPurchase.at, deliveredMs: testPurchase.deliveredMs }
        : null,
      buyerRating: { count: buyerRating.count, averageStars: buyerRating.average },
      // What came of Agora's test purchases and buyers' signed receipts over 30 days: delivered, failed without a
      // charge, failed after paying (and how many of them buyers reported, when any did).
      delivery30d,
      // How this entry is paid (x402's scheme of its accepts): "exact" a fixed price, "upto" at most the amount.
      schemes: [payable.offer.requirements.scheme],
    },
  };
}

export function toDiscoveryResource(payable: PayableItem, facts: DiscoveryFacts) {
  const { sales, testPurchase } = facts;
  const { item, listed } = payable;
  const toolName = item.toolName;
  const tool = payable.tools.find((t) => t.name === toolName);
  const inputSchema =
    tool?.inputSchema && typeof tool.inputSchema === "object"
      ? (tool.inputSchema as Record<string, unknown>)
      : { type: "object" };
  // Made only when it surely satisfies the schema; the probe's unpaid call with the same arguments got PaymentRequired.
  const example = exampleArguments(inputSchema);
  const itemName = listed?.name ?? item.name;
  const itemDescription = listed?.description ?? tool?.description ?? undefined;
  const description = `${payable.name}: ${itemName}${itemDescription ? ` — ${itemDescription}` : ""}`;
  const { offer } = payable;
  const network = findNetwork(offer.requirements.network);
  return {
    resource: payable.serverUrl,
    type: "mcp",
    // Version 1 servers (Vercel's x402-mcp, MCPay) are listed with their version 1 requirements: a version 1
    // client pays them directly, as it would after the tool's own unpaid call.
    x402Version: offer.x402Version,
    // Exactly what the tool's unpaid call answered at the latest check, whichever library the server is built with.
    accepts: [offer.requirements],
    lastUpdated: payable.checkedAt,
    description,
    mimeType: "application/json",
    ...(printable(payable.name) ? { serviceName: payable.name } : {}),
    tags: tags(payable.categories),
    quality: quality(payable, facts),
    extensions: {
      bazaar: {
        info: {
          input: {
            type: "mcp",
            toolName,
            description,
            transport: "streamable-http",
            inputSchema,
            ...(example ? { example } : {}),
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
      item: itemName,
      // The same item through MonetizedMCP's make-purchase, for clients that speak it (x402 version 1).
      ...(listed?.id ? { itemId: listed.id } : {}),
      priceUsd: item.amount,
      currency: item.currency,
      paymentMethods: network ? [network.paymentMethod] : [],
      // How the server takes the payment (@agora-mcp/protocol paid-styles.ts): Cloudflare's agents/x402, for one,
      // wants the payment base64-encoded where x402's MCP transport takes the object.
      ...(item.style ? { paidStyle: item.style } : {}),
      // The listing's sales read from the chain (all its items together), as on every other surface.
      sales: salesFacts(sales),
      // Agora's latest purchase from this server (lib/test-purchases), as on every other surface; null before the first.
      testPurchase,
      ...provenanceFacts(payable),
    },
  };
}
