// What counts as a sale on the chain. Every x402 "exact" payment on EVM settles as the token's
// `transferWithAuthorization` (EIP-3009), which emits `AuthorizationUsed(authorizer, nonce)` and then
// `Transfer(from, to, value)` in the same transaction. A sale is a Transfer paired with an authorization the
// same payer used just before it in that transaction; a plain `transfer` has no authorization and is not a sale.
// An x402 "upto" (metered) payment settles through x402's upto proxy, which moves the token with Permit2 and then
// emits `Settled()` (or `SettledWithPermit()`): a Transfer followed in its transaction by such an event of the proxy
// is a metered sale (`metered`), whatever amount up to the signed maximum it moved.
// Pure (no RPC): the sales indexer feeds it `eth_getLogs` pages, a review or test purchase one receipt's logs.
import { x402UptoPermit2ProxyAddress } from "@x402/evm";
import { getAddress, parseAbi, parseEventLogs, type Address, type Hex, type Log } from "viem";
import type { SaleKind } from "@/db/queries/sales";

export const SALE_EVENTS_ABI = parseAbi([
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
]);

/** What x402's upto proxy emits after each settlement it made. */
export const UPTO_SETTLE_EVENTS_ABI = parseAbi(["event Settled()", "event SettledWithPermit()"]);
/** Where x402 deploys its upto proxy (the same address on every chain). */
export const UPTO_PROXY_ADDRESS = getAddress(x402UptoPermit2ProxyAddress);

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
  /**
   * `exact`: one call at its price; `metered`: settled through x402's upto proxy, what a call used up to its maximum;
   * `channel`: a payment channel's claim, what the buyer's calls since the last claim cost (lib/sales/channel-logs.ts).
   */
  kind: SaleKind;
};

/**
 * The sales in `logs` of `token` (checksummed addresses out). Logs may span many transactions and arrive in
 * any order; logs of other contracts and pending logs (no block yet) are ignored. Each authorization pairs with
 * at most one later Transfer from the same address in the same transaction.
 */
export function salesInLogs(logs: readonly Log[], token: Address): SaleLog[] {
  const tokenAddress = getAddress(token);
  const mined = logs.filter(
    (log) =>
      log.blockNumber !== null && log.transactionHash !== null && log.logIndex !== null && log.blockHash !== null,
  );
  const mine = mined.filter((log) => getAddress(log.address) === tokenAddress);
  const fromProxy = mined.filter((log) => getAddress(log.address) === UPTO_PROXY_ADDRESS);
  // strict: false would accept logs whose topics do not match the event's indexed layout; a malformed log is skipped.
  const events = [
    ...parseEventLogs({ abi: SALE_EVENTS_ABI, logs: mine as Log[], strict: true }),
    ...parseEventLogs({ abi: UPTO_SETTLE_EVENTS_ABI, logs: fromProxy as Log[], strict: true }),
  ];
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
    // Transfers no authorization paired: the next settlement event of the upto proxy in the transaction claims the
    // latest of them (Permit2's transfer happens inside the proxy's settle, before its event).
    const unpaired: (typeof list)[number][] = [];
    const sale = (event: (typeof list)[number], kind: SaleKind) => {
      if (event.eventName !== "Transfer") return;
      sales.push({
        txHash,
        logIndex: event.logIndex!,
        blockNumber: event.blockNumber!,
        blockHash: event.blockHash!,
        payer: getAddress(event.args.from),
        payee: getAddress(event.args.to),
        amount: event.args.value,
        kind,
      });
    };
    for (const event of list) {
      if (event.eventName === "AuthorizationUsed") {
        const who = getAddress(event.args.authorizer);
        unused.set(who, (unused.get(who) ?? 0) + 1);
        continue;
      }
      if (event.eventName === "Settled" || event.eventName === "SettledWithPermit") {
        const transfer = unpaired.pop();
        if (transfer) sale(transfer, "metered");
        continue;
      }
      const payer = getAddress(event.args.from);
      const open = unused.get(payer) ?? 0;
      if (open === 0) {
        unpaired.push(event);
        continue;
      }
      unused.set(payer, open - 1);
      sale(event, "exact");
    }
  }
  return sales.sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
}
