// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).
// The sandbox's channel contract on its own, called directly (no kit, no facilitator's checks in between): a claim is
// paid only as far as the payer signed and the deposit holds, only with the receiver's authorizer's signature, and a
// refund never returns what was claimed. A channel is opened by x402's own client and facilitator (a real deposit).
import { createPublicClient, createTestClient, createWalletClient, http, parseEther, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { baseSepolia } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BATCH_SETTLEMENT_DOMAIN, claimBatchTypes, refundTypes, toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/client";
import { HTTPFacilitatorClient } from "@x402/core/http";
import { BASE_SEPOLIA } from "@agora-mcp/protocol";
import { ANVIL_TEST_KEYS, BATCH_SETTLEMENT_ABI, BATCH_SETTLEMENT_ADDRESS, USDC_ADDRESS } from "@/sandbox/chain";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";

let stack: PaymentStack;
const authorizer = privateKeyToAccount(ANVIL_TEST_KEYS.facilitator);
const domain = {
  ...BATCH_SETTLEMENT_DOMAIN,
  chainId: BASE_SEPOLIA.chainId,
  verifyingContract: BATCH_SETTLEMENT_ADDRESS,
} as const;

beforeAll(async () => {
  stack = await startPaymentStack();
  await createTestClient({ chain: baseSepolia, mode: "anvil", transport: http(stack.chain.rpcUrl) }).setBalance({
    address: senderAccount.address,
    value: parseEther("1"),
  });
}, 60_000);
afterAll(async () => stack?.stop());

/** A channel of `deposit` units from a fresh buyer to a fresh receiver, opened on chain through the facilitator. */
async function openChannel(deposit: bigint) {
  const key = generatePrivateKey();
  const payer = privateKeyToAccount(key);
  await stack.chain.mintUsdc(payer.address, 1_000_000n);
  const receiver = stack.freshAddress();
  const reader = createPublicClient({ chain: baseSepolia, transport: http(stack.chain.rpcUrl) });
  const requirements = {
    scheme: "batch-settlement",
    network: BASE_SEPOLIA.caip2,
    asset: USDC_ADDRESS,
    amount: "1000",
    payTo: receiver,
    maxTimeoutSeconds: 300,
    extra: { name: "USDC", version: "2", receiverAuthorizer: authorizer.address, withdrawDelay: 900 },
  };
  const scheme = new BatchSettlementEvmScheme(toClientEvmSigner(payer, reader as never), {
    depositStrategy: () => deposit.toString(),
  });
  const signed = await scheme.createPaymentPayload(2, requirements as never);
  const payload = { x402Version: 2, accepted: requirements, payload: signed.payload };
  const settled = await new HTTPFacilitatorClient({ url: stack.facilitator.url }).settle(
    payload as never,
    requirements as never,
  );
  expect(settled.success).toBe(true);
  const config = scheme.buildChannelConfig(requirements as never);
  const channelId = (signed.payload as { voucher: { channelId: Hex } }).voucher.channelId;
  const voucher = (max: bigint) =>
    payer.signTypedData({
      domain,
      types: {
        Voucher: [
          { name: "channelId", type: "bytes32" },
          { name: "maxClaimableAmount", type: "uint128" },
        ],
      },
      primaryType: "Voucher",
      message: { channelId, maxClaimableAmount: max },
    });
  return { payer, receiver, config, channelId, voucher, reader };
}

/** Anyone may send a claim or a settle: an account of its own, so the facilitator's nonces are never taken. */
const senderAccount = privateKeyToAccount(generatePrivateKey());
const sender = () =>
  createWalletClient({ account: senderAccount, chain: baseSepolia, transport: http(stack.chain.rpcUrl) });

async function claim(channel: Awaited<ReturnType<typeof openChannel>>, max: bigint, total: bigint, signature?: Hex) {
  const claims = [
    {
      voucher: { channel: channel.config, maxClaimableAmount: max },
      signature: signature ?? (await channel.voucher(max)),
      totalClaimed: total,
    },
  ];
  const authorizerSignature = await authorizer.signTypedData({
    domain,
    types: claimBatchTypes,
    primaryType: "ClaimBatch",
    message: { claims: [{ channelId: channel.channelId, maxClaimableAmount: max, totalClaimed: total }] },
  });
  return channel.reader.simulateContract({
    account: senderAccount,
    address: BATCH_SETTLEMENT_ADDRESS,
    abi: BATCH_SETTLEMENT_ABI,
    functionName: "claimWithSignature",
    args: [claims, authorizerSignature],
  });
}

describe("the sandbox's channel contract", () => {
  it("claims as far as the payer signed and the deposit holds, and never further", async () => {
    const channel = await openChannel(3_000n);
    await expect(claim(channel, 4_000n, 4_000n)).rejects.toThrow(/ClaimExceedsBalance/);
    await expect(claim(channel, 2_000n, 3_000n)).rejects.toThrow(/ClaimExceedsVoucher/);
    const forged = await privateKeyToAccount(generatePrivateKey()).signTypedData({
      domain,
      types: {
        Voucher: [
          { name: "channelId", type: "bytes32" },
          { name: "maxClaimableAmount", type: "uint128" },
        ],
      },
      primaryType: "Voucher",
      message: { channelId: channel.channelId, maxClaimableAmount: 2_000n },
    });
    await expect(claim(channel, 2_000n, 2_000n, forged)).rejects.toThrow(/InvalidVoucherSignature/);
    const { request } = await claim(channel, 2_000n, 2_000n);
    await channel.reader.waitForTransactionReceipt({
      hash: await sender().writeContract(request),
      pollingInterval: 100,
    });
    // A lower total is refused; settling pays the receiver what was claimed, once.
    await expect(claim(channel, 1_000n, 1_000n)).rejects.toThrow(/ClaimBelowClaimed/);
    const settle = () =>
      sender().writeContract({
        address: BATCH_SETTLEMENT_ADDRESS,
        abi: BATCH_SETTLEMENT_ABI,
        functionName: "settle",
        args: [channel.receiver, USDC_ADDRESS],
      });
    await channel.reader.waitForTransactionReceipt({ hash: await settle(), pollingInterval: 100 });
    await channel.reader.waitForTransactionReceipt({ hash: await settle(), pollingInterval: 100 });
    expect(await stack.chain.usdcBalance(channel.receiver)).toBe(2_000n);
  });

  it("refunds only what was never claimed, with the receiver's authorizer's signature", async () => {
    const channel = await openChannel(3_000n);
    const { request } = await claim(channel, 1_000n, 1_000n);
    await channel.reader.waitForTransactionReceipt({
      hash: await sender().writeContract(request),
      pollingInterval: 100,
    });
    const refundSignature = (signer: typeof authorizer, amount: bigint) =>
      signer.signTypedData({
        domain,
        types: refundTypes,
        primaryType: "Refund",
        message: { channelId: channel.channelId, nonce: 0n, amount },
      });
    const refund = async (signature: Hex, amount: bigint) =>
      channel.reader.simulateContract({
        account: senderAccount,
        address: BATCH_SETTLEMENT_ADDRESS,
        abi: BATCH_SETTLEMENT_ABI,
        functionName: "refundWithSignature",
        args: [channel.config, amount, 0n, signature],
      });
    await expect(
      refund(await refundSignature(privateKeyToAccount(generatePrivateKey()), 3_000n), 3_000n),
    ).rejects.toThrow(/InvalidAuthorizerSignature/);
    const before = await stack.chain.usdcBalance(channel.payer.address);
    const { request: refunding } = await refund(await refundSignature(authorizer, 3_000n), 3_000n);
    await channel.reader.waitForTransactionReceipt({
      hash: await sender().writeContract(refunding),
      pollingInterval: 100,
    });
    // Asked for all 3000, the payer gets the 2000 never claimed; the claimed 1000 stays for the receiver.
    expect((await stack.chain.usdcBalance(channel.payer.address)) - before).toBe(2_000n);
    expect(
      await channel.reader.readContract({
        address: BATCH_SETTLEMENT_ADDRESS,
        abi: BATCH_SETTLEMENT_ABI,
        functionName: "channels",
        args: [channel.channelId],
      }),
    ).toEqual([1_000n, 1_000n]);
  });
});
