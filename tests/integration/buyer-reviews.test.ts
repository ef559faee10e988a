// Buyer reviews against a real chain: purchases through the real provider kit settle on anvil with the real
// token, the listings' payees come from real checks of those servers, and every review is checked on the chain
// by POST /api/buyer-reviews. Each refusal answers its precise status and message and stores nothing.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createPublicClient, http, keccak256, toBytes, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_SEPOLIA, buyerReviewDomain, taskRefOf, type BuyerReviewDomain } from "@agora-mcp/protocol";
import { createMonetizedServer, type RunningServer } from "@agora-mcp/server";
import { POST as postReview } from "@/app/api/buyer-reviews/route";
import { POST as postRevoke } from "@/app/api/buyer-reviews/revoke/route";
import { GET as getFeedback } from "@/app/api/buyer-reviews/[listing]/feedback/route";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { findListingView } from "@/lib/listings/lookup";
import { toServerResponse, AGORA_META_KEY } from "@/lib/listings/presenters/server-json";
import { insertListing } from "@/lib/listings/write";
import { buyerReviews, listingReviews, listings, users } from "@/db/schema";
import { answerBuyerReview, hideBuyerReview } from "@/db/queries/buyer-reviews";
import { eq } from "drizzle-orm";
import { buyQuote, signBuyerMessage } from "../support/buyer-review-fixtures";
import { directSeller } from "../support/direct-sales";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { call, jsonRequest } from "../support/route-client";

const PRICE = 250_000n; // $0.25
type Shop = { server: RunningServer; client: Client; wallet: `0x${string}` };
type Sale = { buyer: PrivateKeyAccount; tx: Hex };

let stack: PaymentStack;
let shopA: Shop;
let shopB: Shop;
// A stranger's server naming shop A's wallet (and its price) as its own.
let copycat: Shop;
let ownerOfA: PrivateKeyAccount;
const sales: Record<"a1" | "a2" | "a3" | "a4" | "b1" | "self" | "oneUnit", Sale> = {} as never;

async function openShop(name: string, wallet: `0x${string}`): Promise<Shop> {
  const kit = createMonetizedServer({
    name,
    walletAddress: wallet,
    facilitatorUrl: stack.facilitator.url,
    facilitatorTimeoutMs: 10_000,
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
  });
  const server = await kit.listen({ port: 0 });
  const client = new Client({ name: "buyer", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  return { server, client, wallet };
}

/** A real purchase through make-purchase: the kit verifies and settles it on anvil through the facilitator. */
async function buy(shop: Shop, buyer: PrivateKeyAccount): Promise<Sale> {
  return { buyer, tx: await buyQuote(shop.client, buyer, shop.wallet, PRICE) };
}

type Fields = {
  listing: string;
  sale: Sale;
  rating?: number;
  text?: string;
  logIndex?: number;
  issuedAt?: number;
  expiresAt?: number;
  reviewer?: `0x${string}`;
};

function messageOf(f: Fields) {
  const now = Math.floor(Date.now() / 1000);
  return {
    listing: f.listing,
    taskRef: taskRefOf(BASE_SEPOLIA.chainId, f.sale.tx),
    logIndex: f.logIndex ?? -1,
    reviewer: f.reviewer ?? f.sale.buyer.address,
    rating: f.rating ?? 5,
    text: f.text ?? "Fast and exactly as described.",
    issuedAt: f.issuedAt ?? now,
    expiresAt: f.expiresAt ?? now + 600,
  };
}

async function signed(
  f: Fields,
  {
    signer = f.sale.buyer,
    domain = buyerReviewDomain(BASE_SEPOLIA.chainId),
  }: { signer?: PrivateKeyAccount; domain?: BuyerReviewDomain } = {},
) {
  return signBuyerMessage(signer, "Review", messageOf(f), domain);
}

async function signedRevoke(f: Fields, signer: PrivateKeyAccount = f.sale.buyer) {
  const { rating: _r, text: _t, ...message } = messageOf(f);
  return signBuyerMessage(signer, "RevokeReview", message);
}

const review = (body: unknown, headers: Record<string, string> = {}) =>
  call(postReview, jsonRequest("/api/buyer-reviews", body, headers));
const revoke = (body: unknown) => call(postRevoke, jsonRequest("/api/buyer-reviews/revoke", body));

beforeAll(async () => {
  stack = await startPaymentStack();
  ownerOfA = await stack.fundedBuyer(1_000_000n);
  shopA = await openShop("shop-a", ownerOfA.address);
  shopB = await openShop("shop-b", stack.freshAddress());
  copycat = await openShop("copycat", ownerOfA.address);
  const buyers = await Promise.all([1, 2, 3, 4].map(() => stack.fundedBuyer(2_000_000n)));
  sales.a1 = await buy(shopA, buyers[0]!);
  sales.a2 = await buy(shopA, buyers[1]!);
  sales.a3 = await buy(shopA, buyers[2]!);
  sales.a4 = await buy(shopA, buyers[3]!);
  sales.b1 = await buy(shopB, buyers[0]!);
  // The owner's own payee wallet buys from its own server: a real sale, but self-feedback.
  sales.self = await buy(shopA, ownerOfA);
  // One unit sent to shop A's wallet with a transferWithAuthorization, settled straight on the chain: a transfer
  // that looks like a sale, at no price shop A asks.
  const sender = await stack.fundedBuyer(1_000_000n);
  sales.oneUnit = {
    buyer: sender,
    tx: await directSeller(stack.chain.rpcUrl).settle([{ buyer: sender, payee: ownerOfA.address, units: 1n }]),
  };
  process.env.CHAIN_RPC_URLS = `eip155:84532=${stack.chain.rpcUrl}`;
  // Reviewed as soon as mined (buyer-review-confirmations.test.ts covers the depth).
  process.env.SALES_CONFIRMATIONS = "0";
  delete process.env.RATE_LIMIT_DISABLED;
  reloadEnv();
}, 120_000);

afterAll(async () => {
  for (const shop of [shopA, shopB, copycat]) {
    await shop?.client.close();
    await shop?.server.close();
  }
  await stack?.stop();
  delete process.env.CHAIN_RPC_URLS;
  delete process.env.SALES_CONFIRMATIONS;
  reloadEnv();
});

describe.each(drivers())("buyer reviews on %s", (driver) => {
  let conn: TestConnection;
  let listingA: string;
  let listingB: string;
  let copycatListing: string;
  const stored = async () => conn.db.select().from(buyerReviews);

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    const add = async (name: string, url: string) =>
      (
        await insertListing(conn.db, {
          name,
          description: `${name}, sells quotes.`,
          categories: ["Data"],
          serverUrl: url,
          status: "approved",
        })
      ).id;
    listingA = await add("Quote Shop A", shopA.server.url);
    listingB = await add("Quote Shop B", shopB.server.url);
    // The payees are what the checks read from each server's payment-methods.
    await checkListing(conn.db, listingA, { allowPrivateHosts: true });
    await checkListing(conn.db, listingB, { allowPrivateHosts: true });
    // Listed after shop A by someone else, naming shop A's wallet at shop A's price.
    copycatListing = await add("Quote Copycat", copycat.server.url);
    await checkListing(conn.db, copycatListing, { allowPrivateHosts: true });
  });
  afterAll(async () => conn?.close());

  it("accepts a review from the wallet that paid, with amount, payer and time read from the chain", async () => {
    const text = "Fast quote. <script>alert(1)</script> [click](https://evil.example)";
    const answer = await review(await signed({ listing: listingA, sale: sales.a1, rating: 4, text }));
    expect(answer.status, answer.body.message).toBe(201);
    const rows = await stored();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    const chain = createPublicClient({ transport: http(stack.chain.rpcUrl) });
    const receipt = await chain.getTransactionReceipt({ hash: sales.a1.tx });
    const block = await chain.getBlock({ blockNumber: receipt.blockNumber });
    expect(row).toMatchObject({
      listingId: listingA,
      payer: sales.a1.buyer.address,
      payee: ownerOfA.address,
      amount: "250000",
      rating: 4,
      text,
      txHash: sales.a1.tx.toLowerCase(),
      blockNumber: receipt.blockNumber,
    });
    expect(row.paidAt.getTime()).toBe(Number(block.timestamp) * 1000);
    expect(row.textHash).toBe(keccak256(toBytes(text)));
    expect(answer.body.review).toMatchObject({
      text,
      amount: "250000",
      taskRef: `eip155:84532:${sales.a1.tx.toLowerCase()}`,
    });
    // The chain is on this machine (a loopback RPC): no public explorer has the sale, so no link is offered.
    expect(answer.body.review).toMatchObject({ explorerUrl: null, localChain: true });

    const view = await findListingView(conn.db, listingA);
    expect(view!.buyerReviews).toMatchObject({ count: 1, average: 4 });
    expect(view!.buyerReviews.latest[0]!.text).toBe(text);
  });

  it("refuses a review signed by another key than the reviewer it names", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey());
    const answer = await review(await signed({ listing: listingA, sale: sales.a2 }, { signer: stranger }));
    expect(answer.status).toBe(401);
    expect(answer.body.message).toBe(
      `The signature was made by ${stranger.address}, not by the reviewer ${sales.a2.buyer.address} the message names.`,
    );
    expect(await stored()).toHaveLength(1);
  });

  it("refuses a review by a wallet that did not pay the sale", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey());
    const answer = await review(
      await signed({ listing: listingA, sale: sales.a2, reviewer: stranger.address }, { signer: stranger }),
    );
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(
      `This sale was paid by ${sales.a2.buyer.address}, not by ${stranger.address}: only the wallet that paid can review it.`,
    );
    expect(await stored()).toHaveLength(1);
  });

  it("refuses a sale to another listing", async () => {
    const answer = await review(await signed({ listing: listingA, sale: sales.b1 }));
    expect(answer.status).toBe(403);
    expect(answer.body.message).toMatch(
      new RegExp(`^This sale paid ${shopB.wallet}, which is not a wallet of "quote-shop-a"`),
    );
    expect(await stored()).toHaveLength(1);
  });

  it("refuses a transfer to the listing's wallet at an amount the listing does not ask", async () => {
    const answer = await review(await signed({ listing: listingA, sale: sales.oneUnit }));
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(
      `This sale paid $0.000001 to ${ownerOfA.address}, which is no price "quote-shop-a" asked there: only a purchase at a listed price is a verified purchase.`,
    );
    expect(await stored()).toHaveLength(1);
    expect((await findListingView(conn.db, listingA))!.buyerReviews.count).toBe(1);
  });

  it("refuses a second review of the same sale", async () => {
    const answer = await review(await signed({ listing: listingA, sale: sales.a1, text: "Changed my mind." }));
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe(
      `This sale (transaction ${sales.a1.tx.toLowerCase()}) already has a review; a sale is reviewed once.`,
    );
    expect((await stored()).map((r) => r.text)).not.toContain("Changed my mind.");
  });

  it("refuses a wrong domain and an expired signature", async () => {
    const wrongName = await review(
      await signed(
        { listing: listingA, sale: sales.a2 },
        { domain: { name: "Other catalogue", version: "1", chainId: 84532 } },
      ),
    );
    expect(wrongName.status).toBe(401);
    expect(wrongName.body.message).toMatch(
      /^The signature's EIP-712 domain is \{name: "Other catalogue".*sign with \{name: "Agora buyer reviews", version: "2", chainId: 84532\}/,
    );
    const wrongChain = await review(
      await signed({ listing: listingA, sale: sales.a2 }, { domain: buyerReviewDomain(8453) }),
    );
    expect(wrongChain.status).toBe(401);
    const past = Math.floor(Date.now() / 1000) - 1_000;
    const expired = await review(
      await signed({ listing: listingA, sale: sales.a2, issuedAt: past - 600, expiresAt: past }),
    );
    expect(expired.status).toBe(401);
    expect(expired.body.message).toBe(
      `The signature expired at ${new Date(past * 1000).toISOString()}; sign the review again.`,
    );
    // A signature over the right domain but presented as another: the recovered signer differs.
    const forged = await signed(
      { listing: listingA, sale: sales.a2 },
      { domain: { name: "Other catalogue", version: "1", chainId: 84532 } },
    );
    const relabelled = await review({ ...forged, domain: buyerReviewDomain(84532) });
    expect(relabelled.status).toBe(401);
    expect(relabelled.body.message).toMatch(/^The signature was made by 0x[0-9a-fA-F]{40}, not by the reviewer/);
    expect(await stored()).toHaveLength(1);
  });

  it("refuses a review signed for another Agora deployment (a signed review is not replayed elsewhere)", async () => {
    // Signed for the Agora at agora.example: this deployment (the requests' origin here) refuses it.
    const elsewhere = await signBuyerMessage(sales.a2.buyer, "Review", {
      ...messageOf({ listing: listingA, sale: sales.a2 }),
      site: "https://agora.example",
    });
    const replayed = await review(elsewhere);
    expect(replayed.status).toBe(401);
    expect(replayed.body.message).toBe(
      'This review was signed for the Agora at https://agora.example, not for this one (http://localhost): sign it again with site "http://localhost".',
    );
    // A deployment with a configured origin holds to it, whatever Host a request carries.
    process.env.SITE_URL = "https://agora.example";
    reloadEnv();
    try {
      const local = await review(await signed({ listing: listingA, sale: sales.a2 }));
      expect(local.status).toBe(401);
      expect(local.body.message).toMatch(
        /^This review was signed for the Agora at http:\/\/localhost, not for this one \(https:\/\/agora\.example\)/,
      );
    } finally {
      delete process.env.SITE_URL;
      reloadEnv();
    }
    expect(await stored()).toHaveLength(1);
  });

  it("refuses self-feedback from the listing's own payee wallet", async () => {
    const answer = await review(await signed({ listing: listingA, sale: sales.self }));
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe("A listing's own payee wallet cannot review it (self-feedback).");
    expect(await stored()).toHaveLength(1);
  });

  it("refuses unknown listings, unknown transactions and malformed bodies precisely", async () => {
    const unknown = await review(await signed({ listing: "00000000-0000-4000-8000-000000000000", sale: sales.a2 }));
    expect(unknown.status).toBe(404);
    const noTx = await review(
      await signed({ listing: listingA, sale: { buyer: sales.a2.buyer, tx: `0x${"ab".repeat(32)}` } }),
    );
    expect(noTx.status).toBe(404);
    expect(noTx.body.message).toMatch(/^No transaction 0xabab.* on Base Sepolia/);
    const long = await review(await signed({ listing: listingA, sale: sales.a2, text: "x".repeat(1_001) }));
    expect(long.status).toBe(400);
    expect(long.body.message).toBe("A review is at most 1000 characters.");
    const rating = await review(await signed({ listing: listingA, sale: sales.a2, rating: 6 }));
    expect(rating.status).toBe(400);
    const notJson = await call(
      postReview,
      new Request("http://localhost/api/buyer-reviews", {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "hi",
      }),
    );
    expect(notJson.status).toBe(415);
    expect(await stored()).toHaveLength(1);
  });

  it("keeps one review when the same sale is reviewed twice at once", async () => {
    const [first, second] = await Promise.all([
      review(await signed({ listing: listingA, sale: sales.a2, rating: 5, text: "one" })),
      review(await signed({ listing: listingA, sale: sales.a2, rating: 1, text: "two" })),
    ]);
    expect([first.status, second.status].sort()).toEqual([201, 409]);
    expect((await stored()).filter((r) => r.txHash === sales.a2.tx.toLowerCase())).toHaveLength(1);
  });

  it("serves each review as an ERC-8004 feedback record, per listing and in /v0.1 _meta", async () => {
    const res = await getFeedback(new Request(`http://localhost/api/buyer-reviews/${listingA}/feedback`), {
      params: Promise.resolve({ listing: listingA }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      agentId: string;
      summary: { count: number; averageScore: number };
      feedback: Record<string, unknown>[];
    };
    expect(body.summary.count).toBe(2);
    const four = body.feedback.find((f) => f.taskRef === `eip155:84532:${sales.a1.tx.toLowerCase()}`)!;
    expect(four).toMatchObject({
      agentId: body.agentId,
      clientAddress: sales.a1.buyer.address,
      value: 80,
      valueDecimals: 0,
      tag1: "starred",
      tag2: "x402",
      endpoint: shopA.server.url,
      isRevoked: false,
    });
    expect(four.feedbackHash).toBe(
      keccak256(toBytes("Fast quote. <script>alert(1)</script> [click](https://evil.example)")),
    );
    const meta = toServerResponse((await findListingView(conn.db, listingA))!).server._meta[AGORA_META_KEY] as {
      buyerReviews: { count: number; feedback: unknown[]; feedbackUrl: string };
    };
    expect(meta.buyerReviews.count).toBe(2);
    expect(meta.buyerReviews.feedback).toHaveLength(2);
    expect(meta.buyerReviews.feedbackUrl).toMatch(new RegExp(`/api/buyer-reviews/${listingA}/feedback$`));
    const missing = await getFeedback(new Request("http://localhost/api/buyer-reviews/nope/feedback"), {
      params: Promise.resolve({ listing: "nope" }),
    });
    expect(missing.status).toBe(404);
    const long = await getFeedback(new Request("http://localhost/api/buyer-reviews/x/feedback"), {
      params: Promise.resolve({ listing: "x".repeat(201) }),
    });
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ code: "invalid_input", message: "The listing key is too long." });
  });

  it("lets the reviewer, and only the reviewer, revoke their review, signed again", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey());
    const notTheirs = await revoke(
      await signedRevoke({ listing: listingA, sale: sales.a1, reviewer: stranger.address }, stranger),
    );
    expect(notTheirs.status).toBe(403);
    const ok = await revoke(await signedRevoke({ listing: listingA, sale: sales.a1 }));
    expect(ok.status, ok.body.message).toBe(200);
    expect((await findListingView(conn.db, listingA))!.buyerReviews.count).toBe(1);
    const again = await revoke(await signedRevoke({ listing: listingA, sale: sales.a1 }));
    expect(again.status).toBe(409);
    // The sale stays reviewed: a revoked review is not replaced by another.
    expect((await review(await signed({ listing: listingA, sale: sales.a1 }))).status).toBe(409);
  });

  it("lets an admin hide a review, recorded with who and why, and the owner answer each review once", async () => {
    const [admin] = await conn.db.insert(users).values({ name: "Ada Admin", role: "admin" }).returning();
    const [owner] = await conn.db.insert(users).values({ name: "Owen Owner" }).returning();
    await conn.db.update(listings).set({ submitterId: owner!.id }).where(eq(listings.id, listingA));
    const target = (await stored()).find((r) => r.txHash === sales.a2.tx.toLowerCase())!;

    expect(await answerBuyerReview(conn.db, target.id, admin!.id, "Not my listing")).toBe("missing");
    expect(await answerBuyerReview(conn.db, target.id, owner!.id, "Thanks for buying!")).toBe("answered");
    expect(await answerBuyerReview(conn.db, target.id, owner!.id, "A second answer")).toBe("taken");
    const shown = (await findListingView(conn.db, listingA))!.buyerReviews.latest.find((r) => r.id === target.id)!;
    expect(shown.response?.text).toBe("Thanks for buying!");

    expect(await hideBuyerReview(conn.db, target.id, admin!.id, "Spam link in the text")).toBe("hidden");
    expect(await hideBuyerReview(conn.db, target.id, admin!.id, "again")).toBe("already");
    const view = (await findListingView(conn.db, listingA))!;
    expect(view.buyerReviews.latest.map((r) => r.id)).not.toContain(target.id);
    const [kept] = await conn.db.select().from(buyerReviews).where(eq(buyerReviews.id, target.id));
    expect(kept).toMatchObject({ hiddenBy: admin!.id, hiddenReason: "Spam link in the text" });
    const history = await conn.db.select().from(listingReviews).where(eq(listingReviews.buyerReviewId, target.id));
    expect(history).toEqual([
      expect.objectContaining({
        listingId: listingA,
        reviewerId: admin!.id,
        decision: "hid a buyer review",
        reason: "Spam link in the text",
      }),
    ]);
  });

  it("gives a stranger's listing naming a seller's wallet no review of that seller's sales; the seller's listing gets it", async () => {
    const answer = await review(await signed({ listing: copycatListing, sale: sales.a4 }));
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(
      `This sale paid ${ownerOfA.address}, a wallet "quote-copycat" shares with a listing approved with it before, by another owner: its sales count for that listing. Review the listing you paid.`,
    );
    expect((await findListingView(conn.db, copycatListing))!.buyerReviews.count).toBe(0);
    const seller = await review(await signed({ listing: listingA, sale: sales.a4 }));
    expect(seller.status, seller.body.message).toBe(201);
  });

  it("limits reviews per wallet and per client address", async () => {
    // Counted once the signature proves the wallet (an expired or forged one counts nothing:
    // buyer-review-limits.test.ts), here by reviews of a listing that does not exist.
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1)
      statuses.push((await review(await signed({ listing: "no-such-listing", sale: sales.a3 }))).status);
    expect(statuses.slice(0, 10).every((s) => s === 404)).toBe(true);
    expect(statuses[10]).toBe(429);
    // The limit holds the wallet even with a good signature; nothing was stored.
    const blocked = await review(await signed({ listing: listingA, sale: sales.a3 }));
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/^Too many reviews from this wallet\. Try again in/);
    expect((await stored()).filter((r) => r.txHash === sales.a3.tx.toLowerCase())).toHaveLength(0);

    const ip = { "x-agora-client-address": "203.0.113.77" };
    const fromOneAddress: number[] = [];
    for (let i = 0; i < 31; i += 1) fromOneAddress.push((await review({ junk: true }, ip)).status);
    expect(fromOneAddress.slice(0, 30).every((s) => s === 400)).toBe(true);
    expect(fromOneAddress[30]).toBe(429);
  });
});
