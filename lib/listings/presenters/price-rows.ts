// The detail page's "Tools and prices": each thing a buyer can pay for, once. A server built on the provider kit
// (packages/server) sells each paid item two ways: through make-purchase (price-listing's item, which names its
// `x402Tool`) and through that x402-paid tool (read from the tool's own PaymentRequired). The check records both;
// they are one purchasable thing, shown as one row naming both ways to buy it. The two are merged only when they
// agree exactly: the same amount in the token's smallest unit, currency and payment method (so network), and a
// payee that is the listing's only one on that method. Anything else stays two rows, as two different offers.
import { PAYMENT_NETWORKS, type AcceptedPayment, type PricedItem, type ProbedTool } from "@agora-mcp/protocol";

type PriceRow = {
  key: string;
  /** The item's name, or the tool's for something sold by a tool alone. */
  name: string;
  /** The name is a tool's (shown as code), not an item's. */
  isTool: boolean;
  description: string | null;
  /** Dollars, for display; null for a tool the check found no price on. */
  amount: number | null;
  currency: string | null;
  /** The x402-paid tool selling the item as well (merged), or null. */
  alsoX402Tool: string | null;
  /** Metered: `amount` is the most one call may cost (shown "up to"). */
  metered: boolean;
};

type Probe = { tools: ProbedTool[]; pricedItems: PricedItem[]; paymentMethods: AcceptedPayment[] };

/** An item read from an x402-paid tool's PaymentRequired (lib/probe), as opposed to one of price-listing's. */
function fromX402Tool(item: PricedItem): boolean {
  return item.toolName !== undefined && item.x402Requirements !== undefined;
}

/** Whether the x402 tool's offer is exactly the item's: amount, currency, payment method and payee. */
function sameOffer(item: PricedItem, tool: PricedItem, methods: AcceptedPayment[]): boolean {
  if (item.units === undefined || item.units !== tool.units || item.currency !== tool.currency) return false;
  const method = tool.paymentMethod;
  if (!method || (item.paymentMethod !== undefined && item.paymentMethod !== method)) return false;
  // The check adds an x402 payee to the listing's payment methods when it differs from payment-methods' own
  // wallet: two payees on one method means the two ways to buy pay different wallets.
  const payees = new Set(methods.filter((m) => m.paymentMethod === method).map((m) => m.walletAddress.toLowerCase()));
  return payees.size === 1 && payees.has(tool.x402Requirements!.payTo.toLowerCase());
}

export function priceRows({ tools, pricedItems, paymentMethods }: Probe): PriceRow[] {
  const merged = new Set<PricedItem>();
  const rows: PriceRow[] = [];
  for (const item of pricedItems) {
    if (fromX402Tool(item)) continue;
    const viaTool = item.x402Tool
      ? pricedItems.find((t) => fromX402Tool(t) && t.toolName === item.x402Tool && !merged.has(t))
      : undefined;
    const same = viaTool !== undefined && sameOffer(item, viaTool, paymentMethods);
    if (same) merged.add(viaTool);
    rows.push({
      key: `item-${item.id ?? item.name}-${item.units ?? item.amount}`,
      name: item.name,
      isTool: false,
      description: item.description ?? null,
      amount: item.amount,
      currency: item.currency,
      alsoX402Tool: same ? viaTool.toolName! : null,
      metered: item.metered === true || (same && viaTool.metered === true),
    });
  }
  const described = (name: string) => tools.find((t) => t.name === name)?.description ?? null;
  for (const item of pricedItems) {
    if (!fromX402Tool(item) || merged.has(item)) continue;
    rows.push({
      key: `x402-${item.toolName}-${item.units}`,
      name: item.toolName!,
      isTool: true,
      description: described(item.toolName!),
      amount: item.amount,
      currency: item.currency,
      alsoX402Tool: null,
      metered: item.metered === true,
    });
  }
  // The server's other tools (price-listing, make-purchase, free tools…), unpriced.
  for (const tool of tools) {
    if (pricedItems.some((item) => item.name === tool.name || item.toolName === tool.name)) continue;
    rows.push({
      key: `tool-${tool.name}`,
      name: tool.name,
      isTool: true,
      description: tool.description,
      amount: null,
      currency: null,
      alsoX402Tool: null,
      metered: false,
    });
  }
  return rows;
}

/**
 * A row's price as shown: "Free" (not "Free USDC": a free item is paid in nothing), "$0.01 USDC", "up to $0.10 USDC"
 * for a metered item, or null.
 */
export function priceText(
  row: Pick<PriceRow, "amount" | "currency"> & { metered?: boolean },
  formatPrice: (amount: number) => string,
): string | null {
  if (row.amount === null) return null;
  if (row.amount === 0) return formatPrice(0);
  return `${row.metered ? "up to " : ""}${formatPrice(row.amount)} ${row.currency}`;
}

/** "USDC on Base Sepolia" for a listing paid on Base Sepolia: the networks its payment methods name, else "USDC". */
export function paidIn(methods: Pick<AcceptedPayment, "paymentMethod">[]): string {
  const labels = [
    ...new Set(
      methods.map((m) => PAYMENT_NETWORKS.find((n) => n.paymentMethod === m.paymentMethod)?.label).filter(Boolean),
    ),
  ];
  return labels.length > 0 ? `USDC on ${labels.join(" or ")}` : "USDC";
}

/** "1 check", "12 checks". */
export function checksText(count: number): string {
  return `${count} ${count === 1 ? "check" : "checks"}`;
}
