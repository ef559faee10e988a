// What a paid server sells, read fresh from the server itself: MonetizedMCP items (price-listing and
// payment-methods) and tools sold through the x402 binding for MCP (announced in `_meta["x402/price"]`).
import {
  JOB_STATUS_TOOL,
  MAKE_PURCHASE_TOOL,
  PAYMENT_METHODS_TOOLS,
  PRICE_LISTING_TOOLS,
  Quirks,
  EVM_ADDRESS,
  readPaymentMethods,
  readPricedItems,
  readToolPayload,
  type AcceptedPayment,
  type PaymentNetwork,
  type PricedItem,
} from "@agora-mcp/protocol";
import type { Connection } from "./connections.js";

export type X402Tool = { name: string; description?: string; units?: string; network?: string };

export type Catalogue = {
  items: PricedItem[];
  methods: AcceptedPayment[];
  /** The wallet this client would pay on its network, when the server accepts it. */
  payTo?: `0x${string}`;
  x402Tools: X402Tool[];
  hasMakePurchase: boolean;
  hasJobStatus: boolean;
  notes: string[];
};

export async function readCatalogue(c: Connection, network: PaymentNetwork): Promise<Catalogue> {
  const tools = await c.toolNames();
  const names = tools.map((t) => t.name);
  const quirks = new Quirks();
  const listingTool = PRICE_LISTING_TOOLS.find((t) => names.includes(t));
  const methodsTool = PAYMENT_METHODS_TOOLS.find((t) => names.includes(t));
  const items = listingTool ? (readPricedItems(readToolPayload(listingTool, await c.call(listingTool, {}), quirks), quirks) ?? []) : [];
  const methods = methodsTool ? (readPaymentMethods(readToolPayload(methodsTool, await c.call(methodsTool, {}), quirks), quirks) ?? []) : [];
  const accepted = methods.find((m) => m.paymentMethod === network.paymentMethod && EVM_ADDRESS.test(m.walletAddress));
  const x402Tools: X402Tool[] = [];
  for (const tool of tools) {
    const price = tool.meta?.["x402/price"] as { amount?: unknown; network?: unknown } | undefined;
    if (!price) continue;
    x402Tools.push({
      name: tool.name,
      description: tool.description,
      units: typeof price.amount === "string" && /^\d+$/.test(price.amount) ? price.amount : undefined,
      network: typeof price.network === "string" ? price.network : undefined,
    });
  }
  return {
    items,
    methods,
    payTo: accepted?.walletAddress as `0x${string}` | undefined,
    x402Tools,
    hasMakePurchase: names.includes(MAKE_PURCHASE_TOOL),
    hasJobStatus: names.includes(JOB_STATUS_TOOL),
    notes: quirks.list(),
  };
}

export function findItem(catalogue: Catalogue, key: string): PricedItem | undefined {
  const k = key.trim();
  return catalogue.items.find((i) => i.id === k) ?? catalogue.items.find((i) => i.name === k) ?? catalogue.items.find((i) => i.name.toLowerCase() === k.toLowerCase());
}

/** Names of declared parameters the agent left out or empty. */
export function missingParams(item: PricedItem, params: Record<string, unknown>): string[] {
  return Object.keys(item.params ?? {}).filter((name) => {
    const v = params[name];
    return v === undefined || v === null || (typeof v === "string" && v.trim() === "");
  });
}
