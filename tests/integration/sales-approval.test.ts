// Sales and buyer reviews follow approval: a listing that was never approved with a seller's wallet takes
// none of that seller's sales and blocks none of their buyers' reviews, however old it is. Real purchases through the
// provider kit on anvil, listings' payees from real checks of real servers, the indexer reading the chain, and reviews
// posted to POST /api/buyer-reviews. On PGlite, and on PostgreSQL when DATABASE_URL is set.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eq } from "drizzle-orm";
import { createPublicClient, http, type Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_SEPOLIA, taskRefOf } from "@agora-mcp/protocol";
import { createMonetizedServer, type RunningServer } from "@agora-mcp/server";
import { POST as postReview } from "@/app/api/buyer-reviews/route";
import { updateListingForReview } from "@/db/queries/listing-write";
import { decideListing } from "@/db/queries/reviews";
import { trackedPayees } from "@/db/queries/sales";
import { salesOf } from "../support/sales-figures";
import { listings, users } from "@/db/schema";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { insertListing } from "@/lib/listings/write";
import { indexSales, type IndexSettings } from "@/lib/sales/indexer";
import { buyQuote, signBuyerMessage } from "../support/buyer-review-fixtures";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";
import { call, jsonRequest } from "../support/route-client";

const PRICE = 250_000n; // $0.25, what every shop here asks for its quote
const SETTINGS: IndexSettings = { confirmations: 0, reorgDepth: 64, maxBlockRange: 10_000, backfillBlocks: 1_000_000 };
type Shop = { server: RunningServer; client: Client; wallet: `0x${string}` };

let stack: PaymentStack;
let seller: Shop;
// A stranger's servers naming the seller's wallet at the seller's price (one per listing: a URL is listed once).
let squats: Shop[];
// A server whose wallet nobody else names, submitted and never approved.
let unreviewed: Shop;
const sales: { buyer: PrivateKeyAccount; tx: Hex }[] = [];

async function openShop(name: string, wallet: `0x${string}`): Promise<Shop> {
  const server = await createMonetizedServer({
    name,
    walletAddress: wallet,
    facilitatorUrl: stack.facilitator.url,
    items: [
      {
        id: "quote",
        name: "Quote",
        description: "A quote",
        price: "0.25",
        params: { topic: "Example: tea" },
        handler: ({ topic }) => `A quote about ${topic}`,
      },
    ],
  }).listen({ port: 0 });
  const client = new Client({ name: "buyer", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  return { server, client, wallet };
}

beforeAll(async () => {
  stack = await startPaymentStack();
  const sellerWallet = stack.freshAddress();
  seller = await openShop("popular-seller", sellerWallet);
  squats = await Promise.all([1, 2, 3].map((n) => openShop(`squat-${n}`, sellerWallet)));
  unreviewed = await openShop("unreviewed", stack.freshAddress());
  for (const buyer of await Promise.all([1, 2, 3].map(() => stack.fundedBuyer(1_000_000n))))
    sales.push({ buyer, tx: await buyQuote(seller.client, buyer, seller.wallet, PRICE) });
  process.env.CHAIN_RPC_URLS = `eip155:84532=${stack.chain.rpcUrl}`;
  process.env.SALES_CONFIRMATIONS = "0";
  process.env.RATE_LIMIT_DISABLED = "1";
  reloadEnv();
}, 240_000);

afterAll(async () => {
  for (const shop of [seller, unreviewed, ...(squats ?? [])]) {
    await shop?.client.close();
    await shop?.server.close();
  }
  await stack?.stop();
  delete process.env.CHAIN_RPC_URLS;
  delete process.env.SALES_CONFIRMATIONS;
  delete process.env.RATE_LIMIT_DISABLED;
  reloadEnv();
});

describe.each(drivers())("sales and reviews follow approval (%s)", (driver) => {
  let conn: TestConnection;
  const ids: Record<"rejected" | "edited" | "latecomer" | "seller" | "unreviewed", string> = {} as never;
  const chain = () => createPublicClient({ transport: http(stack.chain.rpcUrl) });
  const check = (id: string) => checkListing(conn.db, id, { allowPrivateHosts: true });
  const backdate = (id: string, days: number) =>
    conn.db
      .update(listings)
      .set({ createdAt: new Date(Date.now() - days * 86_400_000) })
      .where(eq(listings.id, id));

  async function reviewOf(listing: string, sale: (typeof sales)[number]) {
    const now = Math.floor(Date.now() / 1000);
    const message = {
      listing,
      taskRef: taskRefOf(BASE_SEPOLIA.chainId, sale.tx),
      logIndex: -1,
      reviewer: sale.buyer.address,
      rating: 5,
      text: "Quick and right.",
      issuedAt: now,
      expiresAt: now + 600,
    };
    return call(postReview, jsonRequest("/api/buyer-reviews", await signBuyerMessage(sale.buyer, "Review", message)));
  }

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    const [mallory] = await conn.db.insert(users).values({ name: "Mallory" }).returning();
    const [admin] = await conn.db.insert(users).values({ name: "Ada Admin", role: "admin" }).returning();
    const add = async (
      name: string,
      serverUrl: string,
      status: "approved" | "pending" | "rejected",
      submitterId: string | null = null,
    ) =>
      (
        await insertListing(conn.db, {
          name,
          description: `${name}, sells quotes.`,
          categories: ["Data"],
          serverUrl,
          status,
          submitterId,
        })
      ).id;

    // A year-old rejected submission, pointed at the squatting server (any server can name any wallet and price).
    ids.rejected = await add("Old Rejected", squats[0]!.server.url, "rejected", mallory!.id);
    await backdate(ids.rejected, 365);
    await check(ids.rejected);
    // A year-old approved listing of the same stranger, edited to point at the squatting server: back in review.
    ids.edited = await add("Old Approved", "http://127.0.0.1:9/mcp", "approved", mallory!.id);
    await backdate(ids.edited, 300);
    const edited = await updateListingForReview(conn.db, ids.edited, mallory!.id, {
      name: "Old Approved",
      description: "Now with quotes.",
      categories: ["Data"],
      serverUrl: squats[1]!.server.url,
      websiteUrl: null,
      paidTools: [],
      paidToolsConsentedAt: null,
    });
    expect(edited?.status).toBe("pending");
    await check(ids.edited);
    // Submitted before the seller, approved after: its approval, not its submission, is when it named the wallet.
    ids.latecomer = await add("Late Approval", squats[2]!.server.url, "pending", mallory!.id);
    await backdate(ids.latecomer, 200);
    // A pending submission naming a wallet nobody else names.
    ids.unreviewed = await add("Unreviewed", unreviewed.server.url, "pending");
    await check(ids.unreviewed);

    // The seller's listing: approved now, its terms (the wallet) taken from its first check.
    ids.seller = await add("Popular Seller", seller.server.url, "approved");
    expect((await check(ids.seller))?.result.paymentMethods).toEqual([
      { paymentMethod: "USDC_BASE_SEPOLIA", walletAddress: seller.wallet },
    ]);
    const [approvedSeller] = await conn.db
      .select({ terms: listings.approvedTerms })
      .from(listings)
      .where(eq(listings.id, ids.seller));
    expect(approvedSeller!.terms?.walletsSince).toHaveProperty(seller.wallet.toLowerCase());

    await new Promise((r) => setTimeout(r, 20));
    const late = await check(ids.latecomer);
    expect(late?.result.paymentMethods[0]?.walletAddress).toBe(seller.wallet);
    const [{ revision }] = (await conn.db
      .select({ revision: listings.revision })
      .from(listings)
      .where(eq(listings.id, ids.latecomer))) as [{ revision: number }];
    expect(
      await decideListing(conn.db, ids.latecomer, admin!.id, { decision: "approved", reason: null, revision }),
    ).toMatchObject({ ok: true });
  }, 120_000);
  afterAll(async () => conn?.close());

  it("credits every sale to the seller's approved listing, none to the rejected, pending or later-approved listings naming its wallet", async () => {
    const result = await indexSales(conn.db, { ...SETTINGS, network: BASE_SEPOLIA, client: chain() });
    expect(result.added).toBe(sales.length);
    const stored = await salesOf(conn.db, Object.values(ids));
    expect(new Set(stored.map((s) => s.listingId))).toEqual(new Set([ids.seller]));
    expect(stored.map((s) => s.txHash).sort()).toEqual(sales.map((s) => s.tx.toLowerCase()).sort());
  });

  it("watches no wallet of a pending submission", async () => {
    const watched = await trackedPayees(conn.db, BASE_SEPOLIA.caip2);
    expect(watched.map((p) => p.payee)).not.toContain(unreviewed.wallet);
    expect(watched.map((p) => p.listingId)).not.toContain(ids.unreviewed);
    expect(watched.map((p) => p.listingId)).not.toContain(ids.rejected);
    expect(watched.map((p) => p.listingId)).not.toContain(ids.edited);
  });

  it("accepts the seller's buyers' reviews, and no review of a listing that is not approved", async () => {
    const accepted = await reviewOf(ids.seller, sales[0]!);
    expect(accepted.body.message).toBeUndefined();
    expect(accepted.status).toBe(201);
    expect((await reviewOf(ids.rejected, sales[1]!)).status).toBe(404);
    expect((await reviewOf(ids.edited, sales[1]!)).status).toBe(404);
    // The later-approved copy is listed, but the wallet was the seller's first: its review is refused.
    const copy = await reviewOf(ids.latecomer, sales[1]!);
    expect(copy.status).toBe(403);
    expect(copy.body.message).toMatch(/shares with a listing approved with it before, by another owner/);
    expect((await reviewOf(ids.seller, sales[1]!)).status).toBe(201);
  });
});
