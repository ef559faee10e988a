// The two new ways to pay, bought by the agent wallet from one kit server on the local chain and read back by the
// site: a metered item priced up to $0.10 that uses $0.03 moves exactly $0.03, and fifty $0.001 calls through a payment
// channel move $0.05 to the seller in one claim and one settle. The sales indexer counts the metered sale at what it
// moved and the channel's claim as one sale of $0.05 from the buyer (its settle to the seller is not counted again);
// the listing's figures and the buyer's wallet page read them with what the listing asked ("up to $0.10", "$0.001 a
// call"). On PGlite, and on PostgreSQL when DATABASE_URL is set.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPublicClient, decodeFunctionData, http, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_SEPOLIA } from "@agora-mcp/protocol";
import {
  chainReader,
  Confirmations,
  Ledger,
  loadSettings,
  purchase,
  walletFromKey,
  type PurchaseDeps,
} from "@agora-mcp/client";
import type { RunningServer } from "@agora-mcp/server";
import { createPayPerUseServer } from "@/examples/pay-per-use-server";
import { purchasesByPayer, salesSummaries } from "@/db/queries/sales";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { insertListing } from "@/lib/listings/write";
import { indexSales } from "@/lib/sales/indexer";
import { BATCH_SETTLEMENT_ABI, BATCH_SETTLEMENT_ADDRESS } from "@/sandbox/chain";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";

// The kit claims when the test asks (its schedule has its own tests in batch-channel.test.ts).
const ONLY_WHEN_ASKED = { claimEvery: 1_000, claimIntervalSeconds: 3_600 };

let stack: PaymentStack;
let kit: ReturnType<typeof createPayPerUseServer>;
let running: RunningServer;
let payTo: `0x${string}`;
let buyer: `0x${string}`;
let chain: PublicClient;
let dir: string;
let meteredTx: string;
/** The functions of the channel contract's transactions mined while the wallet bought. */
const channelCalls: string[] = [];

beforeAll(async () => {
  stack = await startPaymentStack();
  payTo = stack.freshAddress();
  kit = createPayPerUseServer({
    name: "two-schemes",
    walletAddress: payTo,
    claim: ONLY_WHEN_ASKED,
    facilitatorUrl: stack.facilitator.url,
  });
  running = await kit.listen({ port: 0 });
  chain = createPublicClient({ transport: http(stack.chain.rpcUrl) });

  dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-two-schemes-"));
  const key = generatePrivateKey();
  buyer = privateKeyToAccount(key).address;
  await stack.chain.mintUsdc(buyer, 1_000_000n);
  const settings = loadSettings({
    AGORA_WALLET_FILE: path.join(dir, "wallet.json"),
    ENABLE_UNSAFE_DIRECT_ACCESS: "true",
    ENABLE_REQUEST_ELICITATION: "false",
    AGORA_RPC_URL: stack.chain.rpcUrl,
  });
  const deps: PurchaseDeps = {
    settings,
    wallet: walletFromKey(key),
    ledger: new Ledger(path.join(dir, "ledger.jsonl")),
    chain: chainReader(settings.network, settings.rpcUrl),
    confirmations: new Confirmations(),
    asker: { kind: "confirmation-id" },
  };

  const metered = await purchase({ server: running.url, item: "summarise", params: { pages: "3" } }, deps);
  if (metered.status !== "delivered") throw new Error(JSON.stringify(metered));
  meteredTx = String(metered.transaction).toLowerCase();
  // cacheTime 0: viem would otherwise answer a head up to its polling interval old.
  const start = (await chain.getBlockNumber({ cacheTime: 0 })) + 1n;
  for (let i = 0; i < 50; i++) {
    const call = await purchase({ server: running.url, item: "lookup", params: { word: `w${i}` } }, deps);
    if (call.status !== "delivered") throw new Error(`call ${i}: ${JSON.stringify(call)}`);
  }
  await kit.claimChannels();
  const head = await chain.getBlockNumber({ cacheTime: 0 });
  for (let n = start; n <= head; n++) {
    for (const tx of (await chain.getBlock({ blockNumber: n, includeTransactions: true })).transactions) {
      if (tx.to?.toLowerCase() === BATCH_SETTLEMENT_ADDRESS.toLowerCase())
        channelCalls.push(decodeFunctionData({ abi: BATCH_SETTLEMENT_ABI, data: tx.input }).functionName);
    }
  }
}, 300_000);

afterAll(async () => {
  await running?.close();
  await stack?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("bought by the wallet on chain", () => {
  it("moved exactly $0.03 for the metered call and $0.05 for fifty channel calls, settled in two transactions", async () => {
    expect(await stack.chain.usdcBalance(payTo)).toBe(30_000n + 50n * 1_000n);
    // The wallet deposits about ten calls at a time (five deposits for fifty calls, all of them used); the claim and
    // the settle are the only two transactions that paid the seller for the fifty.
    expect(channelCalls.filter((call) => call !== "deposit")).toEqual(["claimWithSignature", "settle"]);
    expect(channelCalls.filter((call) => call === "deposit")).toHaveLength(5);
    expect(await stack.chain.usdcBalance(buyer)).toBe(1_000_000n - 30_000n - 50_000n);
  });
});

describe.each(drivers())("metered and channel sales on a listing (%s)", (driver) => {
  let conn: TestConnection;
  let listingId: string;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    listingId = (
      await insertListing(conn.db, {
        name: "Two Schemes",
        description: "Metered summaries and channel lookups.",
        categories: ["Data"],
        serverUrl: running.url,
        status: "approved",
      })
    ).id;
    const check = await checkListing(conn.db, listingId, { allowPrivateHosts: true });
    expect(check!.result.pricedItems.map((i) => i.x402Requirements?.scheme)).toEqual(
      expect.arrayContaining(["upto", "batch-settlement"]),
    );
  }, 240_000);
  afterAll(async () => conn?.close());

  it("counts the metered sale at what it moved and the channel's claim once, not its settle to the seller", async () => {
    const result = await indexSales(conn.db, {
      confirmations: 0,
      reorgDepth: 64,
      maxBlockRange: 10_000,
      backfillBlocks: 1_000_000,
      network: BASE_SEPOLIA,
      client: chain,
    });
    expect(result).toMatchObject({ added: 2, payees: 1 });
    const summary = (await salesSummaries(conn.db, [listingId])).get(listingId)!;
    expect(summary.allTime).toEqual({ sales: 2, buyers: 1, volumeUnits: "80000" });
    // A second run reads the same blocks again and adds nothing.
    expect(
      await indexSales(conn.db, {
        confirmations: 0,
        reorgDepth: 64,
        maxBlockRange: 10_000,
        backfillBlocks: 1_000_000,
        network: BASE_SEPOLIA,
        client: chain,
      }),
    ).toMatchObject({ added: 0, removed: 0 });
  });

  it("lists them on the buyer's wallet with what was asked: the metered maximum, the channel's price of a call", async () => {
    const rows = await purchasesByPayer(conn.db, buyer, [BASE_SEPOLIA.caip2], 10);
    expect(
      rows.map((r) => ({ kind: r.kind, amountUnits: r.amountUnits, askedUnits: r.askedUnits, payer: buyer })),
    ).toEqual([
      { kind: "channel", amountUnits: "50000", askedUnits: "1000", payer: buyer },
      { kind: "metered", amountUnits: "30000", askedUnits: "100000", payer: buyer },
    ]);
    expect(rows[1]!.txHash).toBe(meteredTx);
  });
});
