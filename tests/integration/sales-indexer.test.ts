// The sales indexer on a real local chain: purchases through the real provider kit and facilitator, a listing whose
// payee comes from a real check of that server, and the indexer reading anvil's logs (directly, or through a proxy
// that misbehaves). On PGlite, and on PostgreSQL when DATABASE_URL is set.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/client";
import { createPublicClient, http, type PublicClient } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BASE_SEPOLIA,
  buildRequirements,
  encodePaymentV1,
  readPurchaseResult,
  type PricedItem,
} from "@agora-mcp/protocol";
import { createMonetizedServer, type RunningServer } from "@agora-mcp/server";
import { catalogueVersion } from "@/db/queries/listings";
import { searchListings } from "@/db/queries/search";
import { searchTerms } from "@/db/queries/search/terms";
import {
  listingProbes,
  listingSales,
  listingSalesBuyers,
  listingSalesDays,
  listingSalesTotals,
  salesCursors,
  salesPayees,
} from "@/db/schema";
import { salesCursorRow, salesSummaries, trackedPayees } from "@/db/queries/sales";
import { rowsOf } from "@/db/rows";
import { sql } from "drizzle-orm";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { insertListing } from "@/lib/listings/write";
import { indexSales, type IndexSettings } from "@/lib/sales/indexer";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { directSeller } from "../support/direct-sales";
import { startFaultyRpc } from "../support/faulty-rpc";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";
import { expectFiguresMatchRaw, salesOf } from "../support/sales-figures";

const PRICE = 30_000n; // $0.03
const SETTINGS: IndexSettings = { confirmations: 0, reorgDepth: 64, maxBlockRange: 10_000, backfillBlocks: 1_000_000 };

let stack: PaymentStack;
let kit: RunningServer;
let provider: `0x${string}`;
let chain: PublicClient;
let seller: ReturnType<typeof directSeller>;
const kitSales: { buyer: `0x${string}`; tx: string }[] = [];
let buyers: PrivateKeyAccount[];
// The chain as the purchases left it: each database's pass starts from it (anvil snapshot), so both see the same sales.
let baseline: `0x${string}`;

async function buyThroughKit(buyer: PrivateKeyAccount): Promise<string> {
  const client = new Client({ name: "sales-test-buyer", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(kit.url)));
  try {
    const { v1 } = buildRequirements({
      network: BASE_SEPOLIA,
      units: PRICE,
      payTo: provider,
      resource: { url: "mcp://sales-test#tip" },
    });
    const payment = await new ExactEvmSchemeV1(buyer).createPaymentPayload(1, v1 as never);
    const args = {
      itemId: "tip",
      params: { topic: "tea" },
      signedTransaction: encodePaymentV1(payment as never),
      paymentMethod: "USDC_BASE_SEPOLIA",
    };
    const outcome = readPurchaseResult(await client.callTool({ name: "make-purchase", arguments: args }));
    if (!outcome.ok) throw new Error(outcome.reason);
    return outcome.transaction!;
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  stack = await startPaymentStack();
  provider = stack.freshAddress();
  kit = await createMonetizedServer({
    name: "sales-test",
    walletAddress: provider,
    facilitatorUrl: stack.facilitator.url,
    items: [
      {
        id: "tip",
        name: "Tip",
        description: "A tip about a topic",
        price: "0.03",
        params: { topic: "Example: tea" },
        handler: ({ topic }) => `A tip about ${topic}`,
      },
    ],
  }).listen({ port: 0 });
  chain = createPublicClient({ transport: http(stack.chain.rpcUrl) });
  seller = directSeller(stack.chain.rpcUrl);
  buyers = await Promise.all([1, 2, 3].map(() => stack.fundedBuyer(1_000_000n)));
  // Five purchases by three buyers (2 + 2 + 1), settled by the facilitator through the provider kit.
  for (const buyer of [buyers[0]!, buyers[1]!, buyers[0]!, buyers[2]!, buyers[1]!])
    kitSales.push({ buyer: buyer.address, tx: await buyThroughKit(buyer) });
  // A plain transfer to the same payee: money arrives, but no authorization was used, so it is not a sale.
  const plain = await stack.fundedBuyer(500_000n);
  await seller.plainTransfer(plain, provider, 100_000n);
  baseline = await seller.test.snapshot();
}, 300_000);

afterAll(async () => {
  await kit?.close();
  await stack?.stop();
});

describe.each(drivers())("sales indexer (%s)", (driver) => {
  let conn: TestConnection;
  let listingId: string;
  let otherId: string;
  // What the real check read from the kit's price-listing: the tip at PRICE.
  let kitItems: PricedItem[];
  const run = (client: PublicClient = chain, settings: Partial<IndexSettings> = {}) =>
    indexSales(conn.db, { ...SETTINGS, ...settings, network: BASE_SEPOLIA, client });
  const stored = async () =>
    (await salesOf(conn.db, [listingId])).sort(
      (a, b) => Number(a.blockNumber - b.blockNumber) || a.logIndex - b.logIndex,
    );

  const figuresMatchRaw = (now?: Date) => expectFiguresMatchRaw(conn.db, [listingId, otherId], now);

  beforeAll(async () => {
    // evm_revert drops the snapshot it returns to: take it again for the next pass.
    await seller.test.revert({ id: baseline });
    baseline = await seller.test.snapshot();
    conn = await openTestDatabase(driver);
    const listing = await insertListing(conn.db, {
      name: "Sales Test",
      description: "Sells tips.",
      categories: ["Data"],
      serverUrl: kit.url,
      status: "approved",
    });
    listingId = listing.id;
    // The payee comes from a real check of the provider kit's server (its payment-methods answer).
    const check = await checkListing(conn.db, listingId, { allowPrivateHosts: true });
    expect(check?.result.paymentMethods).toEqual([{ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: provider }]);
    kitItems = check!.result.pricedItems;
    expect(new Set(kitItems.map((i) => i.units))).toEqual(new Set([PRICE.toString()]));
    // A listing paid elsewhere: none of these sales are its.
    otherId = (
      await insertListing(conn.db, {
        name: "Other",
        description: "Paid elsewhere.",
        categories: [],
        serverUrl: "http://127.0.0.1:9/mcp",
        status: "approved",
      })
    ).id;
    // Two more that sell tips and nothing on chain: one names them (a stronger text match), one only describes them.
    await insertListing(conn.db, {
      name: "Tips Tower",
      description: "Sells tips.",
      categories: [],
      serverUrl: "http://127.0.0.1:10/mcp",
      status: "approved",
    });
    await insertListing(conn.db, {
      name: "Aaa Seller",
      description: "Sells tips.",
      categories: [],
      serverUrl: "http://127.0.0.1:11/mcp",
      status: "approved",
    });
  }, 240_000);
  afterAll(async () => conn?.close());

  it("counts exactly the purchases made through the provider kit, with their buyers and volume, and not a plain transfer", async () => {
    const result = await run();
    expect(result).toMatchObject({ added: 5, removed: 0, payees: 1 });
    const sales = await stored();
    expect(sales.map((s) => s.txHash)).toEqual(kitSales.map((s) => s.tx.toLowerCase()));
    expect(sales.map((s) => s.payer)).toEqual(kitSales.map((s) => s.buyer));
    expect(sales.every((s) => s.amount === PRICE.toString() && s.payee === provider)).toBe(true);
    const summary = (await salesSummaries(conn.db, [listingId, otherId])).get(listingId)!;
    expect(summary.allTime).toEqual({ sales: 5, buyers: 3, volumeUnits: (5n * PRICE).toString() });
    expect(summary.last30d).toEqual(summary.allTime);
    expect(summary.lastSale).toMatchObject({
      txHash: kitSales.at(-1)!.tx.toLowerCase(),
      network: "eip155:84532",
      amountUnits: PRICE.toString(),
    });
    expect((await salesSummaries(conn.db, [otherId])).has(otherId)).toBe(false);
    expect((await salesCursorRow(conn.db, BASE_SEPOLIA.caip2))?.block).toBe(await chain.getBlockNumber());
    await figuresMatchRaw();
  });

  it("orders Most purchased by sales, and ranks sales below text relevance in search", async () => {
    const purchased = await searchListings(
      conn.db,
      { terms: null, category: "", price: "all", sort: "purchased" },
      { limit: 10, offset: 0 },
    );
    expect(purchased.rows[0]!.id).toBe(listingId);
    expect(purchased.rows.map((r) => r.name).slice(1)).toEqual(["Aaa Seller", "Other", "Tips Tower"]);
    const ranked = await searchListings(
      conn.db,
      { terms: searchTerms("tips"), category: "", price: "all", sort: "relevance" },
      { limit: 10, offset: 0 },
    );
    // The name match stays first; between two equal description matches, the one with sales comes first.
    expect(ranked.rows.map((r) => r.name)).toEqual(["Tips Tower", "Sales Test", "Aaa Seller"]);
  });

  it("writes nothing new when it indexes the same blocks again", async () => {
    const before = { rows: await stored(), version: await catalogueVersion(conn.db) };
    const again = await run();
    expect(again).toMatchObject({ added: 0, removed: 0 });
    expect(await stored()).toEqual(before.rows);
    // No statement touched the sales table (its trigger would have bumped the catalogue version).
    expect(await catalogueVersion(conn.db)).toBe(before.version);
    await figuresMatchRaw();
  });

  it("does not count an authorized transfer to the payee at an amount the listing does not ask", async () => {
    const before = await stored();
    // One unit, and twice the price: both transferWithAuthorization to the listing's payee, neither a price it lists.
    const cheap = await seller.settle([{ buyer: buyers[2]!, payee: provider, units: 1n }]);
    const double = await seller.settle([{ buyer: buyers[1]!, payee: provider, units: 2n * PRICE }]);
    expect(await run()).toMatchObject({ added: 0, removed: 0 });
    const after = await stored();
    expect(after).toEqual(before);
    expect(after.map((s) => s.txHash)).not.toContain(cheap.toLowerCase());
    expect(after.map((s) => s.txHash)).not.toContain(double.toLowerCase());
    expect((await salesSummaries(conn.db, [listingId])).get(listingId)!.allTime).toEqual({
      sales: 5,
      buyers: 3,
      volumeUnits: (5n * PRICE).toString(),
    });
    await figuresMatchRaw();
  });

  it("leaves out the site's own test-purchase wallet: its payments are no sale, and those stored before go", async () => {
    // buyers[0] stands for the wallet Agora test-buys with (TEST_PURCHASE_WALLET_KEY): it made two of the five.
    const house = buyers[0]!.address;
    const result = await run(chain, { excludedPayers: [house] });
    expect(result).toMatchObject({ added: 0, removed: 2 });
    expect((await stored()).map((s) => s.payer)).toEqual(kitSales.filter((s) => s.buyer !== house).map((s) => s.buyer));
    const summary = (await salesSummaries(conn.db, [listingId])).get(listingId)!;
    expect(summary.allTime).toEqual({ sales: 3, buyers: 2, volumeUnits: (3n * PRICE).toString() });
    await figuresMatchRaw();
    // Indexed again without it (another wallet configured), its purchases are customers' sales once more.
    expect(await run()).toMatchObject({ added: 2, removed: 0 });
    expect((await salesSummaries(conn.db, [listingId])).get(listingId)!.allTime).toEqual({
      sales: 5,
      buyers: 3,
      volumeUnits: (5n * PRICE).toString(),
    });
    await figuresMatchRaw();
  });

  it("finds the excluded payers' sales, dropped every run, through an index rather than a scan of the network's sales", async () => {
    // The statement dropSalesPaidBy runs; the planner told not to scan takes the payer index when there is one.
    const plan = await conn.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rowsOf<Record<string, string>>(
        await tx.execute(
          sql`explain delete from listing_sales where network = ${BASE_SEPOLIA.caip2} and lower(payer) in (${buyers[0]!.address.toLowerCase()})`,
        ),
      );
    });
    expect(plan.map((row) => Object.values(row).join(" ")).join("\n")).toContain("listing_sales_network_payer_idx");
  });

  it("removes the sales a reorg undid and keeps the rest", async () => {
    const snapshot = await seller.test.snapshot();
    const undone = await seller.settle([{ buyer: buyers[2]!, payee: provider, units: PRICE }]);
    expect((await run()).added).toBe(1);
    expect((await stored()).map((s) => s.txHash)).toContain(undone);
    await figuresMatchRaw();
    await seller.test.revert({ id: snapshot });
    // The other branch: a different sale in a block at the same height, then a longer chain.
    const kept = await seller.settle([{ buyer: buyers[1]!, payee: provider, units: PRICE }]);
    await seller.test.mine({ blocks: 3 });
    expect(await run()).toMatchObject({ added: 1, removed: 1 });
    const hashes = (await stored()).map((s) => s.txHash);
    expect(hashes).not.toContain(undone);
    expect(hashes).toContain(kept);
    expect(hashes).toHaveLength(6);
    await figuresMatchRaw();

    // A revert onto a shorter chain: the sale above the new head goes too.
    const shorter = await seller.test.snapshot();
    await seller.settle([{ buyer: buyers[1]!, payee: provider, units: PRICE }]);
    await seller.test.mine({ blocks: 2 });
    expect((await run()).added).toBe(1);
    await seller.test.revert({ id: shorter });
    await figuresMatchRaw();
    await run();
    expect((await stored()).map((s) => s.txHash)).toEqual(hashes);
    await figuresMatchRaw();
  });

  it("stops cleanly on an RPC that hangs, fails or answers logs it was not asked for, and counts nothing twice", async () => {
    const proxy = await startFaultyRpc(stack.chain.rpcUrl);
    try {
      const viaProxy = createPublicClient({ transport: http(proxy.url, { timeout: 500, retryCount: 0 }) });
      const before = { rows: await stored(), cursor: (await salesCursorRow(conn.db, BASE_SEPOLIA.caip2))?.block };
      const fresh = await seller.settle([{ buyer: buyers[0]!, payee: provider, units: PRICE }]);
      for (const [fault, message] of [
        ["hang", /took too long|timed out/i],
        ["error", /more than 10000 results/],
        ["extra-log", /a log it was not asked for/],
        ["malformed-log", /malformed log/],
      ] as const) {
        proxy.set(fault);
        await expect(run(viaProxy), fault).rejects.toThrow(message);
        expect(await stored(), fault).toEqual(before.rows);
        expect((await salesCursorRow(conn.db, BASE_SEPOLIA.caip2))?.block, fault).toBe(before.cursor);
      }
      proxy.set("none");
      expect(await run(viaProxy)).toMatchObject({ added: 1, removed: 0 });
      const after = await stored();
      expect(after.map((s) => s.txHash)).toEqual([...before.rows.map((s) => s.txHash), fresh]);
      expect(new Set(after.map((s) => `${s.txHash}:${s.logIndex}`)).size).toBe(after.length);
      await figuresMatchRaw();
    } finally {
      await proxy.close();
    }
  });

  it("back-fills a payee a later check found: its earlier sales count, once, even when the back-fill stops half-way", async () => {
    // Sales to a wallet the listing does not name yet, buried under the blocks each run reads again.
    const later = stack.freshAddress();
    const earlier = [
      await seller.settle([{ buyer: buyers[0]!, payee: later, units: PRICE }]),
      await seller.settle([{ buyer: buyers[2]!, payee: later, units: PRICE }]),
    ].map((h) => h.toLowerCase());
    await seller.test.mine({ blocks: 3 });
    const shallow = { reorgDepth: 1, maxBlockRange: 4 };
    expect(await run(chain, shallow)).toMatchObject({ added: 0, backfilled: 0 });
    const before = await stored();

    // A newer check names both wallets (as a probe records it), with the same price list.
    await conn.db.insert(listingProbes).values({
      listingId,
      reachable: true,
      verifiable: true,
      pricedItems: kitItems,
      paymentMethods: [
        { paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: provider },
        { paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: later },
      ],
    });
    const proxy = await startFaultyRpc(stack.chain.rpcUrl);
    try {
      // The main read (one range) and two back-fill ranges go through; the next eth_getLogs fails.
      proxy.set("error", { after: 3 });
      await expect(run(createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) }), shallow)).rejects.toThrow(
        /more than 10000 results/,
      );
    } finally {
      await proxy.close();
    }
    const [pending] = (await trackedPayees(conn.db, BASE_SEPOLIA.caip2)).filter((p) => p.payee === later);
    expect(pending!.nextBlock).toBe(pending!.fromBlock + 8n);
    expect(pending!.nextBlock).toBeLessThanOrEqual(pending!.toBlock);

    const resumed = await run(chain, shallow);
    expect(resumed).toMatchObject({ added: 2, backfilled: 2, removed: 0 });
    const after = await stored();
    expect(after.filter((s) => s.payee === later).map((s) => s.txHash)).toEqual(earlier);
    expect(after).toHaveLength(before.length + 2);
    await figuresMatchRaw();
    expect(await run(chain, shallow)).toMatchObject({ added: 0, backfilled: 0, removed: 0 });
    await figuresMatchRaw();
  });

  it("reads in bounded ranges and finds the same sales as one big read", async () => {
    const all = await stored();
    // A fresh index: no sale, roll-up, cursor or tracked payee left.
    for (const table of [
      listingSales,
      listingSalesDays,
      listingSalesBuyers,
      listingSalesTotals,
      salesCursors,
      salesPayees,
    ])
      await conn.db.delete(table);
    const result = await run(chain, { maxBlockRange: 3 });
    expect(result.added).toBe(all.length);
    expect(await stored()).toEqual(all);
    await figuresMatchRaw();
  });

  it("counts windows in UTC days, each buyer once however many days they bought on", async () => {
    const before = await salesSummaries(conn.db, [listingId]);
    // Eight days on, the first buyer buys again.
    await seller.test.increaseTime({ seconds: 8 * 86_400 });
    await seller.settle([{ buyer: buyers[0]!, payee: provider, units: PRICE }]);
    expect((await run()).added).toBe(1);
    const latest = (await stored()).at(-1)!;
    const summary = (await salesSummaries(conn.db, [listingId], latest.blockTime)).get(listingId)!;
    expect(summary.last7d).toEqual({ sales: 1, buyers: 1, volumeUnits: PRICE.toString() });
    expect(summary.last30d.sales).toBe(before.get(listingId)!.last30d.sales + 1);
    expect(summary.last30d.buyers).toBe(before.get(listingId)!.last30d.buyers);
    expect(summary.allTime.buyers).toBe(before.get(listingId)!.allTime.buyers);
    await figuresMatchRaw(latest.blockTime);
    await figuresMatchRaw(new Date(latest.blockTime.getTime() + 25 * 86_400_000));
  });
});
