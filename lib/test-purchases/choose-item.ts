// Which item a test purchase buys: the cheapest priced item on the network, within the per-purchase maximum,
// not excluded by its owner, whose every parameter the item's own listing gives an example for ("Example: Lisbon");
// without one, a free item that can be filled the same way. Nothing is guessed: an item whose parameters cannot
// be filled from the listing is not bought.
import { usdToUnits, type PaymentNetwork, type PricedItem } from "@agora-mcp/protocol";

export type ChosenItem = { key: string; name: string; units: bigint; params: Record<string, string> };

/** "Example: Lisbon" or "e.g. Lisbon" → "Lisbon"; anything else names no value. */
function exampleOf(hint: string): string | undefined {
  return /^\s*(?:example:|e\.g\.?)\s*(.+?)\s*$/i.exec(hint)?.[1];
}

export function fillParams(item: PricedItem): Record<string, string> | null {
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

export function chooseItem(items: PricedItem[], { network, excluded, maxUnits }: { network: PaymentNetwork; excluded: Set<string>; maxUnits: bigint }): ChosenItem | null {
  const candidates: ChosenItem[] = [];
  for (const item of items) {
    const key = item.id ?? item.name;
    if (excluded.has(key) || (item.paymentMethod && item.paymentMethod !== network.paymentMethod)) continue;
    const units = unitsOf(item);
    const params = fillParams(item);
    if (units === null || units > maxUnits || params === null) continue;
    candidates.push({ key, name: item.name, units, params });
  }
  const paid = candidates.filter((c) => c.units > 0n).sort((a, b) => (a.units < b.units ? -1 : a.units > b.units ? 1 : 0));
  return paid[0] ?? candidates.find((c) => c.units === 0n) ?? null;
}
