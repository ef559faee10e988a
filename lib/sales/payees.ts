// Which wallets are whose: each listing's payees on one network, as its latest check read them (the
// payment-methods wallets and the payTo of x402-paid tools). A wallet several listings name counts for each.
import { EVM_ADDRESS, findNetwork, type PaymentNetwork } from "@agora-mcp/protocol";
import { getAddress, type Address } from "viem";
import type { PaymentTerms } from "@/db/queries/sales";

/** Payee address (checksummed) → the listings paid there. */
export type Payees = Map<Address, string[]>;

export function payeesOn(network: PaymentNetwork, token: Address, terms: PaymentTerms[]): Payees {
  const payees: Payees = new Map();
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
  return payees;
}
