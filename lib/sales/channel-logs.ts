// What counts as a sale through a payment channel (x402's batch-settlement scheme). The buyer's deposit goes to the
// channel contract, not to the seller, and the contract's `settle` later pays the seller everything claimed for it in
// one transfer that names no buyer: neither is a sale. What says who paid whom how much is the claim: for each channel
// it claims, the contract emits `Claimed(channelId, receiver, totalClaimed, delta)`, `delta` being what this claim
// moved from that buyer to that receiver. The event names neither the payer nor the token; the claim's own call does
// (each voucher carries its channel's configuration), so the claim transaction's input is decoded, its channels'
// ids computed with x402's own `computeChannelId`, and each Claimed paired with its channel. A claim sent through
// another contract (its input is not a call of the channel contract) names no channel here and makes no sale.
// The Claimed event is the one the sandbox's channel contract emits: the ABI x402 publishes names only its `Settled`.
// Pure (no RPC): the indexer feeds it the Claimed logs and the inputs of their transactions.
import { BATCH_SETTLEMENT_ADDRESS } from "@x402/evm";
import { computeChannelId } from "@x402/evm/batch-settlement/client";
import { decodeFunctionData, getAddress, parseAbi, parseEventLogs, type Address, type Hex, type Log } from "viem";
import type { SaleLog } from "./sale-logs";

/** Where x402 deploys its channel contract (the same address on every chain). */
export const CHANNEL_CONTRACT_ADDRESS = getAddress(BATCH_SETTLEMENT_ADDRESS);

export const CHANNEL_EVENTS_ABI = parseAbi([
  "event Claimed(bytes32 indexed channelId, address indexed receiver, uint128 totalClaimed, uint128 delta)",
]);

/** The channel contract's calls that claim vouchers, as x402's EVM package calls them. */
const CLAIM_CALLS_ABI = parseAbi([
  "struct ChannelConfig { address payer; address payerAuthorizer; address receiver; address receiverAuthorizer; address token; uint40 withdrawDelay; bytes32 salt; }",
  "struct Voucher { ChannelConfig channel; uint128 maxClaimableAmount; }",
  "struct VoucherClaim { Voucher voucher; bytes signature; uint128 totalClaimed; }",
  "function claim(VoucherClaim[] voucherClaims)",
  "function claimWithSignature(VoucherClaim[] voucherClaims, bytes authorizerSignature)",
  "function multicall(bytes[] data)",
]);

/** A claimed channel's parties: who paid, to whom, in which token (checksummed). */
export type ClaimedChannel = { payer: Address; receiver: Address; token: Address };

/**
 * The channels a transaction's input claims, by channel id (lower case), on chain `chainId`: the voucher claims of
 * `claim` and `claimWithSignature`, also inside `multicall` (a claim beside a refund). Anything else names none.
 */
export function channelsClaimedBy(input: Hex, chainId: number): Map<string, ClaimedChannel> {
  const channels = new Map<string, ClaimedChannel>();
  const read = (data: Hex, depth: number) => {
    let call;
    try {
      call = decodeFunctionData({ abi: CLAIM_CALLS_ABI, data });
    } catch {
      return;
    }
    if (call.functionName === "multicall") {
      // One level: the contract's multicall runs its own calls, never another multicall that matters here.
      if (depth === 0) for (const inner of call.args[0]) read(inner, 1);
      return;
    }
    for (const { voucher } of call.args[0]) {
      const config = voucher.channel;
      const id = computeChannelId({ ...config, withdrawDelay: Number(config.withdrawDelay) }, chainId).toLowerCase();
      channels.set(id, {
        payer: getAddress(config.payer),
        receiver: getAddress(config.receiver),
        token: getAddress(config.token),
      });
    }
  };
  read(input, 0);
  return channels;
}

/**
 * The channel sales in `logs` (the contract's Claimed logs; others are ignored), paid in `token`: one per Claimed,
 * its amount the claim's delta, its payer the channel's. `claimed` maps a transaction hash (lower case) to the
 * channels its input claims; a Claimed whose channel is not there, or is of another token or receiver, is no sale.
 */
export function channelSalesInLogs(
  logs: readonly Log[],
  token: Address,
  claimed: Map<string, Map<string, ClaimedChannel>>,
): SaleLog[] {
  const tokenAddress = getAddress(token);
  const mined = logs.filter(
    (log) =>
      log.blockNumber !== null &&
      log.transactionHash !== null &&
      log.logIndex !== null &&
      log.blockHash !== null &&
      getAddress(log.address) === CHANNEL_CONTRACT_ADDRESS,
  );
  const sales: SaleLog[] = [];
  for (const event of parseEventLogs({ abi: CHANNEL_EVENTS_ABI, logs: mined as Log[], strict: true })) {
    const channel = claimed.get(event.transactionHash!.toLowerCase())?.get(event.args.channelId.toLowerCase());
    const receiver = getAddress(event.args.receiver);
    if (!channel || channel.token !== tokenAddress || channel.receiver !== receiver || event.args.delta === 0n)
      continue;
    sales.push({
      txHash: event.transactionHash!,
      logIndex: event.logIndex!,
      blockNumber: event.blockNumber!,
      blockHash: event.blockHash!,
      payer: channel.payer,
      payee: receiver,
      amount: event.args.delta,
      kind: "channel",
    });
  }
  return sales.sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
}
