// Which item a test purchase buys: the cheapest priced item on the network, within the per-purchase maximum,
// not excluded by its owner, not sold through a payment channel, whose every parameter can be filled from the item's own example ("Example: Lisbon")
// or, for a tool sold through the x402 binding, from its input schema's defaults and examples; without one, a free
// item that can be filled the same way. Nothing is guessed: an item that cannot be filled is not bought.
import {
  exampleArguments,
  findNetwork,
  usdToUnits,
  type PaidStyle,
  type PaymentNetwork,
  type PricedItem,
  type ProbedTool,
} from "@agora-mcp/protocol";

/**
 * `payTo`: the payee an x402-paid tool itself named at the latest check (MonetizedMCP items use payment-methods').
 * `paidTool`: the item is a tool paid per call (and how, when the check read its style): the purchase calls it unpaid
 * for its price even when its tools/list entry does not say it is paid.
 */
export type ChosenItem = {
  key: string;
  name: string;
  units: bigint;
  params: Record<string, unknown>;
  payTo?: string;
  paidTool?: { style?: PaidStyle };
};

/** "Example: Lisbon" or "e.g. Lisbon" → "Lisbon"; anything else names no value. */
function exampleOf(hint: string): string | undefined {
  return /^\s*(?:example:|e\.g\.?)\s*(.+?)\s*$/i.exec(hint)?.[1];
}

function fillParams(item: PricedItem): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (const [name, hint] of Object.entries(item.params ?? {})) {
    const value = exampleOf(hint);
    if (value === undefined) return null;
    params[name] = value;
  }
  return params;
}

function unitsOf(item: PricedItem): bigint | null {
  try {
    return item.units !== undefined ? BigInt(item.units) : usdToUnits(item.amount);
  } catch {
    return null;
  }
}

/** The payee a tool's own offer named on this network at the latest check, in either x402 version's network name. */
function payeeOn(tool: ProbedTool | undefined, network: PaymentNetwork): string | undefined {
  return tool?.paid?.offers?.find((o) => findNetwork(o.network)?.caip2 === network.caip2)?.payTo;
}

type ChoiceInput = { network: PaymentNetwork; excluded: Set<string>; maxUnits: bigint; tools?: ProbedTool[] };

export function chooseItem(
  items: PricedItem[],
  { network, excluded, maxUnits, tools = [] }: ChoiceInput,
): ChosenItem | null {
  // An owner who excludes an item excludes it however it is sold (its x402-paid tool too).
  const excludedTools = new Set(
    items.filter((i) => excluded.has(i.id ?? i.name) && i.x402Tool).map((i) => i.x402Tool!),
  );
  const candidates: ChosenItem[] = [];
  for (const item of items) {
    // A tool paid per call, in any style: one whose version 2 requirements were kept, or one the check priced in a
    // style it read (version 1 servers such as Vercel's x402-mcp and MCPay keep no version 2 requirements).
    const paidPerCall = Boolean(item.toolName && (item.x402Requirements || item.style));
    const key = paidPerCall ? item.toolName! : (item.id ?? item.name);
    if (
      excluded.has(key) ||
      excludedTools.has(key) ||
      (item.paymentMethod && item.paymentMethod !== network.paymentMethod)
    )
      continue;
    // A payment channel's item is paid from a deposit the buyer keeps open between calls: one test purchase has no
    // channel to keep, and opening one to make a single call would leave the rest of its deposit behind.
    if (item.x402Requirements?.scheme === "batch-settlement") continue;
    const units = unitsOf(item);
    if (units === null || units > maxUnits) continue;
    if (paidPerCall) {
      const tool = tools.find((t) => t.name === item.toolName);
      const payTo =
        item.x402Requirements?.network === network.caip2 ? item.x402Requirements.payTo : payeeOn(tool, network);
      if (!payTo) continue;
      const params = exampleArguments(tool?.inputSchema);
      if (params)
        candidates.push({
          key,
          name: item.name,
          units,
          params,
          payTo,
          paidTool: item.style ? { style: item.style } : {},
        });
      continue;
    }
    const params = fillParams(item);
    if (params !== null) candidates.push({ key, name: item.name, units, params });
  }
  const paid = candidates
    .filter((c) => c.units > 0n)
    .sort((a, b) => (a.units < b.units ? -1 : a.units > b.units ? 1 : 0));
  return paid[0] ?? candidates.find((c) => c.units === 0n) ?? null;
}
