import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "@playwright/test";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/client";
import { createWalletClient, http, publicActions } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { baseSepolia } from "viem/chains";
import {
  BASE_SEPOLIA,
  BUYER_REVIEW_TYPES,
  buildRequirements,
  buyerReviewDomain,
  encodePaymentV1,
  readPurchaseResult,
  taskRefOf,
} from "@agora-mcp/protocol";
import { createMonetizedServer } from "@agora-mcp/server";
import { ANVIL_TEST_KEYS, USDC_ABI, USDC_ADDRESS } from "../../sandbox/chain";
import { chainPort, facilitatorPort } from "./support/ports";
import { signInWithGitHub, toast, uniqueLogin } from "./support/auth";
import { listServer } from "./support/listing-flow";

// A buyer pays a listed server on the local chain, reviews it with the paying wallet, and the detail page shows
// the review as a verified purchase; the text is plain text (a script payload shows as typed). An admin hides it.
// One run (desktop): it shares the admin account with the other review flows.
const SCRIPT = `Great quotes <script>window.__reviewXss = 1</script><img src=x onerror="window.__reviewXss = 2"> [free money](https://evil.example)`;

test("a paying wallet's review shows on the detail page as plain text, and an admin can hide it", async ({
  page,
  browser,
  request,
  isMobile,
}, testInfo) => {
  test.skip(isMobile, "one run is enough; it shares the admin account");
  test.setTimeout(180_000);
  const rpcUrl = `http://127.0.0.1:${chainPort}`;
  const providerWallet = privateKeyToAccount(generatePrivateKey()).address;
  const kit = createMonetizedServer({
    name: "e2e-quote-shop",
    walletAddress: providerWallet,
    facilitatorUrl: `http://127.0.0.1:${facilitatorPort}`,
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
  try {
    // The provider lists the server and an admin approves it (the approval's check reads its payee wallet).
    const name = `Quote Shop ${uniqueLogin(testInfo, "q")}`;
    await signInWithGitHub(page, uniqueLogin(testInfo, "quote-provider"));
    const admin = await listServer(page, browser, {
      name,
      description: "Sells quotes for a quarter each.",
      serverUrl: server.url,
    });

    await page.goto(`/marketplace?q=${encodeURIComponent(name)}`);
    await page.getByRole("link", { name }).click();
    await expect(page.getByTestId("buyer-reviews")).toContainText("No reviews yet.");
    const detail = page.url();
    const listingId = (
      (await (await request.get(`/api/mcp-agents/${detail.split("/").pop()}`)).json()) as { id: string }
    ).id;

    // A real purchase: a fresh buyer funded with sandbox USDC pays through the kit, which settles on the chain.
    const buyer = privateKeyToAccount(generatePrivateKey());
    const minter = createWalletClient({
      account: privateKeyToAccount(ANVIL_TEST_KEYS.minter),
      chain: baseSepolia,
      transport: http(rpcUrl),
    }).extend(publicActions);
    await minter.waitForTransactionReceipt({
      hash: await minter.writeContract({
        address: USDC_ADDRESS,
        abi: USDC_ABI,
        functionName: "mint",
        args: [buyer.address, 1_000_000n],
      }),
    });
    const req = buildRequirements({
      network: BASE_SEPOLIA,
      units: 250_000n,
      payTo: providerWallet,
      resource: { url: "mcp://e2e-quote-shop#quote" },
    }).v1;
    const payment = await new ExactEvmSchemeV1(buyer).createPaymentPayload(1, req as never);
    const mcp = new Client({ name: "e2e-buyer", version: "1.0.0" });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const outcome = readPurchaseResult(
      await mcp.callTool({
        name: "make-purchase",
        arguments: {
          itemId: "quote",
          params: { topic: "tea" },
          signedTransaction: encodePaymentV1(payment as never),
          paymentMethod: "USDC_BASE_SEPOLIA",
        },
      }),
    );
    await mcp.close();
    if (!outcome.ok || !outcome.transaction) throw new Error("the purchase failed");

    // The buyer's wallet signs the review (EIP-712) and sends it as any wallet software would.
    const now = Math.floor(Date.now() / 1000);
    // Signed for this deployment: its origin, as the browser's requests reach it.
    const message = {
      site: new URL(testInfo.project.use.baseURL!).origin,
      listing: listingId,
      taskRef: taskRefOf(84532, outcome.transaction),
      logIndex: -1,
      reviewer: buyer.address,
      rating: 4,
      text: SCRIPT,
      issuedAt: now,
      expiresAt: now + 600,
    };
    const domain = buyerReviewDomain(84532);
    const signature = await buyer.signTypedData({
      domain,
      types: BUYER_REVIEW_TYPES,
      primaryType: "Review",
      message: { ...message, logIndex: -1n, issuedAt: BigInt(now), expiresAt: BigInt(now + 600) },
    });
    const posted = await request.post("/api/buyer-reviews", { data: { domain, message, signature } });
    expect(posted.status(), await posted.text()).toBe(201);

    await page.goto(detail);
    const review = page.getByTestId("buyer-review");
    await expect(review).toHaveCount(1);
    const paidOn = new Intl.DateTimeFormat("en-US", {
      year: "numeric",
      month: "long",
      day: "numeric",
      timeZone: "UTC",
    }).format(new Date());
    // The sale is on the run's chain on this machine: named, not linked to a public explorer that never saw it.
    await expect(review.getByTestId("verified-purchase")).toHaveText(
      `Verified purchase · $0.25 · ${paidOn} · transaction on the local chain`,
    );
    await expect(review.getByRole("link", { name: "transaction" })).toHaveCount(0);
    await expect(review.getByRole("img", { name: "4 out of 5 stars" })).toBeVisible();
    // Plain text: the payload reads exactly as typed, ran nothing, and the markdown link is not a link.
    await expect(review.getByTestId("buyer-review-text")).toHaveText(SCRIPT);
    expect(await page.evaluate(() => (window as unknown as { __reviewXss?: number }).__reviewXss)).toBeUndefined();
    await expect(review.getByRole("link", { name: "free money" })).toHaveCount(0);
    await expect(page.getByTestId("buyer-rating").first()).toHaveText("4.0(1 review)");
    await page.screenshot({ path: testInfo.outputPath("buyer-review-detail.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: testInfo.outputPath("buyer-review-detail-390.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // The card in the marketplace carries the average and count.
    await page.goto(`/marketplace?q=${encodeURIComponent(name)}`);
    await expect(page.getByTestId("listing").filter({ hasText: name }).getByTestId("buyer-rating")).toHaveText(
      "4.0(1 review)",
    );

    // An admin hides it with a reason: gone from the page, recorded in the decision history.
    await admin.goto("/admin/review");
    const entry = admin.getByTestId("desk-review").filter({ hasText: name });
    await entry.getByLabel("Reason for hiding (kept in the moderation history)").fill("Links to a scam site");
    await entry.getByRole("button", { name: "Hide review" }).click();
    await expect(toast(admin, "Review hidden")).toBeVisible();
    await expect(admin.getByText(`${name} — hid a buyer review by`)).toBeVisible();
    await page.goto(detail);
    await expect(page.getByTestId("buyer-review")).toHaveCount(0);
    await expect(page.getByTestId("buyer-reviews")).toContainText("No reviews yet.");
  } finally {
    await server.close();
  }
});
