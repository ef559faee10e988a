// Agora's test purchases end to end: a real local chain and token, a real facilitator, the reference paid server
// and lying ones on loopback, the agent client's own purchase code, and the day's budget in a real database
// (PGlite, and PostgreSQL when DATABASE_URL is set). Every outcome is checked against the chain's balances.
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walletFromKey } from "@agora-mcp/client";
import { eq, sql } from "drizzle-orm";
import { openPostgres } from "@/db/connect";
import { latestProbes } from "@/db/queries/probes";
import { listTestPurchaseTargets, reserveTestPurchase, setItemExcluded, spentToday } from "@/db/queries/test-purchases";
import { findListingRecord } from "@/db/queries/listing-facts";
import { listings, testPurchases, users } from "@/db/schema";
import { toListingView } from "@/lib/listings/from-rows";
import { toApiAgent } from "@/lib/listings/presenters/api-agent";
import { detailsText } from "@/lib/listings/presenters/mcp-text";
import { toServerDetails } from "@/lib/listings/presenters/server-details";
import { toServerResponse } from "@/lib/listings/presenters/server-json";
import { listingEvidence } from "@/db/queries/listing-facts";
import { toEvidenceView } from "@/lib/listings/from-rows";
import { chooseItemExclusion, ownerTestPurchases, undeliveredListings } from "@/lib/test-purchases/owner";
import type { Db } from "@/db/types";
import { reloadEnv } from "@/lib/env";
import { recordCheck } from "@/lib/listings/checks/drift";
import { insertListing } from "@/lib/listings/write";
import { probeServer } from "@/lib/probe";
import { runTestPurchases, testPurchase } from "@/lib/test-purchases/run";
import type { TestPurchaseSettings } from "@/lib/test-purchases/settings";
import { startReferenceServer, type ReferenceServer } from "@/examples/monetized-server/server";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startLyingServer, type Lie, type LyingServer } from "../support/lying-server";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";

const TIMEOUT_MS = 2_000;
const PRICE = 10_000n; // $0.01, what every server here lists
// Two test wallets' addresses (budgets are kept by address; nothing here signs with them).
const BUDGET_WALLET = "0x1111111111111111111111111111111111111111";
const NEW_WALLET = "0x2222222222222222222222222222222222222aBc";

let stack: PaymentStack;
/** Three reference servers paying one provider wallet (a listing's URL is unique in a database). */
let refs: ReferenceServer[];
let referencePayee: `0x${string}`;
const liars = new Map<Lie, LyingServer>();
const LIES: Lie[] = ["no-delivery", "silent", "refuse-then-settle", "huge", "html", "redirect-private", "endless"];
const servers: { close: () => Promise<void> }[] = [];

beforeAll(async () => {
  stack = await startPaymentStack();
  process.env.CHAIN_RPC_URLS = `eip155:84532=${stack.chain.rpcUrl}`;
  reloadEnv();
  referencePayee = stack.freshAddress();
  refs = await Promise.all(
    [0, 1, 2].map((i) =>
      startReferenceServer({
        port: 0,
        walletAddress: referencePayee,
        facilitatorUrl: stack.facilitator.url,
        jobSeconds: 1,
        name: `reference-${i}`,
      }),
    ),
  );
  servers.push(...refs);
  for (const lie of LIES) {
    const liar = await startLyingServer(lie, {
      facilitatorUrl: stack.facilitator.url,
      payTo: stack.freshAddress(),
      otherPayTo: stack.freshAddress(),
    });
    liars.set(lie, liar);
    servers.push(liar);
  }
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await stack?.stop();
  delete process.env.CHAIN_RPC_URLS;
  reloadEnv();
});

async function fundedSettings(
  units: bigint,
  overrides: Partial<TestPurchaseSettings> = {},
): Promise<TestPurchaseSettings & { key: string }> {
  const key = generatePrivateKey();
  await stack.chain.mintUsdc(privateKeyToAccount(key).address, units);
  return {
    key,
    wallet: walletFromKey(key),
    budgetUnits: 1_000_000n,
    maxUnits: 100_000n,
    intervalMs: 7 * 86_400_000,
    timeoutMs: TIMEOUT_MS,
    allowPrivateHosts: true,
    ...overrides,
  };
}

/** An approved listing of `url`, checked once for real (what a test purchase takes its terms from). */
async function listed(db: Db, url: string, slug: string) {
  const listing = await insertListing(db, {
    slug,
    name: slug,
    description: "A paid server under test.",
    categories: ["Data"],
    serverUrl: url,
    websiteUrl: null,
    status: "approved",
    price: null,
  });
  const probe = await probeServer(url, { allowPrivateHosts: true });
  const recorded = await recordCheck(db, listing, probe);
  expect(recorded.listing?.verified).toBe(true);
  return listing;
}

async function buy(db: Db, settings: TestPurchaseSettings, listingId: string) {
  const [row] = await db.select().from(listings).where(eq(listings.id, listingId));
  const probe = (await latestProbes(db, [listingId])).get(listingId) ?? null;
  return testPurchase(
    db,
    settings,
    { id: row!.id, name: row!.name, serverUrl: row!.serverUrl, price: row!.price, lastTestedAt: null },
    probe,
  );
}

async function purchasesOf(db: Db, listingId: string) {
  return db.select().from(testPurchases).where(eq(testPurchases.listingId, listingId));
}

describe.each(drivers())("test purchases on %s", (driver) => {
  let conn: TestConnection;
  let db: Db;
  let n = 0;
  const slug = (name: string) => `${name}-${driver}-${++n}`;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    db = conn.db;
  });
  afterAll(async () => conn?.close());

  it("buys the reference server's cheapest item, sees the price arrive with the payee, and records the delivery", async () => {
    const settings = await fundedSettings(1_000_000n);
    const listing = await listed(db, refs[0]!.url, slug("reference"));
    const before = await stack.chain.usdcBalance(referencePayee);
    const result = await buy(db, settings, listing.id);
    expect(result).toMatchObject({ kind: "recorded", outcome: "delivered" });
    expect(await stack.chain.usdcBalance(referencePayee)).toBe(before + PRICE);
    expect(await stack.chain.usdcBalance(settings.wallet.address)).toBe(1_000_000n - PRICE);
    const [row] = await purchasesOf(db, listing.id);
    expect(row).toMatchObject({
      item: "weather-now",
      units: PRICE,
      outcome: "delivered",
      money: "paid",
      network: "eip155:84532",
    });
    expect(row!.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(row!.deliveredMs).toBeGreaterThan(0);
    expect(row!.deliveredMs).toBeLessThan(TIMEOUT_MS);
    expect(await spentToday(db, settings.wallet.address)).toBeGreaterThanOrEqual(PRICE);
    // Bought once per interval: the listing is no longer due.
    expect((await listTestPurchaseTargets(db, settings.intervalMs, 100)).map((t) => t.id)).not.toContain(listing.id);
    // Every surface says the same sentence, with the settlement.
    const view = toListingView((await findListingRecord(db, listing.slug))!);
    expect(view.verified).toBe(true);
    expect(view.testPurchase).toMatchObject({ outcome: "delivered", priceUsd: "$0.01", transaction: row!.transaction });
    // Settled on a chain on this machine (a loopback RPC): named local, never linked to a public explorer.
    expect(view.testPurchase).toMatchObject({ explorerUrl: null, localChain: true });
    expect(view.testPurchase!.summary).toMatch(
      /^Test purchase on [A-Z][a-z]{2} \d{1,2}, \d{4}: paid \$0\.01, delivered in \d+\.\d s$/,
    );
    expect(toApiAgent(view).testPurchase).toEqual(view.testPurchase);
    expect(toServerDetails(view).testPurchase).toEqual(view.testPurchase);
    expect(detailsText(toServerDetails(view))).toContain(view.testPurchase!.summary);
    expect(JSON.stringify(toServerResponse(view))).toContain(view.testPurchase!.summary);
    // /discovery/resources and /discovery/search read it with the page's sales, beside each entry.
    expect(toEvidenceView((await listingEvidence(db, [listing.id])).get(listing.id)).testPurchase).toEqual(
      view.testPurchase,
    );
    // The key is nowhere in what was stored.
    const stored = JSON.stringify(await db.select().from(testPurchases), (_, v) =>
      typeof v === "bigint" ? v.toString() : v,
    ).toLowerCase();
    expect(stored).not.toContain(settings.key.slice(2).toLowerCase());
  });

  it("buys an asynchronous item when the owner excludes the cheaper one, and counts it delivered once its job is done in time", async () => {
    const settings = await fundedSettings(1_000_000n, { maxUnits: 100_000n });
    const listing = await listed(db, refs[1]!.url, slug("reference-async"));
    await setItemExcluded(db, listing.id, "weather-now", true);
    const result = await buy(db, settings, listing.id);
    expect(result, JSON.stringify(result)).toMatchObject({ kind: "recorded", outcome: "delivered" });
    const [row] = await purchasesOf(db, listing.id);
    expect(row).toMatchObject({ item: "logo-render", units: 100_000n, outcome: "delivered", money: "job-pending" });
    expect(row!.deliveredMs).toBeGreaterThanOrEqual(1_000);
  }, 30_000);

  it("never buys above the per-purchase maximum", async () => {
    const settings = await fundedSettings(1_000_000n, { maxUnits: 5_000n });
    const listing = await listed(db, refs[2]!.url, slug("reference-max"));
    await setItemExcluded(db, listing.id, "page-screenshot", true);
    const result = await buy(db, settings, listing.id);
    expect(result.kind).toBe("skipped");
    expect(await purchasesOf(db, listing.id)).toEqual([]);
    expect(await stack.chain.usdcBalance(settings.wallet.address)).toBe(1_000_000n);
  });

  it("records a server that takes the payment and answers an error as paid, nothing delivered, and takes its Verified away", async () => {
    const settings = await fundedSettings(1_000_000n);
    const liar = liars.get("no-delivery")!;
    const listing = await listed(db, liar.url, slug("no-delivery"));
    const result = await buy(db, settings, listing.id);
    expect(result).toMatchObject({ kind: "recorded", outcome: "not-delivered" });
    expect(await stack.chain.usdcBalance(liar.payTo)).toBeGreaterThanOrEqual(PRICE);
    expect(await stack.chain.usdcBalance(settings.wallet.address)).toBe(1_000_000n - PRICE);
    const [row] = await purchasesOf(db, listing.id);
    expect(row).toMatchObject({ outcome: "not-delivered", money: "disputed", units: PRICE });
    const [after] = await db.select({ verified: listings.verified }).from(listings).where(eq(listings.id, listing.id));
    expect(after!.verified).toBe(false);
    // A later check finds the server answering again: still not Verified while its latest test purchase delivered nothing.
    await recordCheck(db, { ...listing }, await probeServer(liar.url, { allowPrivateHosts: true }));
    const view = toListingView((await findListingRecord(db, listing.slug))!);
    expect(view.verified).toBe(false);
    expect(view.testPurchase!.summary).toMatch(/: Paid, nothing delivered$/);
    // Flagged for the admins, told to the owner.
    expect((await undeliveredListings(db)).map((u) => u.id)).toContain(listing.id);
    const [owned] = await ownerTestPurchases(db, [{ id: listing.id, name: listing.name }]);
    expect(owned).toMatchObject({
      listingId: listing.id,
      latest: { outcome: "not-delivered" },
      items: [{ key: "fact", excluded: false }],
    });
  });

  it("gives up on a server that settles and never answers within the time limit, and counts the money as spent", async () => {
    const settings = await fundedSettings(1_000_000n);
    const liar = liars.get("silent")!;
    const listing = await listed(db, liar.url, slug("silent"));
    const started = performance.now();
    const result = await buy(db, settings, listing.id);
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS * 4);
    expect(result).toMatchObject({ kind: "recorded", outcome: "not-delivered" });
    expect(await stack.chain.usdcBalance(settings.wallet.address)).toBe(1_000_000n - PRICE);
    const [row] = await purchasesOf(db, listing.id);
    expect(row).toMatchObject({ outcome: "not-delivered", money: "disputed" });
  }, 20_000);

  it("keeps a refused purchase's amount under the day's budget: its signed authorization can still be settled", async () => {
    const settings = await fundedSettings(1_000_000n);
    const liar = liars.get("refuse-then-settle")!;
    const listing = await listed(db, liar.url, slug("refuse-then-settle"));
    const before = await spentToday(db, settings.wallet.address);
    const settledBefore = liar.settled;
    const result = await buy(db, settings, listing.id);
    expect(result).toMatchObject({ kind: "recorded", outcome: "refused" });
    // The server settles the authorization it was given after answering the refusal.
    for (let i = 0; i < 100 && liar.settled === settledBefore; i++) await new Promise((r) => setTimeout(r, 50));
    expect(liar.settled).toBe(settledBefore + 1);
    expect(await stack.chain.usdcBalance(settings.wallet.address)).toBe(1_000_000n - PRICE);
    // What left the wallet is counted against the day's budget: the budget cannot be overspent this way.
    expect((await spentToday(db, settings.wallet.address)) - before).toBe(PRICE);
    const [row] = await purchasesOf(db, listing.id);
    expect(row).toMatchObject({ outcome: "refused", money: "refused", units: PRICE });
  });

  it("lets only the listing's owner exclude an item", async () => {
    const [owner] = await db
      .insert(users)
      .values({ email: `owner-${driver}@example.com` })
      .returning();
    const [other] = await db
      .insert(users)
      .values({ email: `other-${driver}@example.com` })
      .returning();
    const listing = await insertListing(db, {
      slug: slug("owned"),
      name: "Owned",
      description: "Owned server.",
      categories: [],
      serverUrl: `http://127.0.0.1:9/${driver}`,
      websiteUrl: null,
      status: "approved",
      price: 0.01,
      submitterId: owner!.id,
    });
    await expect(
      chooseItemExclusion(db, other!.id, { listingId: listing.id, item: "weather-now", excluded: true }),
    ).rejects.toMatchObject({ status: 404 });
    await chooseItemExclusion(db, owner!.id, { listingId: listing.id, item: "weather-now", excluded: true });
    const rows = await db.execute(sql`select item from test_purchase_exclusions where listing_id = ${listing.id}`);
    expect(JSON.stringify(rows)).toContain("weather-now");
  });

  for (const lie of ["price-rise", "payee-swap"] as const) {
    it(`pays nothing to a server whose terms changed since the latest check (${lie}), and records it as drift`, async () => {
      const settings = await fundedSettings(1_000_000n);
      // A liar of its own per database: its terms change after the first time it is asked.
      const liar = await startLyingServer(lie, {
        facilitatorUrl: stack.facilitator.url,
        payTo: stack.freshAddress(),
        otherPayTo: stack.freshAddress(),
      });
      servers.push(liar);
      const listing = await listed(db, liar.url, slug(lie));
      const result = await buy(db, settings, listing.id);
      expect(result).toMatchObject({ kind: "recorded", outcome: "drift" });
      expect(await stack.chain.usdcBalance(settings.wallet.address)).toBe(1_000_000n);
      const [row] = await purchasesOf(db, listing.id);
      expect(row).toMatchObject({ outcome: "drift", money: "none" });
      expect(row!.note).toMatch(/not the \$0\.01 to 0x[0-9a-fA-F]{40} last recorded/);
    });
  }

  for (const lie of ["huge", "html", "redirect-private", "endless"] as const) {
    it(`bounds a purchase answered with ${lie} by size and time and records it as a failed delivery`, async () => {
      const settings = await fundedSettings(1_000_000n);
      const liar = liars.get(lie)!;
      const listing = await listed(db, liar.url, slug(lie));
      const started = performance.now();
      const result = await buy(db, settings, listing.id);
      expect(performance.now() - started).toBeLessThan(TIMEOUT_MS * 4);
      expect(result).toMatchObject({ kind: "recorded", outcome: "not-delivered" });
      // It settled before answering badly: the money moved and is accounted for as spent.
      expect(liar.settled).toBeGreaterThanOrEqual(1);
      expect(await stack.chain.usdcBalance(settings.wallet.address)).toBe(1_000_000n - PRICE);
      const [row] = await purchasesOf(db, listing.id);
      expect(row).toMatchObject({ outcome: "not-delivered", money: "disputed" });
    }, 20_000);
  }
});

describe.each(drivers())("the day's budget on %s", (driver) => {
  let conn: TestConnection;
  let second: { db: Db; close: () => Promise<void> } | null = null;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    // A second site instance: its own connection pool on the same database (PGlite has one connection per process).
    second = conn.url ? await openPostgres(conn.url, { max: 4 }) : null;
  });
  afterAll(async () => {
    await second?.close();
    await conn?.close();
  });

  it("lets concurrent reservations from two instances take exactly what fits in the budget", async () => {
    const listing = await insertListing(conn.db, {
      slug: `budget-${driver}`,
      name: "Budget",
      description: "Budget test",
      categories: [],
      serverUrl: "http://127.0.0.1:9/mcp",
      websiteUrl: null,
      status: "approved",
      price: 0.01,
    });
    await conn.db.execute(sql`delete from test_purchase_spending`);
    const budget = 5n * PRICE;
    const instances = [conn.db, second?.db ?? conn.db];
    const attempts = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        reserveTestPurchase(
          instances[i % 2]!,
          {
            listingId: listing.id,
            item: "x",
            network: "eip155:84532",
            payTo: null,
            units: PRICE,
            wallet: BUDGET_WALLET,
          },
          budget,
        ),
      ),
    );
    expect(attempts.filter((a) => "id" in a)).toHaveLength(5);
    expect(await spentToday(conn.db, BUDGET_WALLET)).toBe(budget);
    // Spelled in another case, it is the same wallet and the same spent budget.
    expect(await spentToday(conn.db, BUDGET_WALLET.toUpperCase().replace("0X", "0x"))).toBe(budget);
  });

  it("gives a new test wallet its own day's budget: what the last key spent is not carried over", async () => {
    const listing = await insertListing(conn.db, {
      slug: `wallets-${driver}`,
      name: "Wallets",
      description: "Budget per wallet",
      categories: [],
      serverUrl: "http://127.0.0.1:9/mcp?wallets",
      websiteUrl: null,
      status: "approved",
      price: 0.01,
    });
    await conn.db.execute(sql`delete from test_purchase_spending`);
    const purchase = (wallet: string) =>
      reserveTestPurchase(
        conn.db,
        { listingId: listing.id, item: "x", network: "eip155:84532", payTo: null, units: PRICE, wallet },
        PRICE,
      );
    expect(await purchase(BUDGET_WALLET)).toHaveProperty("id");
    expect(await purchase(BUDGET_WALLET)).toMatchObject({ overBudget: true, spentUnits: PRICE });
    expect(await spentToday(conn.db, NEW_WALLET)).toBe(0n);
    expect(await purchase(NEW_WALLET)).toHaveProperty("id");
    expect(await spentToday(conn.db, NEW_WALLET)).toBe(PRICE);
  });

  it("buys from one of two due listings when two instances run at once with budget for one", async () => {
    await conn.db.execute(sql`delete from test_purchase_spending`);
    const settings = await fundedSettings(1_000_000n, { budgetUnits: PRICE });
    const a = await listed(conn.db, refs[0]!.url, `twin-a-${driver}`);
    const b = await listed(conn.db, refs[1]!.url, `twin-b-${driver}`);
    const runs = await Promise.all([
      runTestPurchases(conn.db, settings),
      runTestPurchases(second?.db ?? conn.db, settings),
    ]);
    const rows = await conn.db
      .select()
      .from(testPurchases)
      .where(sql`${testPurchases.listingId} in (${a.id}, ${b.id})`);
    const paid = rows.filter((r) => r.money === "paid");
    expect(paid).toHaveLength(1);
    expect(await stack.chain.usdcBalance(settings.wallet.address)).toBe(1_000_000n - PRICE);
    expect(await spentToday(conn.db, settings.wallet.address)).toBe(PRICE);
    expect(runs.some((r) => r.stoppedEarly !== null)).toBe(true);
  }, 30_000);
});
