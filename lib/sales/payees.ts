// Which wallets are whose, and at what prices: each listing's payees on one network, as its checks read them (the
// payment-methods wallets and the payTo of x402-paid tools), with the prices those checks asked there. A payment to a
// wallet cannot say which of several listings naming it was bought from, and any server can name any wallet: so a
// wallet's sales go to the listing that named it first and to that listing's owner's other listings naming it, never
// to a stranger's listing that names a popular seller's wallet to take its figures (an unowned import counts alone).
// "First" is by approval, never by creation: only listed (approved) listings reach here, and among them one whose
// approved terms hold the wallet goes before one that names it only in a later check, each by when an approval took
// the wallet in (else by when it was approved). So an old listing edited to name a seller's wallet takes nothing.
// And a transfer is a sale only at a price the listing asked: anyone can send a seller one unit with an authorization,
// which must not make a "sale" or a verified purchase. The sales indexer and buyer reviews both decide here.
// A metered item (x402's upto scheme) asks at most its price, so any metered settlement from one unit up to that
// maximum is a sale of it: a weaker check than an exact price, as weak as the scheme. A channel item (x402's
// batch-settlement scheme) is paid by claims, each what the buyer's calls since the last claim cost: a claim is a sale
// of it when it is a whole number of calls at its price.
import { EVM_ADDRESS, findNetwork, usdToUnits, type PaymentNetwork, type PricedItem } from "@agora-mcp/protocol";
import { getAddress, type Address } from "viem";
import type { PaymentTerms, SaleKind } from "@/db/queries/sales";

/**
 * What a listing asked at one payee: exact prices (token units), the largest maximum of its metered items there
 * (0n: none), and the per-call prices of its channel items.
 */
export type Asked = { prices: Set<bigint>; upTo: bigint; perCall: Set<bigint> };
/** Payee address (checksummed) → the listings credited with its sales → what they asked there. */
export type Payees = Map<Address, Map<string, Asked>>;

/** An item's price in token units when it is a USD(C) price above zero; null otherwise (a free item sells nothing). */
function priceOf(item: PricedItem): bigint | null {
  if (item.currency !== "USDC" && item.currency !== "USD") return null;
  try {
    const units = item.units !== undefined ? BigInt(item.units) : usdToUnits(item.amount);
    return units > 0n ? units : null;
  } catch {
    return null;
  }
}

/**
 * `terms` holds one row per check (the indexer passes each listing's latest, buyer reviews every check of the
 * listings naming a wallet in their window); rows of one listing add up.
 */
export function payeesOn(network: PaymentNetwork, token: Address, terms: PaymentTerms[]): Payees {
  const payees: Payees = new Map();
  const byId = new Map(terms.map((t) => [t.listingId, t]));
  const add = (wallet: string | undefined, listingId: string, prices: bigint[], upTo = 0n, perCall: bigint[] = []) => {
    if (!wallet || !EVM_ADDRESS.test(wallet)) return;
    const address = getAddress(wallet);
    const listings = payees.get(address) ?? new Map<string, Asked>();
    const asked = listings.get(listingId) ?? noAsk();
    for (const price of prices) asked.prices.add(price);
    for (const price of perCall) asked.perCall.add(price);
    if (upTo > asked.upTo) asked.upTo = upTo;
    listings.set(listingId, asked);
    payees.set(address, listings);
  };
  const onNetwork = (name: string | undefined) => findNetwork(name)?.caip2 === network.caip2;
  for (const t of terms) {
    const items = t.pricedItems ?? [];
    // Items sold through make-purchase (and x402 tools answering version 1 only) are paid to the payment-methods
    // wallets of their network; x402 tools with version 2 requirements name their own payTo and amount.
    const purchasePrices = items
      .filter((i) => !i.x402Requirements && (!i.paymentMethod || onNetwork(i.paymentMethod)))
      .map(priceOf)
      .filter((p) => p !== null);
    for (const method of t.paymentMethods ?? []) {
      if (onNetwork(method.paymentMethod)) add(method.walletAddress, t.listingId, purchasePrices);
    }
    for (const item of items) {
      const req = item.x402Requirements;
      if (!req || !onNetwork(req.network) || !EVM_ADDRESS.test(req.asset ?? "") || getAddress(req.asset) !== token)
        continue;
      const amount = /^\d{1,78}$/.test(req.amount ?? "") ? BigInt(req.amount) : 0n;
      if (req.scheme === "upto") add(req.payTo, t.listingId, [], amount);
      else if (req.scheme === "batch-settlement") add(req.payTo, t.listingId, [], 0n, amount > 0n ? [amount] : []);
      else add(req.payTo, t.listingId, amount > 0n ? [amount] : []);
    }
  }
  for (const [address, listings] of payees) {
    if (listings.size > 1) {
      const credited = new Set(
        firstOwnersListings(
          [...listings.keys()].map((id) => byId.get(id)!),
          address,
        ),
      );
      for (const id of listings.keys()) if (!credited.has(id)) listings.delete(id);
      payees.set(address, listings);
    }
  }
  return payees;
}

/** Nothing asked yet. */
export const noAsk = (): Asked => ({ prices: new Set(), upTo: 0n, perCall: new Set() });

/**
 * What a listing asked for a sale of `kind` and `amount`, or null when it is no sale of it: the price for an exact
 * one, the maximum for a metered one, the per-call price for a channel's claim (the smallest that divides it).
 */
function askedFor({ prices, upTo, perCall }: Asked, kind: SaleKind, amount: bigint): bigint | null {
  if (amount <= 0n) return null;
  if (kind === "metered") return amount <= upTo ? upTo : null;
  if (kind === "channel")
    return [...perCall].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).find((price) => amount % price === 0n) ?? null;
  return prices.has(amount) ? amount : null;
}

/**
 * The listings a payment of `amount` to `payee` is a sale of, with what each asked (`askedFor`): those credited with
 * the wallet that asked that price there, a metered maximum at least that amount, or a channel price it is a
 * multiple of.
 */
export function listingsSoldWithAsk(
  payees: Payees,
  payee: string,
  amount: bigint,
  kind: SaleKind = "exact",
): { listingId: string; askedUnits: bigint }[] {
  if (!EVM_ADDRESS.test(payee)) return [];
  const listings = payees.get(getAddress(payee));
  if (!listings) return [];
  return [...listings].flatMap(([listingId, asked]) => {
    const askedUnits = askedFor(asked, kind, amount);
    return askedUnits === null ? [] : [{ listingId, askedUnits }];
  });
}

/** The listings a payment of `amount` to `payee` is a sale of (`listingsSoldWithAsk`). */
export function listingsSold(payees: Payees, payee: string, amount: bigint, kind: SaleKind = "exact"): string[] {
  return listingsSoldWithAsk(payees, payee, amount, kind).map((s) => s.listingId);
}

/** Whether `t`'s approved terms hold `wallet`, and since when it counts as named by it (ms). */
function namedSince(t: PaymentTerms, wallet: Address): { approved: boolean; at: number } {
  const lower = wallet.toLowerCase();
  const since = t.approvedTerms?.walletsSince?.[lower];
  if (since) return { approved: true, at: Date.parse(since) };
  const approved = t.approvedTerms?.wallets.some((w) => w.walletAddress?.toLowerCase() === lower) ?? false;
  return { approved, at: t.approvedAt.getTime() };
}

/** Of the listings naming one wallet: the first to have it approved, and its owner's other listings. */
function firstOwnersListings(named: PaymentTerms[], wallet: Address): string[] {
  // Ties (wallets taken in by one run, e.g. the first checks of listings approved before any check) go to the listing
  // approved first, and only then to the id.
  const rank = (t: PaymentTerms) => ({ ...namedSince(t, wallet), approvedAt: t.approvedAt.getTime(), id: t.listingId });
  const before = (a: ReturnType<typeof rank>, b: ReturnType<typeof rank>) =>
    a.approved !== b.approved
      ? a.approved
      : a.at !== b.at
        ? a.at < b.at
        : a.approvedAt !== b.approvedAt
          ? a.approvedAt < b.approvedAt
          : a.id < b.id;
  const first = named.reduce((a, b) => (before(rank(b), rank(a)) ? b : a));
  return named
    .filter((t) => t === first || (first.ownerId !== null && t.ownerId === first.ownerId))
    .map((t) => t.listingId);
}
