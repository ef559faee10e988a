// Which wallets are whose: each listing's payees on one network, as its latest check read them (the
// payment-methods wallets and the payTo of x402-paid tools). A payment to a wallet cannot say which of several
// listings naming it was bought from, and any server can name any wallet: so a wallet's sales go to the listing that
// named it first and to that listing's owner's other listings naming it, never to a stranger's listing that names a
// popular seller's wallet to take its figures (an unowned import counts alone).
import { EVM_ADDRESS, findNetwork, type PaymentNetwork } from "@agora-mcp/protocol";
import { getAddress, type Address } from "viem";
import type { PaymentTerms } from "@/db/queries/sales";

/** Payee address (checksummed) → the listings paid there. */
export type Payees = Map<Address, string[]>;

export function payeesOn(network: PaymentNetwork, token: Address, terms: PaymentTerms[]): Payees {
  const payees: Payees = new Map();
  const byId = new Map(terms.map((t) => [t.listingId, t]));
  const add = (wallet: string | undefined, listingId: string) => {
    if (!wallet || !EVM_ADDRESS.test(wallet)) return;
    const address = getAddress(wallet);
    const list = payees.get(address) ?? [];
    if (!list.includes(listingId)) list.push(listingId);
    payees.set(address, list);
  };
  for (const t of terms) {
    for (const method of t.paymentMethods ?? []) {
      if (findNetwork(method.paymentMethod)?.caip2 === network.caip2) add(method.walletAddress, t.listingId);
    }
    for (const item of t.pricedItems ?? []) {
      const req = item.x402Requirements;
      if (req && findNetwork(req.network)?.caip2 === network.caip2 && EVM_ADDRESS.test(req.asset ?? "") && getAddress(req.asset) === token) add(req.payTo, t.listingId);
    }
  }
  for (const [address, listingIds] of payees) {
    if (listingIds.length > 1) payees.set(address, firstOwnersListings(listingIds.map((id) => byId.get(id)!)));
  }
  return payees;
}

/** Of the listings naming one wallet: the first listed, and its owner's other listings. */
function firstOwnersListings(named: PaymentTerms[]): string[] {
  const first = named.reduce((a, b) => (b.listedAt.getTime() < a.listedAt.getTime() || (b.listedAt.getTime() === a.listedAt.getTime() && b.listingId < a.listingId) ? b : a));
  return named.filter((t) => t === first || (first.ownerId !== null && t.ownerId === first.ownerId)).map((t) => t.listingId);
}
