// What counts as a sale on the chain. Every x402 "exact" payment on EVM settles as the token's
// `transferWithAuthorization` (EIP-3009), which emits `AuthorizationUsed(authorizer, nonce)` and then
// `Transfer(from, to, value)` in the same transaction. A sale is a Transfer paired with an authorization the
// same payer used just before it in that transaction; a plain `transfer` has no authorization and is not a sale.
// Pure (no RPC): the sales indexer feeds it `eth_getLogs` pages, a review or test purchase one receipt's logs.
import { getAddress, parseAbi, parseEventLogs, type Address, type Hex, type Log } from "viem";

export const SALE_EVENTS_ABI = parseAbi([
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
]);

export type SaleLog = {
  txHash: Hex;
  /** The Transfer's index in its block: with the hash, what makes a sale unique. */
  logIndex: number;
  blockNumber: bigint;
  blockHash: Hex;
  payer: Address;
  payee: Address;
  /** In the token's smallest unit. */
  amount: bigint;
};

/**
 * The sales in `logs` of `token` (checksummed addresses out). Logs may span many transactions and arrive in
 * any order; logs of other contracts and pending logs (no block yet) are ignored. Each authorization pairs with
 * at most one later Transfer from the same address in the same transaction.
 */
export function salesInLogs(logs: readonly Log[], token: Address): SaleLog[] {
  const tokenAddress = getAddress(token);
  const mine = logs.filter(
    (log) => log.blockNumber !== null && log.transactionHash !== null && log.logIndex !== null && log.blockHash !== null && getAddress(log.address) === tokenAddress,
  );
  // strict: false would accept logs whose topics do not match the event's indexed layout; a malformed log is skipped.
  const events = parseEventLogs({ abi: SALE_EVENTS_ABI, logs: mine as Log[], strict: true });
  const byTransaction = new Map<Hex, typeof events>();
  for (const event of events) {
    const list = byTransaction.get(event.transactionHash!) ?? [];
    list.push(event);
    byTransaction.set(event.transactionHash!, list);
  }
  const sales: SaleLog[] = [];
  for (const [txHash, list] of byTransaction) {
    list.sort((a, b) => a.logIndex! - b.logIndex!);
    const unused = new Map<Address, number>();
    for (const event of list) {
      if (event.eventName === "AuthorizationUsed") {
        const who = getAddress(event.args.authorizer);
        unused.set(who, (unused.get(who) ?? 0) + 1);
        continue;
      }
      const payer = getAddress(event.args.from);
      const open = unused.get(payer) ?? 0;
      if (open === 0) continue;
      unused.set(payer, open - 1);
      sales.push({
        txHash,
        logIndex: event.logIndex!,
        blockNumber: event.blockNumber!,
        blockHash: event.blockHash!,
        payer,
        payee: getAddress(event.args.to),
        amount: event.args.value,
      });
    }
  }
  return sales.sort((a, b) => (a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1));
}
