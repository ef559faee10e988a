// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).
// Payment channels (x402's batch-settlement scheme) sold by a kit server on a real chain: the buyer deposits once, pays
// each call with a voucher, and the kit claims the vouchers in one transaction and settles them to its wallet. Balances
// and transactions are read from the local chain: fifty calls through one channel are paid with one deposit, one claim
// and one settle (the claim and the settle are the only settlement transactions); a replayed voucher and one past the
// deposit are refused; a channel refunded (closed) mid-call delivers nothing more.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPublicClient, decodeFunctionData, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { baseSepolia } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toClientEvmSigner } from "@x402/evm";
import { computeChannelId, signVoucher } from "@x402/evm/batch-settlement/client";
import type { Client } from "@modelcontextprotocol/client";
import { X402_PAYMENT_META, X402_PAYMENT_RESPONSE_META, readPaymentRequired } from "@agora-mcp/protocol";
import { BATCH_SETTLEMENT_ABI, BATCH_SETTLEMENT_ADDRESS, USDC_ADDRESS } from "@/sandbox/chain";
import { createMonetizedServer, type PurchaseEvent } from "@agora-mcp/server";
import {
  chainReader,
  closeChannel,
  Confirmations,
  Ledger,
  loadSettings,
  purchase,
  walletFromKey,
  type PurchaseDeps,
} from "@agora-mcp/client";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";
import { connect } from "../support/upto-buyer";
import { channelBuyer, type ChannelBuyer } from "../support/channel-buyer";

const PRICE = 1_000n; // $0.001 a call
let stack: PaymentStack;
let url: string;
let payTo: `0x${string}`;
let kit: ReturnType<typeof createMonetizedServer>;
const events: PurchaseEvent[] = [];
const logs: string[] = [];
const closing: (() => Promise<void>)[] = [];
let handled = 0;
/** A call of "slow" waits for this: a test closes the channel while the call runs. */
let slowCall: Promise<void> = Promise.resolve();

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
        handler: async ({ word }) => {
          if (word === "fail") throw new Error("the dictionary is down");
          if (word === "slow") await slowCall;
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
      if (tx.to?.toLowerCase() === BATCH_SETTLEMENT_ADDRESS.toLowerCase())
        calls.push(decodeFunctionData({ abi: BATCH_SETTLEMENT_ABI, data: tx.input }).functionName);
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
      expect(required.accepts[0]).toMatchObject({
        scheme: "batch-settlement",
        amount: "1000",
        payTo,
        extra: { receiverAuthorizer: stack.facilitator.address, minDeposit: "10000" },
      });
      // make-purchase's payments are for one call at a time: it names the tool instead.
      const viaMakePurchase = await client.callTool({
        name: "make-purchase",
        arguments: {
          itemId: "lookup",
          params: { word: "x" },
          signedTransaction: "x",
          paymentMethod: "USDC_BASE_SEPOLIA",
        },
      });
      expect(viaMakePurchase.isError).toBe(true);
      expect(JSON.stringify(viaMakePurchase.content)).toMatch(
        /is sold through payment channels \(\$0\.001 a call\): buy it through its own tool lookup.*Nothing was charged\./,
      );
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
    const receiver = (await reader().readContract({
      address: BATCH_SETTLEMENT_ADDRESS,
      abi: BATCH_SETTLEMENT_ABI,
      functionName: "receivers",
      args: [payTo, USDC_ADDRESS],
    })) as readonly [bigint, bigint];
    expect(receiver).toEqual([50n * PRICE, 50n * PRICE]);
  }, 120_000);

  it("claims the vouchers of several buyers' channels in one transaction", async () => {
    await kit.claimChannels();
    const buyers = [
      channelBuyer(await funded(1_000_000n), stack.chain.rpcUrl, 10_000n),
      channelBuyer(await funded(1_000_000n), stack.chain.rpcUrl, 10_000n),
    ];
    const sellerBefore = await stack.chain.usdcBalance(payTo);
    const client = await connect(url);
    try {
      // Both buyers' calls interleaved, on one connection.
      for (let i = 0; i < 3; i++) {
        for (const buyer of buyers) {
          const { payment } = await buyer.sign(client, "lookup", { word: `b${i}` });
          expect((await buyer.call(client, "lookup", { word: `b${i}` }, payment)).isError).toBeFalsy();
        }
      }
    } finally {
      await client.close();
    }
    const start = (await reader().getBlockNumber()) + 1n;
    await kit.claimChannels();
    expect(await channelTransactions(start)).toEqual(["claimWithSignature", "settle"]);
    expect((await stack.chain.usdcBalance(payTo)) - sellerBefore).toBe(6n * PRICE);
    expect(logs.some((line) => /channels: claimed 2 voucher\(s\)/.test(line))).toBe(true);
  }, 60_000);

  it("a failed call costs nothing, and the same voucher twice delivers once", async () => {
    const key = await funded(1_000_000n);
    const buyer = channelBuyer(key, stack.chain.rpcUrl, 10_000n);
    const client = await connect(url);
    try {
      const opened = await buyer.sign(client, "lookup", { word: "open" });
      expect((await buyer.call(client, "lookup", { word: "open" }, opened.payment)).isError).toBeFalsy();
      // A failed handler: the voucher is released, not counted; the buyer's next voucher is the same total again.
      const failing = await buyer.sign(client, "lookup", { word: "fail" });
      const failed = await buyer.call(client, "lookup", { word: "fail" }, failing.payment);
      expect(failed.isError).toBe(true);
      expect(JSON.stringify(failed.content)).toContain("You were not charged");
      const next = await buyer.sign(client, "lookup", { word: "twice" });
      expect((next.payment.payload as { voucher: { maxClaimableAmount: string } }).voucher.maxClaimableAmount).toBe(
        "2000",
      );
      const before = handled;
      expect((await buyer.call(client, "lookup", { word: "twice" }, next.payment)).isError).toBeFalsy();
      // The same voucher again: refused under x402's own code, with the channel's state for a buyer whose count is stale.
      const replayed = await client.callTool({
        name: "lookup",
        arguments: { word: "twice" },
        _meta: { [X402_PAYMENT_META]: next.payment },
      });
      expect(replayed.isError).toBe(true);
      const required = readPaymentRequired(replayed);
      expect(required?.error).toBe("invalid_batch_settlement_evm_cumulative_amount_mismatch");
      expect(required?.accepts[0]?.extra).toMatchObject({ channelState: { chargedCumulativeAmount: "2000" } });
      expect(handled - before).toBe(1);
    } finally {
      await client.close();
    }
    await kit.claimChannels();
    // Two delivered calls were claimed; the failed one and the replay moved nothing.
    expect(await channelBalance(buyer)).toEqual([10_000n, 2_000n]);
  }, 60_000);

  it("refuses a voucher past the channel's deposit", async () => {
    const key = await funded(1_000_000n);
    const buyer = channelBuyer(key, stack.chain.rpcUrl, 3_000n);
    const client = await connect(url);
    try {
      for (const word of ["a", "b", "c"]) {
        const { payment } = await buyer.sign(client, "lookup", { word });
        expect((await buyer.call(client, "lookup", { word }, payment)).isError).toBeFalsy();
      }
      // A fourth call signed by hand, with no top-up: its running total (4000) passes the 3000 deposited.
      const offer = (await askFor(client)).accepts[0]!;
      const config = buyer.scheme.buildChannelConfig(offer as never);
      const channelId = computeChannelId(config, offer.network);
      const signer = toClientEvmSigner(privateKeyToAccount(key), reader() as never);
      const voucher = await signVoucher(signer, channelId, "4000", offer.network);
      const before = handled;
      const past = await client.callTool({
        name: "lookup",
        arguments: { word: "d" },
        _meta: {
          [X402_PAYMENT_META]: {
            x402Version: 2,
            accepted: offer,
            payload: { type: "voucher", channelConfig: config, voucher },
          },
        },
      });
      expect(past.isError).toBe(true);
      expect(readPaymentRequired(past)?.error).toContain("more than the channel's deposit");
      expect(handled).toBe(before);
    } finally {
      await client.close();
    }
    await kit.claimChannels();
    expect(await channelBalance(buyer)).toEqual([3_000n, 3_000n]);
  }, 60_000);

  it("a channel closed while a call runs: the close waits for the call, which is claimed; the rest goes back", async () => {
    const key = await funded(1_000_000n);
    const buyer = channelBuyer(key, stack.chain.rpcUrl, 10_000n);
    const sellerBefore = await stack.chain.usdcBalance(payTo);
    const client = await connect(url);
    const closer = await connect(url);
    try {
      const first = await buyer.sign(client, "lookup", { word: "first" });
      expect((await buyer.call(client, "lookup", { word: "first" }, first.payment)).isError).toBeFalsy();
      let finish!: () => void;
      slowCall = new Promise((resolve) => (finish = resolve));
      const slow = await buyer.sign(client, "lookup", { word: "slow" });
      const running = buyer.call(client, "lookup", { word: "slow" }, slow.payment);
      await new Promise((r) => setTimeout(r, 200));
      // The buyer asks to close the channel mid-call: refused while the call holds the channel.
      const busy = await closer.callTool({
        name: "lookup",
        arguments: { word: "close" },
        _meta: { [X402_PAYMENT_META]: await refundPayment(buyer, key, closer, "1000") },
      });
      expect(busy.isError).toBe(true);
      expect(JSON.stringify(busy.content)).toContain("not closed");
      finish();
      expect((await running).isError).toBeFalsy();
      // Now it closes: both delivered calls are claimed in the refund's transaction, the rest goes back.
      const buyerBefore = await stack.chain.usdcBalance(buyer.address);
      const closed = await closer.callTool({
        name: "lookup",
        arguments: { word: "close" },
        _meta: { [X402_PAYMENT_META]: await refundPayment(buyer, key, closer, "2000") },
      });
      expect(closed.isError, JSON.stringify(closed.content)).toBeFalsy();
      expect(closed._meta?.[X402_PAYMENT_RESPONSE_META]).toMatchObject({ success: true, amount: "8000" });
      expect((await stack.chain.usdcBalance(buyer.address)) - buyerBefore).toBe(8_000n);
      // A voucher on the closed channel delivers nothing.
      const config = buyer.scheme.buildChannelConfig(slow.payment.accepted as never);
      const offer = slow.payment.accepted as { network: string };
      const signer = toClientEvmSigner(privateKeyToAccount(key), reader() as never);
      const voucher = await signVoucher(signer, computeChannelId(config, offer.network), "3000", offer.network);
      const late = await client.callTool({
        name: "lookup",
        arguments: { word: "late" },
        _meta: {
          [X402_PAYMENT_META]: {
            x402Version: 2,
            accepted: slow.payment.accepted,
            payload: { type: "voucher", channelConfig: config, voucher },
          },
        },
      });
      expect(late.isError).toBe(true);
    } finally {
      slowCall = Promise.resolve();
      await client.close();
      await closer.close();
    }
    // The refund's claim is paid to the seller by the settle that follows it (queued before this claim).
    await kit.claimChannels();
    expect((await stack.chain.usdcBalance(payTo)) - sellerBefore).toBe(2_000n);
  }, 60_000);
});

/** The unpaid ask of the lookup tool. */
async function askFor(client: Client) {
  const required = readPaymentRequired(await client.callTool({ name: "lookup", arguments: { word: "x" } }));
  if (!required) throw new Error("lookup did not ask for payment");
  return required;
}

/** A cooperative refund of the buyer's channel: a voucher for what was charged so far, and no call. */
async function refundPayment(buyer: ChannelBuyer, key: `0x${string}`, client: Client, charged: string) {
  const offer = (await askFor(client)).accepts[0]!;
  const config = buyer.scheme.buildChannelConfig(offer as never);
  const signer = toClientEvmSigner(privateKeyToAccount(key), reader() as never);
  const voucher = await signVoucher(signer, computeChannelId(config, offer.network), charged, offer.network);
  return { x402Version: 2, accepted: offer, payload: { type: "refund", channelConfig: config, voucher } };
}

/** A buyer's channel on chain: [balance, totalClaimed]. */
async function channelBalance(buyer: ChannelBuyer) {
  const client = await connect(url);
  const offer = (await askFor(client).finally(() => client.close())).accepts[0]!;
  const channelId = computeChannelId(buyer.scheme.buildChannelConfig(offer as never), offer.network);
  return (await reader().readContract({
    address: BATCH_SETTLEMENT_ADDRESS,
    abi: BATCH_SETTLEMENT_ABI,
    functionName: "channels",
    args: [channelId],
  })) as readonly [bigint, bigint];
}

/** The agent wallet with $1 of USDC and no ETH, asking the person through confirmation ids when told to. */
async function wallet(env: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-channel-"));
  closing.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  const key = generatePrivateKey();
  const address = privateKeyToAccount(key).address;
  await stack.chain.mintUsdc(address, 1_000_000n);
  const settings = loadSettings({
    AGORA_WALLET_FILE: path.join(dir, "wallet.json"),
    ENABLE_UNSAFE_DIRECT_ACCESS: "true",
    ENABLE_REQUEST_ELICITATION: "false",
    AGORA_RPC_URL: stack.chain.rpcUrl,
    ...env,
  });
  const ledger = new Ledger(path.join(dir, "ledger.jsonl"));
  const deps: PurchaseDeps = {
    settings,
    wallet: walletFromKey(key),
    ledger,
    chain: chainReader(settings.network, settings.rpcUrl),
    confirmations: new Confirmations(),
    asker: { kind: "confirmation-id" },
  };
  return { deps, ledger, address, dir };
}

describe("the agent wallet on a channel item", () => {
  it("asks once for the deposit and the per-call price, pays later calls with vouchers, and counts each call", async () => {
    const { deps, ledger, address, dir } = await wallet({
      ENABLE_REQUEST_ELICITATION: "true",
      ELICITATION_THRESHOLD: "0",
    });
    const buy = (word: string, confirmationId?: string) =>
      purchase({ server: url, item: "lookup", params: { word }, ...(confirmationId ? { confirmationId } : {}) }, deps);
    const asked = await buy("one");
    expect(asked).toMatchObject({ status: "confirmation-required", signed: false });
    expect(asked.message).toMatch(
      /^Confirmation required: Open a payment channel with .*: deposit \$0\.01 USDC on .* for "Lookup" at \$0\.001 per call \(about 10 calls\)\? Each call is then paid from the channel without asking again/,
    );
    const first = await buy("one", asked.confirmationId);
    expect(first).toMatchObject({
      status: "delivered",
      code: "delivered",
      priceUsd: "$0.001",
      result: "Looked up one",
    });
    expect(first.message).toMatch(
      /opened with a deposit of \$0\.01 \(transaction 0x[0-9a-f]{64}\)\. The channel holds \$0\.009 more\.$/,
    );
    expect(await stack.chain.usdcBalance(address)).toBe(1_000_000n - 10_000n);
    // Later calls ask nothing and move nothing on chain until the server claims.
    for (const word of ["two", "three"])
      expect(await buy(word)).toMatchObject({ status: "delivered", priceUsd: "$0.001", signed: true });
    expect(await stack.chain.usdcBalance(address)).toBe(1_000_000n - 10_000n);
    const paid = ledger.attempts().filter((a) => a.status === "paid");
    expect(paid.map((a) => a.units)).toEqual(["1000", "1000", "1000"]);
    // The channel's state lives beside the wallet's ledger.
    expect(fs.readdirSync(path.join(dir, "channels-base-sepolia", "client"))).toHaveLength(1);
    await kit.claimChannels();
  }, 60_000);

  it("resyncs a stale count from the server's refusal, and the next purchase pays", async () => {
    const { deps, dir } = await wallet();
    const buy = (word: string) => purchase({ server: url, item: "lookup", params: { word } }, deps);
    expect(await buy("one")).toMatchObject({ status: "delivered" });
    const folder = path.join(dir, "channels-base-sepolia", "client");
    const [file] = fs.readdirSync(folder);
    const afterOne = fs.readFileSync(path.join(folder, file!), "utf8");
    expect(await buy("two")).toMatchObject({ status: "delivered" });
    // The wallet loses the second call's answer (its count goes back one call): its next voucher is stale.
    fs.writeFileSync(path.join(folder, file!), afterOne);
    const stale = await buy("three");
    expect(stale).toMatchObject({ status: "failed", code: "payment_refused", signed: true });
    // x402's client took the server's count from its refusal, after checking the voucher it quotes is this wallet's.
    expect(JSON.parse(fs.readFileSync(path.join(folder, file!), "utf8"))).toMatchObject({
      chargedCumulativeAmount: "2000",
    });
    expect(await buy("three")).toMatchObject({ status: "delivered" });
  }, 60_000);

  it("tops the channel up when a call needs more than it holds, asking again for the new deposit", async () => {
    const { deps, address } = await wallet({ ENABLE_REQUEST_ELICITATION: "true", ELICITATION_THRESHOLD: "0.005" });
    const buy = (word: string, confirmationId?: string) =>
      purchase({ server: url, item: "lookup", params: { word }, ...(confirmationId ? { confirmationId } : {}) }, deps);
    const asked = await buy("w0");
    expect(await buy("w0", asked.confirmationId)).toMatchObject({ status: "delivered" });
    for (let i = 1; i < 10; i++) expect(await buy(`w${i}`)).toMatchObject({ status: "delivered" });
    const topUp = await buy("w10");
    expect(topUp).toMatchObject({ status: "confirmation-required", signed: false });
    expect(topUp.message).toMatch(/Top up your payment channel with .* by \$0\.01 USDC/);
    const topped = await buy("w10", topUp.confirmationId);
    expect(topped.message).toMatch(/topped up with a deposit of \$0\.01 .* The channel holds \$0\.009 more\.$/);
    expect(await stack.chain.usdcBalance(address)).toBe(1_000_000n - 20_000n);
  }, 60_000);

  it("counts each call against the day's budget as it is paid: the channel holds no more than the budget allows", async () => {
    // A $0.002 day: the channel's deposit is held to the budget (maxPerPurchase falls to it), two calls pass, a third is
    // refused by the budget before anything is signed.
    const { deps, address } = await wallet({ AGORA_DAILY_CAP: "0.002" });
    const buy = (word: string) => purchase({ server: url, item: "lookup", params: { word } }, deps);
    expect(await buy("a")).toMatchObject({ status: "delivered", priceUsd: "$0.001" });
    expect(await stack.chain.usdcBalance(address)).toBe(1_000_000n - 2_000n);
    expect(await buy("b")).toMatchObject({ status: "delivered", priceUsd: "$0.001" });
    expect(await buy("c")).toMatchObject({
      status: "refused",
      code: "policy_rule",
      rule: "budgets.day",
      signed: false,
    });
  }, 60_000);

  it("closes its channel: the rest of the deposit comes back, the calls paid go to the seller", async () => {
    const { deps, address } = await wallet();
    // Earlier tests' vouchers are claimed first: the seller's balance then moves by this channel's calls only.
    await kit.claimChannels();
    const sellerBefore = await stack.chain.usdcBalance(payTo);
    for (const word of ["one", "two"])
      expect(await purchase({ server: url, item: "lookup", params: { word } }, deps)).toMatchObject({
        status: "delivered",
      });
    const closed = await closeChannel({ server: url, item: "lookup", params: { word: "close" } }, deps);
    expect(closed).toMatchObject({ status: "closed", refundedUsd: "$0.008" });
    expect(await stack.chain.usdcBalance(address)).toBe(1_000_000n - 2_000n);
    await kit.claimChannels();
    expect((await stack.chain.usdcBalance(payTo)) - sellerBefore).toBe(2_000n);
    expect(await closeChannel({ server: url, item: "lookup", params: { word: "close" } }, deps)).toMatchObject({
      status: "nothing",
    });
    // The next purchase opens a new deposit on the same channel.
    expect(await purchase({ server: url, item: "lookup", params: { word: "again" } }, deps)).toMatchObject({
      status: "delivered",
    });
    expect(await stack.chain.usdcBalance(address)).toBe(1_000_000n - 2_000n - 10_000n);
  }, 60_000);

  it("is not bought by a buyer with no wallet file to keep the channel in (the registry's test purchases)", async () => {
    const { deps } = await wallet();
    const outcome = await purchase(
      { server: url, item: "lookup", params: { word: "x" } },
      { ...deps, settings: { ...deps.settings, walletFile: "" } },
    );
    expect(outcome).toMatchObject({ status: "refused", code: "cannot_pay", signed: false });
  }, 60_000);

  it("refuses a deposit above the policy's maxChannelDeposit before anything is signed", async () => {
    const { deps, dir } = await wallet();
    fs.writeFileSync(path.join(dir, "policy.json"), JSON.stringify({ maxChannelDeposit: "0.0005" }));
    const strict = {
      ...deps,
      settings: loadSettings({
        AGORA_WALLET_FILE: path.join(dir, "wallet.json"),
        AGORA_POLICY_FILE: path.join(dir, "policy.json"),
        ENABLE_UNSAFE_DIRECT_ACCESS: "true",
        ENABLE_REQUEST_ELICITATION: "false",
        AGORA_RPC_URL: stack.chain.rpcUrl,
      }),
    };
    const refusedOutcome = await purchase({ server: url, item: "lookup", params: { word: "x" } }, strict);
    expect(refusedOutcome).toMatchObject({
      status: "refused",
      code: "policy_rule",
      rule: "maxChannelDeposit",
      signed: false,
    });
  }, 60_000);
});
