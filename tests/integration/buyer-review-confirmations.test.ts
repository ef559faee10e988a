// A review rests on a sale only as deep in the chain as the sales indexer counts one (SALES_CONFIRMATIONS), so a
// reorganisation cannot leave a review pointing at a sale that no longer exists; and nothing is read from an RPC
// that answers another chain than the one CHAIN_RPC_URLS names it for. The sales schedule that counts those sales
// runs here too, on the same chain and shop.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createTestClient, http, type Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_SEPOLIA, taskRefOf } from "@agora-mcp/protocol";
import { createMonetizedServer, type RunningServer } from "@agora-mcp/server";
import { POST as postReview } from "@/app/api/buyer-reviews/route";
import { ChainMismatchError, verifiedChainReader } from "@/lib/chain/reader";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { insertListing } from "@/lib/listings/write";
import { indexAllSales } from "@/lib/jobs/sales-run";
import { startSalesSchedule, type SalesRunTiming } from "@/lib/jobs/sales-schedule";
import { buyerReviews, listingSales } from "@/db/schema";
import { eq } from "drizzle-orm";
import { buyQuote, signBuyerMessage } from "../support/buyer-review-fixtures";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { call, jsonRequest } from "../support/route-client";

const PRICE = 10_000n; // $0.01
let stack: PaymentStack;
let server: RunningServer;
let shop: Client;

async function signedReview(listing: string, buyer: PrivateKeyAccount, tx: Hex) {
  const now = Math.floor(Date.now() / 1000);
  return signBuyerMessage(buyer, "Review", {
    listing,
    taskRef: taskRefOf(BASE_SEPOLIA.chainId, tx),
    logIndex: -1,
    reviewer: buyer.address,
    rating: 5,
    text: "Worth it.",
    issuedAt: now,
    expiresAt: now + 600,
  });
}

let payTo: `0x${string}`;

beforeAll(async () => {
  stack = await startPaymentStack();
  payTo = stack.freshAddress();
  const kit = createMonetizedServer({
    name: "confirm-shop",
    walletAddress: payTo,
    facilitatorUrl: stack.facilitator.url,
    facilitatorTimeoutMs: 10_000,
    items: [
      {
        id: "quote",
        name: "Quote",
        description: "A quote",
        price: "0.01",
        params: { topic: "Example: tea" },
        handler: ({ topic }) => `A quote about ${topic}`,
      },
    ],
  });
  server = await kit.listen({ port: 0 });
  shop = new Client({ name: "buyer", version: "1.0.0" });
  await shop.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  process.env.CHAIN_RPC_URLS = `eip155:84532=${stack.chain.rpcUrl}`;
  process.env.SALES_CONFIRMATIONS = "3";
  process.env.RATE_LIMIT_DISABLED = "1";
  reloadEnv();
}, 120_000);

afterAll(async () => {
  await shop?.close();
  await server?.close();
  await stack?.stop();
  for (const name of ["CHAIN_RPC_URLS", "SALES_CONFIRMATIONS", "RATE_LIMIT_DISABLED"]) delete process.env[name];
  reloadEnv();
});

describe.each(drivers())("review confirmations on %s", (driver) => {
  let conn: TestConnection;
  let listing: string;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    listing = (
      await insertListing(conn.db, {
        name: "Confirm Shop",
        description: "Sells quotes to confirm.",
        categories: ["Data"],
        serverUrl: server.url,
        status: "approved",
      })
    ).id;
    await checkListing(conn.db, listing, { allowPrivateHosts: true });
  });
  afterAll(async () => conn?.close());

  it("answers 409 until the sale is as deep as the indexer counts one, then accepts the same signed review", async () => {
    const buyer = await stack.fundedBuyer(100_000n);
    const tx = await buyQuote(shop, buyer, payTo, PRICE);
    const body = await signedReview(listing, buyer, tx);
    const early = await call(postReview, jsonRequest("/api/buyer-reviews", body));
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(
      `Transaction ${tx} is not confirmed yet on Base Sepolia (3 confirmations needed); try again in a minute.`,
    );
    expect(await conn.db.select().from(buyerReviews)).toHaveLength(0);

    await createTestClient({ mode: "anvil", transport: http(stack.chain.rpcUrl) }).mine({ blocks: 3 });
    const later = await call(postReview, jsonRequest("/api/buyer-reviews", body));
    expect(later.status, later.body.message).toBe(201);
    expect(await conn.db.select().from(buyerReviews)).toHaveLength(1);
  });

  it("the sales schedule indexes a sale whether or not anyone listens to its runs, and tells a listener how long each took", async () => {
    const buyer = await stack.fundedBuyer(100_000n);
    const tx = await buyQuote(shop, buyer, payTo, PRICE);
    await createTestClient({ mode: "anvil", transport: http(stack.chain.rpcUrl) }).mine({ blocks: 3 });
    const indexed = async () => (await conn.db.select().from(listingSales).where(eq(listingSales.txHash, tx))).length;
    // No onRun: the runs happen all the same.
    const quiet = startSalesSchedule(conn.db, { intervalMs: 200 });
    try {
      await expect.poll(indexed, { timeout: 20_000 }).toBe(1);
    } finally {
      await quiet.stop();
    }
    const timings: SalesRunTiming[] = [];
    const listened = startSalesSchedule(conn.db, {
      intervalMs: 200,
      onRun: (_summary, timing) => timings.push(timing),
    });
    try {
      await expect.poll(() => timings.length, { timeout: 20_000 }).toBeGreaterThan(0);
    } finally {
      await listened.stop();
    }
    expect(timings[0]!.claimMs).toBeGreaterThanOrEqual(0);
    expect(timings[0]!.runMs).toBeGreaterThanOrEqual(0);
    expect(Number.isInteger(timings[0]!.runMs)).toBe(true);
  });
});

describe("an RPC that answers another chain", () => {
  beforeAll(() => {
    // Base mainnet's entry points at the local chain, which answers as Base Sepolia (84532).
    process.env.CHAIN_RPC_URLS = `eip155:8453=${stack.chain.rpcUrl}`;
    reloadEnv();
  });
  afterAll(() => {
    process.env.CHAIN_RPC_URLS = `eip155:84532=${stack.chain.rpcUrl}`;
    reloadEnv();
  });

  it("is refused before anything is read from it, by the reader and by the sales run", async () => {
    await expect(verifiedChainReader("eip155:8453")).rejects.toThrow(ChainMismatchError);
    await expect(verifiedChainReader("eip155:8453")).rejects.toThrow(
      "The RPC configured for Base answers chain id 84532, not 8453: check CHAIN_RPC_URLS.",
    );
    const conn = await openTestDatabase("pglite");
    try {
      const summary = await indexAllSales(conn.db);
      expect(summary.networks).toEqual([
        {
          network: "eip155:8453",
          error: "The RPC configured for Base answers chain id 84532, not 8453: check CHAIN_RPC_URLS.",
        },
      ]);
    } finally {
      await conn.close();
    }
  });
});
