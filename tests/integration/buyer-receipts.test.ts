// Buyers' signed delivery receipts against a real chain: the agent wallet buys from a provider kit listed in the
// registry (settled on anvil by x402's facilitator), then, in the background, signs and posts a receipt to the
// registry (delivered, or charged and not delivered), which checks it against the sale on chain exactly as it checks a review; the listing's 30-day delivery
// evidence counts it beside the test purchases and says how many came from buyers (an asynchronous purchase's once
// its job is done). A wallet with receipts turned off
// sends none. Forged, foreign, repeated and malformed receipts are refused with their status and store nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_SEPOLIA, taskRefOf } from "@agora-mcp/protocol";
import {
  chainReader,
  checkJob,
  Ledger,
  loadSettings,
  purchase,
  walletFromKey,
  type PurchaseDeps,
} from "@agora-mcp/client";
import { createMonetizedServer, type RunningServer } from "@agora-mcp/server";
import { GET as mcpGet, POST as mcpPost } from "@/app/api/mcp/route";
import { POST as postReceipt } from "@/app/api/buyer-reviews/receipts/route";
import { buyerReceipts } from "@/db/schema";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { findListingView } from "@/lib/listings/lookup";
import { insertListing } from "@/lib/listings/write";
import { signBuyerMessage } from "../support/buyer-review-fixtures";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";
import { startPaymentStack, type PaymentStack } from "../support/payment-stack";
import { call, jsonRequest } from "../support/route-client";
import { serveRoute } from "../support/route-server";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agora-receipts-"));
let stack: PaymentStack;
let kit: RunningServer;
let registry: Awaited<ReturnType<typeof serveRoute>>;
/** What the registry's receipt endpoint does (a test swaps in one that is slow and fails). */
let receiptRoute: (request: Request) => Promise<Response> = postReceipt;

beforeAll(async () => {
  stack = await startPaymentStack();
  const server = createMonetizedServer({
    name: "receipt-quotes",
    walletAddress: stack.freshAddress(),
    facilitatorUrl: stack.facilitator.url,
    log: () => {},
    items: [
      {
        id: "quote",
        name: "Quote",
        description: "A quote",
        price: "0.01",
        params: { topic: "Example: tea" },
        handler: ({ topic }) => `A quote about ${topic}`,
      },
      {
        id: "report",
        name: "Report",
        description: "A report, prepared after the purchase",
        price: "0.01",
        params: { topic: "Example: tea" },
        async: { checkAfterSeconds: 1 },
        handler: ({ topic }) => `A report on ${topic}`,
      },
      // Paid first through make-purchase, then it fails: the buyer is charged and gets nothing.
      {
        id: "broken",
        name: "Broken quote",
        description: "A quote that fails after payment",
        price: "0.01",
        params: { topic: "Example: tea" },
        x402Tool: false,
        handler: () => {
          throw new Error("the quote service is down");
        },
      },
    ],
  });
  kit = await server.listen({ port: 0 });
  process.env.RATE_LIMIT_DISABLED = "1";
  process.env.CHAIN_RPC_URLS = `eip155:84532=${stack.chain.rpcUrl}`;
  // Counted as soon as mined (buyer-review-confirmations.test.ts covers the depth).
  process.env.SALES_CONFIRMATIONS = "0";
  reloadEnv();
  // The site's API on one origin: its MCP endpoint (the wallet finds listings there) and the receipt endpoint.
  registry = await serveRoute({
    GET: mcpGet,
    POST: (request) =>
      new URL(request.url).pathname === "/api/buyer-reviews/receipts" ? receiptRoute(request) : mcpPost(request),
  });
}, 60_000);

afterAll(async () => {
  await registry?.close();
  await kit?.close();
  await stack?.stop();
  delete process.env.CHAIN_RPC_URLS;
  delete process.env.SALES_CONFIRMATIONS;
  reloadEnv();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A funded wallet buying through the registry, asking nobody; `receipts: false` sets AGORA_DELIVERY_RECEIPTS=false. */
async function wallet(
  receipts = true,
): Promise<{ deps: PurchaseDeps & { ledger: Ledger }; account: PrivateKeyAccount }> {
  const dir = fs.mkdtempSync(path.join(tmp, "wallet-"));
  const key = generatePrivateKey();
  await stack.chain.mintUsdc(privateKeyToAccount(key).address, 1_000_000n);
  const settings = loadSettings({
    AGORA_REGISTRY_URL: `${registry.url}/api`,
    AGORA_WALLET_FILE: path.join(dir, "wallet.json"),
    AGORA_RPC_URL: stack.chain.rpcUrl,
    ENABLE_REQUEST_ELICITATION: "false",
    ...(receipts ? {} : { AGORA_DELIVERY_RECEIPTS: "false" }),
  });
  const deps: PurchaseDeps & { ledger: Ledger } = {
    settings,
    wallet: walletFromKey(key),
    ledger: new Ledger(path.join(dir, "ledger.jsonl")),
    chain: chainReader(settings.network, settings.rpcUrl),
  };
  return { deps, account: privateKeyToAccount(key) };
}

function receiptMessage(listing: string, transaction: string, reviewer: `0x${string}`, delivered: boolean) {
  const now = Math.floor(Date.now() / 1000);
  return {
    listing,
    taskRef: taskRefOf(BASE_SEPOLIA.chainId, transaction),
    logIndex: -1,
    reviewer,
    delivered,
    issuedAt: now,
    expiresAt: now + 600,
  };
}

const post = (body: unknown) => call(postReceipt, jsonRequest("/api/buyer-reviews/receipts", body));

describe.each(drivers())("buyer delivery receipts on %s", (driver) => {
  let conn: TestConnection;
  let listingId: string;
  let first: { transaction: string; account: PrivateKeyAccount };
  let quiet: { transaction: string; account: PrivateKeyAccount };
  const stored = async () => conn.db.select().from(buyerReceipts);

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    const listing = await insertListing(conn.db, {
      name: "Receipt Quotes",
      slug: "receipt-quotes",
      description: "Quotes, bought by wallets that send receipts.",
      categories: ["Data"],
      serverUrl: kit.url,
      status: "approved",
    });
    listingId = listing.id;
    await checkListing(conn.db, listingId, { allowPrivateHosts: true });
  });
  afterAll(async () => conn?.close());

  it("a wallet's purchase is answered at once; its signed receipt reaches the registry and the listing's evidence counts it", async () => {
    const { deps, account } = await wallet();
    const bought = await purchase({ server: "receipt-quotes", item: "quote", params: { topic: "tea" } }, deps);
    expect(bought, bought.message).toMatchObject({
      status: "delivered",
      code: "delivered",
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/i),
    });
    first = { transaction: bought.transaction!, account };
    // Sent in the background: wait (bounded) for the registry to have it.
    const deadline = Date.now() + 15_000;
    while ((await stored()).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      listingId,
      payer: account.address,
      amount: "10000",
      delivered: true,
      txHash: first.transaction.toLowerCase(),
    });
    const view = await findListingView(conn.db, listingId);
    expect(view!.delivery30d).toEqual({
      delivered: 1,
      failedUncharged: 0,
      failedCharged: 0,
      buyerReceipts: { delivered: 1, failedCharged: 0 },
    });
  });

  it("after a charged failure the wallet finds its settlement on chain and sends a receipt saying it did not deliver", async () => {
    const { deps, account } = await wallet();
    const failed = await purchase({ server: "receipt-quotes", item: "broken", params: { topic: "tea" } }, deps);
    expect(failed, failed.message).toMatchObject({ status: "disputed", code: "charged_failure" });
    const deadline = Date.now() + 15_000;
    while ((await stored()).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const rows = await stored();
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.payer === account.address)).toMatchObject({
      listingId,
      amount: "10000",
      delivered: false,
    });
    const view = await findListingView(conn.db, listingId);
    expect(view!.delivery30d).toEqual({
      delivered: 1,
      failedUncharged: 0,
      failedCharged: 1,
      buyerReceipts: { delivered: 1, failedCharged: 1 },
    });
  });

  it("a registry that is slow to take the receipt and then fails neither delays nor fails the purchase", async () => {
    let reached = 0;
    receiptRoute = async () => {
      reached++;
      await new Promise((r) => setTimeout(r, 3_000));
      return new Response(JSON.stringify({ message: "down" }), {
        status: 500,
        headers: { "content-type": "application/json" },
      });
    };
    try {
      const { deps } = await wallet();
      const started = performance.now();
      const bought = await purchase({ server: "receipt-quotes", item: "quote", params: { topic: "milk" } }, deps);
      expect(bought).toMatchObject({ status: "delivered", code: "delivered" });
      expect(performance.now() - started).toBeLessThan(2_500);
      // The receipt was on its way while the purchase answered; the failure cost nothing and stored nothing.
      const deadline = Date.now() + 5_000;
      while (reached === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(reached).toBe(1);
    } finally {
      receiptRoute = postReceipt;
    }
    expect(await stored()).toHaveLength(2);
    // That sale has no receipt and the evidence is unchanged.
    const view = await findListingView(conn.db, listingId);
    expect(view!.delivery30d).toEqual({
      delivered: 1,
      failedUncharged: 0,
      failedCharged: 1,
      buyerReceipts: { delivered: 1, failedCharged: 1 },
    });
  });

  it("a wallet with receipts turned off sends none", async () => {
    const { deps, account } = await wallet(false);
    const bought = await purchase({ server: "receipt-quotes", item: "quote", params: { topic: "coffee" } }, deps);
    expect(bought).toMatchObject({ status: "delivered", code: "delivered" });
    quiet = { transaction: bought.transaction!, account };
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await stored()).toHaveLength(2);
  });

  it("refuses a receipt whose signature is not the paying wallet's (401)", async () => {
    const forger = privateKeyToAccount(generatePrivateKey());
    const answer = await post(
      await signBuyerMessage(
        forger,
        "Receipt",
        receiptMessage(listingId, quiet.transaction, quiet.account.address, false),
      ),
    );
    expect(answer.status).toBe(401);
    expect(answer.body.message).toBe(
      `The signature was made by ${forger.address}, not by the reviewer ${quiet.account.address} the message names.`,
    );
    expect(await stored()).toHaveLength(2);
  });

  it("refuses a receipt signed for another Agora, naming it a receipt (401)", async () => {
    const answer = await post(
      await signBuyerMessage(quiet.account, "Receipt", {
        ...receiptMessage(listingId, quiet.transaction, quiet.account.address, false),
        site: "https://other-agora.example",
      }),
    );
    expect(answer.status).toBe(401);
    expect(answer.body.message).toBe(
      'This receipt was signed for the Agora at https://other-agora.example, not for this one (http://localhost): sign it again with site "http://localhost".',
    );
    expect(await stored()).toHaveLength(2);
  });

  it("refuses a receipt for another wallet's sale (403)", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey());
    const answer = await post(
      await signBuyerMessage(
        stranger,
        "Receipt",
        receiptMessage(listingId, quiet.transaction, stranger.address, false),
      ),
    );
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(
      `This sale was paid by ${quiet.account.address}, not by ${stranger.address}: only the wallet that paid can send a receipt for it.`,
    );
    expect(await stored()).toHaveLength(2);
  });

  it("refuses a second receipt for a sale (409)", async () => {
    const answer = await post(
      await signBuyerMessage(
        first.account,
        "Receipt",
        receiptMessage(listingId, first.transaction, first.account.address, false),
      ),
    );
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe(
      `This sale (transaction ${first.transaction.toLowerCase()}) already has a delivery receipt; a sale has one.`,
    );
    expect(await stored()).toHaveLength(2);
  });

  it("refuses bodies that are not a signed receipt (400)", async () => {
    const good = await signBuyerMessage(
      quiet.account,
      "Receipt",
      receiptMessage(listingId, quiet.transaction, quiet.account.address, false),
    );
    const bad = [
      {},
      { ...good, message: { ...good.message, delivered: "yes" } },
      { ...good, message: { ...good.message, delivered: undefined } },
      { ...good, signature: "0x1234" },
      { ...good, message: { ...good.message, taskRef: "eip155:1:0xabc" } },
    ];
    for (const body of bad) {
      const answer = await post(body);
      expect(answer.status, JSON.stringify(body).slice(0, 200)).toBe(400);
    }
    expect(await stored()).toHaveLength(2);
  });

  it("counts a buyer's receipt of a charged failure among the failures charged, and says it came from a buyer", async () => {
    const answer = await post(
      await signBuyerMessage(
        quiet.account,
        "Receipt",
        receiptMessage(listingId, quiet.transaction, quiet.account.address, false),
      ),
    );
    expect(answer.status, answer.body.message).toBe(201);
    expect(answer.body.receipt).toMatchObject({
      listingId,
      delivered: false,
      taskRef: taskRefOf(BASE_SEPOLIA.chainId, quiet.transaction),
    });
    const view = await findListingView(conn.db, listingId);
    expect(view!.delivery30d).toEqual({
      delivered: 1,
      failedUncharged: 0,
      failedCharged: 2,
      buyerReceipts: { delivered: 1, failedCharged: 2 },
    });
  });

  it("an asynchronous purchase sends its receipt once its job is done, not before", async () => {
    const { deps, account } = await wallet();
    const bought = await purchase({ server: "receipt-quotes", item: "report", params: { topic: "tea" } }, deps);
    expect(bought, bought.message).toMatchObject({
      status: "job-pending",
      jobId: expect.any(String),
      transaction: expect.any(String),
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(await stored()).toHaveLength(3);
    let job = await checkJob(bought.jobId!, { ledger: deps.ledger, wallet: deps.wallet, settings: deps.settings });
    for (let i = 0; job.status === "pending" && i < 20; i++) {
      await new Promise((r) => setTimeout(r, 500));
      job = await checkJob(bought.jobId!, { ledger: deps.ledger, wallet: deps.wallet, settings: deps.settings });
    }
    expect(job).toMatchObject({ status: "done", result: "A report on tea" });
    const deadline = Date.now() + 15_000;
    while ((await stored()).length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect((await stored()).find((r) => r.payer === account.address)).toMatchObject({
      delivered: true,
      txHash: bought.transaction!.toLowerCase(),
    });
    const view = await findListingView(conn.db, listingId);
    expect(view!.delivery30d).toEqual({
      delivered: 2,
      failedUncharged: 0,
      failedCharged: 2,
      buyerReceipts: { delivered: 2, failedCharged: 2 },
    });
  });
});
