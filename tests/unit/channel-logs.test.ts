import { describe, expect, it } from "vitest";
import {
  encodeAbiParameters,
  encodeEventTopics,
  encodeFunctionData,
  getAddress,
  type Address,
  type Hex,
  type Log,
} from "viem";
import { computeChannelId } from "@x402/evm/batch-settlement/client";
import { BATCH_SETTLEMENT_ABI } from "@/sandbox/chain";
import {
  CHANNEL_CONTRACT_ADDRESS,
  CHANNEL_EVENTS_ABI,
  channelSalesInLogs,
  channelsClaimedBy,
} from "@/lib/sales/channel-logs";
import { listingsSoldWithAsk, payeesOn } from "@/lib/sales/payees";
import { BASE_SEPOLIA } from "@agora-mcp/protocol";
import type { PaymentTerms } from "@/db/queries/sales";

const CHAIN_ID = 84532;
const token = getAddress(BASE_SEPOLIA.asset);
const other = getAddress("0x833589fcd6edb6e08f4c7c32d4f71b54bda02913");
const seller = getAddress("0x2222222222222222222222222222222222222222");
const authorizer = getAddress("0x4444444444444444444444444444444444444444");
const buyers = [
  getAddress("0x1111111111111111111111111111111111111111"),
  getAddress("0x5555555555555555555555555555555555555555"),
];
const tx = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as Hex;

const config = (payer: Address, receiver: Address = seller, asset: Address = token) => ({
  payer,
  payerAuthorizer: payer,
  receiver,
  receiverAuthorizer: authorizer,
  token: asset,
  withdrawDelay: 900,
  salt: tx(0),
});
type Config = ReturnType<typeof config>;
const claim = (c: Config, total: bigint) => ({
  voucher: { channel: c, maxClaimableAmount: total },
  signature: "0x" as Hex,
  totalClaimed: total,
});
const claimInput = (claims: ReturnType<typeof claim>[]) =>
  encodeFunctionData({ abi: BATCH_SETTLEMENT_ABI, functionName: "claimWithSignature", args: [claims, "0x"] });
const claimed = (
  txHash: Hex,
  logIndex: number,
  c: Config,
  total: bigint,
  delta: bigint,
  at: Address = CHANNEL_CONTRACT_ADDRESS,
): Log => ({
  address: at,
  topics: encodeEventTopics({
    abi: CHANNEL_EVENTS_ABI,
    eventName: "Claimed",
    args: { channelId: computeChannelId(c, CHAIN_ID), receiver: c.receiver },
  }) as [Hex, ...Hex[]],
  data: encodeAbiParameters([{ type: "uint128" }, { type: "uint128" }], [total, delta]),
  blockHash: tx(9999),
  blockNumber: 10n,
  logIndex,
  transactionHash: txHash,
  transactionIndex: 0,
  removed: false,
});

describe("channel sales", () => {
  it("pairs each Claimed with its channel's payer from the claim's input: one sale per buyer, at the claim's delta", () => {
    const [a, b] = [config(buyers[0]!), config(buyers[1]!)];
    const input = claimInput([claim(a, 50_000n), claim(b, 6_000n)]);
    const channels = new Map([[tx(1), channelsClaimedBy(input, CHAIN_ID)]]);
    const sales = channelSalesInLogs(
      [claimed(tx(1), 0, a, 50_000n, 50_000n), claimed(tx(1), 1, b, 6_000n, 3_000n)],
      token,
      channels,
    );
    expect(sales).toEqual([
      {
        txHash: tx(1),
        logIndex: 0,
        blockNumber: 10n,
        blockHash: tx(9999),
        payer: buyers[0],
        payee: seller,
        amount: 50_000n,
        kind: "channel",
      },
      {
        txHash: tx(1),
        logIndex: 1,
        blockNumber: 10n,
        blockHash: tx(9999),
        payer: buyers[1],
        payee: seller,
        amount: 3_000n,
        kind: "channel",
      },
    ]);
  });

  it("reads the claim inside a multicall (a claim beside a refund)", () => {
    const a = config(buyers[0]!);
    const inner = encodeFunctionData({
      abi: BATCH_SETTLEMENT_ABI,
      functionName: "claimWithSignature",
      args: [[claim(a, 2_000n)], "0x"],
    });
    const input = encodeFunctionData({ abi: BATCH_SETTLEMENT_ABI, functionName: "multicall", args: [[inner]] });
    expect([...channelsClaimedBy(input, CHAIN_ID).values()]).toEqual([{ payer: buyers[0], receiver: seller, token }]);
  });

  it("makes no sale of a Claimed it cannot pair, of another token, or of another contract", () => {
    const mine = config(buyers[0]!);
    const otherToken = config(buyers[1]!, seller, other);
    const channels = new Map([[tx(2), channelsClaimedBy(claimInput([claim(otherToken, 1_000n)]), CHAIN_ID)]]);
    const logs = [
      claimed(tx(2), 0, otherToken, 1_000n, 1_000n),
      // Its transaction's input did not claim this channel (or was not read).
      claimed(tx(2), 1, mine, 1_000n, 1_000n),
      claimed(tx(3), 0, mine, 1_000n, 1_000n),
      claimed(tx(2), 2, mine, 1_000n, 1_000n, other),
    ];
    expect(channelSalesInLogs(logs, token, channels)).toEqual([]);
    // An input that is not a claim names no channel.
    expect(
      channelsClaimedBy(
        encodeFunctionData({ abi: BATCH_SETTLEMENT_ABI, functionName: "settle", args: [seller, token] }),
        CHAIN_ID,
      ).size,
    ).toBe(0);
  });

  it("is a sale of a listing whose channel item's price divides it, with that price as what was asked", () => {
    const terms = {
      listingId: "l1",
      ownerId: null,
      approvedAt: new Date(0),
      approvedTerms: null,
      paymentMethods: [],
      pricedItems: [
        {
          name: "lookup",
          toolName: "lookup",
          amount: 0.001,
          units: "1000",
          currency: "USDC",
          x402Requirements: {
            scheme: "batch-settlement",
            network: BASE_SEPOLIA.caip2,
            asset: token,
            amount: "1000",
            payTo: seller,
            maxTimeoutSeconds: 60,
            extra: {},
          },
        },
      ],
    } as unknown as PaymentTerms;
    const payees = payeesOn(BASE_SEPOLIA, token, [terms]);
    expect(listingsSoldWithAsk(payees, seller, 50_000n, "channel")).toEqual([{ listingId: "l1", askedUnits: 1_000n }]);
    expect(listingsSoldWithAsk(payees, seller, 1_500n, "channel")).toEqual([]);
    // A channel's price is no exact price: one authorised transfer of it is not a sale of the channel item.
    expect(listingsSoldWithAsk(payees, seller, 1_000n, "exact")).toEqual([]);
  });
});
