// What a paid server sells, read fresh from the server itself: MonetizedMCP items (price-listing and
// payment-methods), and tools paid per call over x402 in any of the field's styles (@agora-mcp/protocol
// paid-styles.ts): a tool is paid when its own tools/list entry says so (Agora's kit `_meta["x402/price"]`,
// Cloudflare's `_meta["agents-x402/paymentRequired"]`, Vercel's `paymentHint`, an x402 `_meta` key, the documented
// description form), or when the registry listing the wallet resolved (or the caller) names it as a paid item.
// Only such a tool is ever called unpaid: a paid tool answers that call with its price before it runs.
import {
  JOB_STATUS_TOOL,
  MAKE_PURCHASE_TOOL,
  PAYMENT_METHODS_TOOLS,
  PRICE_LISTING_TOOLS,
  Quirks,
  EVM_ADDRESS,
  paidSignal,
  readPaymentMethods,
  readPricedItems,
  readToolPayload,
  usdToUnits,
  type AcceptedPayment,
  type PaidReason,
  type PaidStyle,
  type PaymentNetwork,
  type PricedItem,
} from "@agora-mcp/protocol";
import type { Connection, ListedTool } from "./connections.js";
import type { ListedTerms } from "./registry.js";

/** A tool paid per call over x402, and what is known of it before calling it. */
export type X402Tool = {
  name: string;
  description?: string;
  /** Why the wallet takes it for paid: its own tools/list entry, or a name from the registry or the caller. */
  reason: PaidReason;
  /** The style its signal names (the unpaid call's answer has the last word). */
  style?: PaidStyle;
  /** The price known without calling it, in USDC units: the kit's `_meta["x402/price"]`, Cloudflare's priceUSD, or the registry's latest check. */
  units?: string;
  /** The network the kit's price hint names. */
  network?: string;
  /** The kit's price hint says the payment settles only after the tool succeeded (`settles: "after-success"`). */
  settlesAfterSuccess?: boolean;
};

/**
 * A tool named as paid from outside its tools/list entry: by the registry listing the wallet resolved (its latest
 * check read the tool as paid), or by a caller that knows it from there (the site's test purchases).
 */
export type NamedPaidTool = { name: string; style?: PaidStyle; units?: string };

/** The paid tools a registry listing names: its priced items bought through a tool of their own (not make-purchase). */
export function namedPaidTools(terms: ListedTerms | undefined): NamedPaidTool[] {
  const named: NamedPaidTool[] = [];
  for (const item of terms?.pricedItems ?? []) {
    if (MONETIZED_TOOLS.has(item.toolName) || item.priceUsd <= 0 || named.some((n) => n.name === item.toolName))
      continue;
    let units: string | undefined;
    try {
      units = usdToUnits(item.priceUsd).toString();
    } catch {
      units = undefined;
    }
    named.push({ name: item.toolName, ...(item.style ? { style: item.style } : {}), ...(units ? { units } : {}) });
  }
  return named;
}

export type PriceList = {
  items: PricedItem[];
  methods: AcceptedPayment[];
  /** The wallet this client would pay on its network, when the server accepts it. */
  payTo?: `0x${string}`;
  x402Tools: X402Tool[];
  hasMakePurchase: boolean;
  hasJobStatus: boolean;
  notes: string[];
};

const MONETIZED_TOOLS: ReadonlySet<string> = new Set([
  ...PRICE_LISTING_TOOLS,
  ...PAYMENT_METHODS_TOOLS,
  MAKE_PURCHASE_TOOL,
  JOB_STATUS_TOOL,
]);

/** Dollars as a signal gives them ("0.01", 0.01, "$0.01") in USDC units; undefined when not a plain amount. */
function unitsOfUsd(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    const units = usdToUnits(value);
    return units > 0n ? units.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** One listed tool as a paid tool, when its own entry or a name from outside says it is paid. */
function paidTool(tool: ListedTool, named: NamedPaidTool[]): X402Tool | undefined {
  if (MONETIZED_TOOLS.has(tool.name)) return undefined;
  const signal = paidSignal({
    name: tool.name,
    description: tool.description,
    annotations: tool.annotations,
    _meta: tool.meta,
  });
  const name = named.find((n) => n.name === tool.name);
  if (!signal && !name) return undefined;
  const kit = tool.meta?.["x402/price"] as { amount?: unknown; network?: unknown; settles?: unknown } | undefined;
  const kitUnits = typeof kit?.amount === "string" && /^\d{1,40}$/.test(kit.amount) ? kit.amount : undefined;
  const style = signal?.style ?? name?.style;
  const units = kitUnits ?? unitsOfUsd(signal?.priceUsd) ?? name?.units;
  return {
    name: tool.name,
    ...(tool.description ? { description: tool.description } : {}),
    reason: signal?.reason ?? "registry",
    ...(style ? { style } : {}),
    ...(units ? { units } : {}),
    ...(typeof kit?.network === "string" ? { network: kit.network } : {}),
    ...(kit?.settles === "after-success" ? { settlesAfterSuccess: true } : {}),
  };
}

export async function readPriceList(
  c: Connection,
  network: PaymentNetwork,
  named: NamedPaidTool[] = [],
): Promise<PriceList> {
  const tools = await c.toolNames();
  const names = tools.map((t) => t.name);
  const quirks = new Quirks();
  const listingTool = PRICE_LISTING_TOOLS.find((t) => names.includes(t));
  const methodsTool = PAYMENT_METHODS_TOOLS.find((t) => names.includes(t));
  const items = listingTool
    ? (readPricedItems(readToolPayload(listingTool, await c.call(listingTool, {}), quirks), quirks) ?? [])
    : [];
  const methods = methodsTool
    ? (readPaymentMethods(readToolPayload(methodsTool, await c.call(methodsTool, {}), quirks), quirks) ?? [])
    : [];
  const accepted = methods.find((m) => m.paymentMethod === network.paymentMethod && EVM_ADDRESS.test(m.walletAddress));
  const x402Tools = tools.map((t) => paidTool(t, named)).filter((t): t is X402Tool => t !== undefined);
  for (const n of named) {
    if (!MONETIZED_TOOLS.has(n.name) && !names.includes(n.name))
      quirks.add(`${n.name.slice(0, 60)} is named as a paid tool but the server does not list it now`);
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

export function findItem(priceList: PriceList, key: string): PricedItem | undefined {
  const k = key.trim();
  return (
    priceList.items.find((i) => i.id === k) ??
    priceList.items.find((i) => i.name === k) ??
    priceList.items.find((i) => i.name.toLowerCase() === k.toLowerCase())
  );
}

/** Names of declared parameters the agent left out or empty. */
export function missingParams(item: PricedItem, params: Record<string, unknown>): string[] {
  return Object.keys(item.params ?? {}).filter((name) => {
    const v = params[name];
    return v === undefined || v === null || (typeof v === "string" && v.trim() === "");
  });
}
