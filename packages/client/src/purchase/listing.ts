// The server's live terms against its Agora listing: what the person chose the server by (the registry's latest
// check, shown on the listing) must still hold when it asks to be paid. A higher price for a listed item, or a
// payee the listing does not show on this network, is refused before anything is signed; a lower price may go on.
import { formatUsd, sameAddress, usdToUnits } from "@agora-mcp/protocol";
import type { ListedTerms } from "../registry.js";
import type { Context, Priced, PurchaseOutcome } from "./types.js";

type ListedItem = ListedTerms["pricedItems"][number];

/** The listing's entry for this item: by the id make-purchase takes, else by name (an x402 tool is its own name). */
function listedItem(terms: ListedTerms, priced: Priced, paymentMethod: string): ListedItem | undefined {
  const payable = terms.pricedItems.filter((i) => i.paymentMethod === null || i.paymentMethod === paymentMethod);
  return (
    payable.find((i) => i.id !== null && i.id === priced.itemKey) ??
    payable.find((i) => i.name === priced.name || i.name === priced.itemKey)
  );
}

/** Why the live terms break the listing's, in words naming the old and the new; undefined when they hold. */
function mismatch(terms: ListedTerms, priced: Priced, paymentMethod: string): string | undefined {
  const item = listedItem(terms, priced, paymentMethod);
  if (item) {
    const listedUnits = usdToUnits(item.priceUsd);
    if (priced.units > listedUnits)
      return `it now asks ${formatUsd(priced.units)} for "${priced.name}", more than the ${formatUsd(listedUnits)} its Agora listing shows`;
  }
  if (!terms.paymentMethods.length) return undefined;
  const wallets = terms.paymentMethods.filter((m) => m.id === paymentMethod && m.payTo).map((m) => m.payTo!);
  if (!wallets.length) {
    return `it asks to be paid in ${paymentMethod} at ${priced.payTo}, but its Agora listing shows no wallet for ${paymentMethod} (it shows ${[...new Set(terms.paymentMethods.map((m) => m.id))].join(", ")})`;
  }
  if (!wallets.some((w) => sameAddress(w, priced.payTo))) {
    return `it now asks to be paid at ${priced.payTo}, not at ${wallets.join(" or ")} as its Agora listing shows`;
  }
  return undefined;
}

/** The outcome that ends the purchase when the server's terms differ from its listing's; undefined to go on. */
export function checkAgainstListing(ctx: Context, priced: Priced): PurchaseOutcome | undefined {
  const terms = ctx.server.terms;
  if (!terms) return undefined;
  const why = mismatch(terms, priced, ctx.deps.settings.network.paymentMethod);
  if (!why) return undefined;
  return {
    status: "drift",
    code: "not_listed",
    message: `${ctx.server.label} does not sell on the terms its listing shows: ${why}. Nothing was signed or paid.`,
    signed: false,
    ...ctx.at,
    priceUsd: formatUsd(priced.units),
    payTo: priced.payTo,
  };
}
