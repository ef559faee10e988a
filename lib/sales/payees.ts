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
// maximum is a sale of it: a weaker check than an exact price, as weak as the scheme.
import { EVM_ADDRESS, findNetwork, usdToUnits, type PaymentNetwork, type PricedItem } from "@agora-mcp/protocol";
import { getAddress, type Address } from "viem";
import type { PaymentTerms } from "@/db/queries/sales";

/**
 * What a listing asked at one payee: exact prices (token units), and the largest maximum of its metered items there
 * (0n: none).
 */
export type Asked = { prices: Set<bigint>; upTo: bigint };
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
  const add = (wallet: string | undefined, listingId: string, prices: bigint[], upTo = 0n) => {
    if (!wallet || !EVM_ADDRESS.test(wallet)) return;
    const address = getAddress(wallet);
    const listings = payees.get(address) ?? new Map<string, Asked>();
    const asked = listings.get(listingId) ?? { prices: new Set<bigint>(), upTo: 0n };
    for (const price of prices) asked.prices.add(price);
    if (upTo > asked.upTo) asked.upTo = upTo;
    listings.set(listingId, asked);
    payees.set(address, listings);
  };
  const onNetwork = (name: string | undefined) => findNetwork(name)?.caip2 === network.caip2;
  for (const t of terms) {
    const items = t.pricedItems ?? [];
    // Items sold through make-purchase (and x402 tools answering version 1 only) are paid to the payment-methods
    // wallets of their network; x402 tools with version 2 requirements name their own payTo and amount.
    const purchasePrices = items.filter((i) => !i.x402Requirements && (!i.paymentMethod || onNetwork(i.paymentMethod))).map(priceOf).filter((p) => p !== null);
    for (const method of t.paymentMethods ?? []) {
      if (onNetwork(method.paymentMethod)) add(method.walletAddress, t.listingId, purchasePrices);
    }
    for (const item of items) {
      const req = item.x402Requirements;
      if (!req || !onNetwork(req.network) || !EVM_ADDRESS.test(req.asset ?? "") || getAddress(req.asset) !== token) continue;
      const amount = /^\d{1,78}$/.test(req.amount ?? "") ? BigInt(req.amount) : 0n;
      if (req.scheme === "upto") add(req.payTo, t.listingId, [], amount);
      else add(req.payTo, t.listingId, amount > 0n ? [amount] : []);
    }
  }
  for (const [address, listings] of payees) {
    if (listings.size > 1) {
      const credited = new Set(firstOwnersListings([...listings.keys()].map((id) => byId.get(id)!), address));
      for (const id of listings.keys()) if (!credited.has(id)) listings.delete(id);
      payees.set(address, listings);
    }
  }
  return payees;
}

/**
 * The listings a transfer of `amount` to `payee` is a sale of: those credited with the wallet that asked that price
 * there, or for a metered settlement a maximum at least that amount.
 */
export function listingsSold(payees: Payees, payee: string, amount: bigint, metered = false): string[] {
  if (!EVM_ADDRESS.test(payee)) return [];
  const listings = payees.get(getAddress(payee));
  const sold = ({ prices, upTo }: Asked) => (metered ? amount > 0n && amount <= upTo : prices.has(amount));
  return listings ? [...listings].filter(([, asked]) => sold(asked)).map(([id]) => id) : [];
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
    a.approved !== b.approved ? a.approved : a.at !== b.at ? a.at < b.at : a.approvedAt !== b.approvedAt ? a.approvedAt < b.approvedAt : a.id < b.id;
  const first = named.reduce((a, b) => (before(rank(b), rank(a)) ? b : a));
  return named.filter((t) => t === first || (first.ownerId !== null && t.ownerId === first.ownerId)).map((t) => t.listingId);
}
