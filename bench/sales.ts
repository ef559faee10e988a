// npm run bench:sales [-- --sales 100000 --listings 50 --buyers 500 --batch 200 --block-range 50 --driver postgres]
// The sales indexer at size: a local chain (anvil) gets `--sales` real sales (buyer-signed EIP-3009
// transferWithAuthorization, `--batch` of them per transaction through Multicall3, bench/sales-chain.ts) to the
// payees of `--listings` listings; the indexer reads them all in one run (time, peak RSS of this process during the
// run); then the card query (a page of 24 listings' figures), the detail page's queries and the "Most purchased"
// browse are timed on that database. PostgreSQL (a fresh database on DATABASE_URL's server, dropped after) unless
// --driver pglite.
import { parseArgs } from "node:util";
import os from "node:os";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { chainAccounts, FIRST_BUYER_ACCOUNT, generateSales } from "./sales-chain";
import { createPublicClient, http } from "viem";
import { BASE_SEPOLIA } from "@agora-mcp/protocol";
import { dailySales, salesSummaries } from "@/db/queries/sales";
import { searchListings } from "@/db/queries/search";
import { sql } from "drizzle-orm";
import { listingProbes, listingSales, listings } from "@/db/schema";
import { indexSales } from "@/lib/sales/indexer";
import { startChain } from "@/sandbox/chain";
import { openTestDatabase } from "@/tests/support/databases";
import { directSeller } from "@/tests/support/direct-sales";

const { values: args } = parseArgs({
  options: {
    sales: { type: "string", default: "100000" },
    listings: { type: "string", default: "50" },
    buyers: { type: "string", default: "500" },
    batch: { type: "string", default: "200" },
    "block-range": { type: "string", default: "50" },
    driver: { type: "string", default: process.env.DATABASE_URL ? "postgres" : "pglite" },
  },
});
const SALES = Number(args.sales);
const LISTINGS = Number(args.listings);
const BUYERS = Number(args.buyers);
const BATCH = Number(args.batch);
// The seven prices sales are generated at ($0.010–$0.016): a transfer counts as a sale only at a price the listing asks.
const PRICED_ITEMS = Array.from({ length: 7 }, (_, i) => ({
  name: `Item ${i}`,
  amount: 0.01 + i / 1000,
  units: String(10_000 + i * 1_000),
  currency: "USDC",
}));
const driver = args.driver === "pglite" ? "pglite" : "postgres";

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const seconds = (ms: number) => (ms / 1000).toFixed(1);

async function timeIt<T>(runs: number, run: () => Promise<T>): Promise<{ medianMs: number; maxMs: number }> {
  await run(); // warm
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { medianMs: Number(times[Math.floor(times.length / 2)]!.toFixed(2)), maxMs: Number(times.at(-1)!.toFixed(2)) };
}

const chain = await startChain({ blockTime: 0, accounts: FIRST_BUYER_ACCOUNT + BUYERS });
const conn = await openTestDatabase(driver);
try {
  const seller = directSeller(chain.rpcUrl);
  const payees = Array.from({ length: LISTINGS }, () => privateKeyToAccount(generatePrivateKey()).address);
  // The buyers are anvil's unlocked accounts, so anvil signs their authorizations (bench/sales-chain.ts).
  const buyers = (await chainAccounts(chain.rpcUrl)).slice(FIRST_BUYER_ACCOUNT, FIRST_BUYER_ACCOUNT + BUYERS);
  for (let i = 0; i < buyers.length; i += 200) await seller.fund(buyers.slice(i, i + 200), 10n ** 12n);

  // Listings whose latest check names their payee, as a probe records it.
  const ids: string[] = [];
  for (const [i, payee] of payees.entries()) {
    const slug = `bench-sales-${i}`;
    const [row] = await conn.db
      .insert(listings)
      .values({
        slug,
        name: `Bench Sales ${i}`,
        description: "A listing for the sales benchmark.",
        serverUrl: `https://bench-sales-${i}.example.com/mcp`,
        status: "approved",
        searchText: `bench sales ${i}`,
      })
      .returning({ id: listings.id });
    ids.push(row!.id);
    await conn.db.insert(listingProbes).values({
      listingId: row!.id,
      reachable: true,
      verifiable: true,
      paymentMethods: [{ paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: payee }],
      pricedItems: PRICED_ITEMS,
    });
  }

  // Generation: sale n goes to listing n mod LISTINGS from buyer n mod BUYERS, $0.010–$0.016.
  const generated = performance.now();
  const plan = (n: number) => ({
    buyer: buyers[n % BUYERS]!,
    payee: payees[n % LISTINGS]!,
    units: 10_000n + BigInt(n % 7) * 1_000n,
  });
  let expectedVolume = 0n;
  for (let n = 0; n < SALES; n++) expectedVolume += plan(n).units;
  let reported = 0;
  const steps = await generateSales(chain.rpcUrl, {
    count: SALES,
    batch: BATCH,
    plan,
    onProgress: (done) => {
      if (done - reported >= 10_000 || done === SALES)
        console.error(`generated ${(reported = done)} sales (${seconds(performance.now() - generated)} s)`);
    },
  });
  const generationMs = performance.now() - generated;
  const head = await seller.reader.getBlockNumber({ cacheTime: 0 });

  // Indexing: one run from block 0 to the head, peak RSS sampled every 20 ms.
  const client = createPublicClient({ transport: http(chain.rpcUrl, { timeout: 120_000, retryCount: 0 }) });
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  const result = await indexSales(conn.db, {
    network: BASE_SEPOLIA,
    client,
    confirmations: 0,
    reorgDepth: 64,
    maxBlockRange: Number(args["block-range"]),
    backfillBlocks: 10_000_000,
  });
  const indexMs = performance.now() - started;
  clearInterval(sampler);
  const again = performance.now();
  const second = await indexSales(conn.db, {
    network: BASE_SEPOLIA,
    client,
    confirmations: 0,
    reorgDepth: 64,
    maxBlockRange: Number(args["block-range"]),
    backfillBlocks: 10_000_000,
  });
  const secondMs = performance.now() - again;

  const summaries = await salesSummaries(conn.db, ids);
  const counted = [...summaries.values()].reduce((n, s) => n + s.allTime.sales, 0);
  const volume = [...summaries.values()].reduce((n, s) => n + BigInt(s.allTime.volumeUnits), 0n);
  if (counted !== SALES || volume !== expectedVolume)
    throw new Error(`indexed ${counted} sales / ${volume} units, expected ${SALES} / ${expectedVolume}`);

  const page = ids.slice(0, 24);
  // For comparison, the card figures as they were read before the roll-ups: aggregated from every raw sale.
  const rawCardPage = () =>
    conn.db.execute(sql`
      select s.listing_id, count(*) filter (where s.block_time > now() - interval '30 days') as s30,
        count(distinct s.payer) filter (where s.block_time > now() - interval '30 days') as b30,
        count(*) as s_all, count(distinct s.payer) as b_all, coalesce(sum(s.amount), 0)::text as v_all
      from ${listingSales} s where s.listing_id in (${sql.join(
        page.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}) group by s.listing_id`);
  const queries = {
    cardPage24: await timeIt(20, () => salesSummaries(conn.db, page)),
    cardPage24FromRawSales: await timeIt(20, rawCardPage),
    detailSummary: await timeIt(20, () => salesSummaries(conn.db, [ids[0]!])),
    detailDaily: await timeIt(20, () => dailySales(conn.db, ids[0]!, 30)),
    mostPurchasedBrowse: await timeIt(10, () =>
      searchListings(conn.db, { terms: null, category: "", price: "all", sort: "purchased" }, { limit: 24, offset: 0 }),
    ),
  };
  const report = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${mb(os.totalmem())} MB`,
    load: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" "),
    driver,
    sales: SALES,
    listings: LISTINGS,
    buyers: BUYERS,
    blocks: Number(head),
    blockRange: Number(args["block-range"]),
    generationSeconds: Number(seconds(generationMs)),
    generationSteps: Object.fromEntries(
      Object.entries(steps).map(([k, v]) => [k.replace(/Ms$/, "Seconds"), Number(seconds(v))]),
    ),
    index: {
      seconds: Number(seconds(indexMs)),
      salesPerSecond: Math.round(SALES / (indexMs / 1000)),
      added: result.added,
      rssBeforeMb: mb(rssBefore),
      peakRssMb: mb(peak),
    },
    secondRun: { seconds: Number(seconds(secondMs)), added: second.added, removed: second.removed },
    queries,
  };
  console.log(JSON.stringify(report, null, 2));
} finally {
  await conn.close();
  await chain.stop();
}
