// Metered (x402 upto) sales on a listing: a kit server selling an item for up to $0.10 is checked like any listing
// (its detail row reads "up to"), two calls using $0.03 and $0.05 are paid by x402's own upto client on the local
// chain, and the sales indexer counts both at what moved ($0.08 of volume), not at the maximum; a plain transfer to
// the same wallet stays no sale. On PGlite, and on PostgreSQL when DATABASE_URL is set.
import { createPublicClient, http, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_SEPOLIA } from "@agora-mcp/protocol";
import { createMonetizedServer, type RunningServer } from "@agora-mcp/server";
import { salesSummaries } from "@/db/queries/sales";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { priceRows, priceText } from "@/lib/listings/presenters/price-rows";
import { insertListing } from "@/lib/listings/write";
import { testPurchase } from "@/lib/test-purchases/run";
import { walletFromKey } from "@agora-mcp/client";
import { eq } from "drizzle-orm";
import { testPurchases } from "@/db/schema";
import { reloadEnv } from "@/lib/env";
import { indexSales } from "@/lib/sales/indexer";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { directSeller } from "../support/direct-sales";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";
import { payUpto } from "../support/upto-buyer";

let stack: PaymentStack;
let kit: RunningServer;
let provider: `0x${string}`;
let chain: PublicClient;
const paid: string[] = [];

beforeAll(async () => {
  stack = await startPaymentStack();
  provider = stack.freshAddress();
  kit = await createMonetizedServer({
    name: "metered-sales",
    walletAddress: provider,
    facilitatorUrl: stack.facilitator.url,
    log: () => {},
    items: [
      {
        id: "summarise",
        name: "Summarise",
        description: "Summarises pages, a cent a page",
        price: "0.10",
        metered: true,
        params: { pages: "How many pages" },
        handler: ({ pages }, context) => {
          // The site's test purchase sends an example value, not a number: it reads three pages then.
          const count = /^\d+$/.test(pages ?? "") ? Number(pages) : 3;
          context.reportUsage(count / 100);
          return `Summarised ${pages} pages`;
        },
      },
    ],
  }).listen({ port: 0 });
  chain = createPublicClient({ transport: http(stack.chain.rpcUrl) });
  for (const pages of ["3", "5"]) {
    const key = generatePrivateKey();
    await stack.chain.mintUsdc(privateKeyToAccount(key).address, 1_000_000n);
    const answer = await payUpto(kit.url, "summarise", { pages }, key, stack.chain.rpcUrl);
    if (answer.isError) throw new Error(JSON.stringify(answer.content));
    paid.push(String((answer._meta?.["x402/payment-response"] as { transaction?: string }).transaction).toLowerCase());
  }
  // Money that arrives without a settlement of the proxy: no sale, whatever its amount.
  const plain = await stack.fundedBuyer(500_000n);
  await directSeller(stack.chain.rpcUrl).plainTransfer(plain, provider, 40_000n);
}, 300_000);

afterAll(async () => {
  await kit?.close();
  await stack?.stop();
});

describe.each(drivers())("metered sales (%s)", (driver) => {
  let conn: TestConnection;
  let listingId: string;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    listingId = (
      await insertListing(conn.db, {
        name: "Metered Summaries",
        description: "Summaries by the page.",
        categories: ["Data"],
        serverUrl: kit.url,
        status: "approved",
      })
    ).id;
  }, 240_000);
  afterAll(async () => conn?.close());

  it("reads the item as metered, shown as 'up to' its maximum", async () => {
    const check = await checkListing(conn.db, listingId, { allowPrivateHosts: true });
    const tool = check!.result.pricedItems.find((i) => i.toolName === "summarise");
    expect(tool).toMatchObject({
      units: "100000",
      metered: true,
      x402Requirements: { scheme: "upto", payTo: provider },
    });
    const rows = priceRows(check!.result);
    expect(rows.filter((r) => r.amount !== null).map((r) => priceText(r, (n) => `$${n.toFixed(2)}`))).toEqual([
      "up to $0.10 USDC",
    ]);
  });

  it("counts each metered sale at what it moved", async () => {
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
    expect(summary.allTime).toEqual({ sales: 2, buyers: 2, volumeUnits: "80000" });
    expect(summary.lastSale).toMatchObject({ txHash: paid[1], amountUnits: "50000" });
  });

  it("test-buys it with the site's own purchase code and records what moved, not the maximum", async () => {
    const before = process.env.CHAIN_RPC_URLS;
    process.env.CHAIN_RPC_URLS = `eip155:84532=${stack.chain.rpcUrl}`;
    reloadEnv();
    try {
      const { probe } = (await checkListing(conn.db, listingId, { allowPrivateHosts: true }))!;
      const key = generatePrivateKey();
      const wallet = walletFromKey(key);
      await stack.chain.mintUsdc(wallet.address, 1_000_000n);
      const settings = {
        wallet,
        budgetUnits: 1_000_000n,
        maxUnits: 100_000n,
        intervalMs: 86_400_000,
        timeoutMs: 20_000,
        allowPrivateHosts: true,
      };
      const result = await testPurchase(
        conn.db,
        settings,
        { id: listingId, name: "Metered Summaries", serverUrl: kit.url, price: null, lastTestedAt: null },
        probe,
      );
      expect(result, JSON.stringify(result)).toMatchObject({ kind: "recorded", outcome: "delivered" });
      const [row] = await conn.db.select().from(testPurchases).where(eq(testPurchases.listingId, listingId));
      expect(row).toMatchObject({ units: 30_000n, money: "paid" });
      expect(await stack.chain.usdcBalance(wallet.address)).toBe(1_000_000n - 30_000n);
    } finally {
      if (before === undefined) delete process.env.CHAIN_RPC_URLS;
      else process.env.CHAIN_RPC_URLS = before;
      reloadEnv();
    }
  });
});
